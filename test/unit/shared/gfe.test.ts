import { describe, expect, it } from 'vitest';
import { buildGfeDocument, GFE_DISCLAIMERS, type GfeBuildInput } from '@src/shared/gfe';
import { GfeIssueInput, GfePractice } from '@src/shared/bridge/gfe-contract';
import { ServiceError } from '@src/shared/service-error';

// Issue 30, item 5: the Good Faith Estimate's content as 45 CFR 149.610(c) lists it.
const CHARGES: Record<string, number> = { '99203': 16500, '36415': 1200, '80053': 4850 };
const INPUT: GfeBuildInput = {
  issued_on: '2026-11-23',
  patient: { first_name: 'Ada', last_name: 'Byron', date_of_birth: '1985-12-10' },
  service_on: '2026-12-07',
  primary_service: 'New patient office visit',
  provider: { name: 'Dr. Jane Smith', npi: '1234567893' },
  practice: { facility_name: 'Riverside Family Practice', facility_npi: '1245319599', tin: '123456789', location: '12 Main St, Springfield, IL 62701' },
  items: [
    { code: '99203', quantity: 1 },
    { code: '36415', description: 'Blood draw', quantity: 1 },
    { code: '80053', description: 'Metabolic panel', quantity: 2 },
  ],
  chargeFor: (code) => CHARGES[code] ?? null,
  diagnosis_codes: ['E11.9', 'E11.9', 'I10'],
  scheduled_separately: ['Retinal exam (ophthalmology)'],
};

describe('the Good Faith Estimate', () => {
  it('holds the patient, the primary service, itemised codes and charges, provider and facility with NPI and TIN, diagnoses, separate items, the disclaimers, dated', () => {
    const gfe = buildGfeDocument(INPUT);
    expect(gfe).toMatchObject({
      issued_on: '2026-11-23',
      patient: { first_name: 'Ada', last_name: 'Byron', date_of_birth: '1985-12-10' },
      service_on: '2026-12-07',
      primary_service: 'New patient office visit',
      provider: { name: 'Dr. Jane Smith', npi: '1234567893' },
      facility: { name: 'Riverside Family Practice', npi: '1245319599', tin: '12-3456789', location: '12 Main St, Springfield, IL 62701' },
      diagnosis_codes: ['E11.9', 'I10'],
      scheduled_separately: ['Retinal exam (ophthalmology)'],
    });
    expect(gfe.items).toEqual([
      { code: '99203', description: 'New patient office visit', quantity: 1, unit_charge_cents: 16500, charge_cents: 16500 },
      { code: '36415', description: 'Blood draw', quantity: 1, unit_charge_cents: 1200, charge_cents: 1200 },
      { code: '80053', description: 'Metabolic panel', quantity: 2, unit_charge_cents: 4850, charge_cents: 9700 },
    ]);
    expect(gfe.total_cents).toBe(27400);
    expect(Number.isInteger(gfe.total_cents)).toBe(true);
    const text = gfe.disclaimers.join(' ');
    expect(text).toMatch(/only an estimate/);
    expect(text).toMatch(/at least \$400 more than this Good Faith Estimate, you have the right to dispute/);
    expect(text).toMatch(/patient-provider dispute resolution/);
    expect(text).toMatch(/Keep a copy of this Good Faith Estimate/);
    expect(text).toMatch(/is not a contract/);
    expect(gfe.disclaimers).toEqual(GFE_DISCLAIMERS);
  });

  it('names every item without a self-pay charge and every repeated code, and builds nothing', () => {
    let error: unknown;
    try {
      buildGfeDocument({ ...INPUT, items: [{ code: '99203', quantity: 1 }, { code: '99999', quantity: 1 }, { code: '99203', quantity: 1 }] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).errors!.map((e) => [e.path, e.code])).toEqual([
      ['items[1].code', 'no_charge'],
      ['items[2].code', 'duplicate_item'],
    ]);
    expect((error as ServiceError).errors![0].message).toBe('Item 2 (code 99999) has no self-pay charge: add a default row for 99999 to the fee schedule in Settings.');
  });

  it('refuses a code that is not CPT or HCPCS, a bad diagnosis code, a bad NPI or TIN, naming the field', () => {
    const bad = GfeIssueInput.safeParse({ appointment_id: 'apt_1', items: [{ code: 'office' }], diagnosis_codes: ['diabetes'] });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((issue) => issue.path.join('.'))).toEqual(['items.0.code', 'diagnosis_codes.0']);
    expect(GfeIssueInput.parse({ appointment_id: 'apt_1', items: [{ code: 'g0439' }] }).items[0]).toEqual({ code: 'G0439', quantity: 1 });
    const practice = GfePractice.safeParse({ ...INPUT.practice, facility_npi: '1234567890', tin: '12-345' });
    expect(practice.error!.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['facility_npi', 'an NPI is 10 digits with a valid check digit'],
      ['tin', 'a TIN is 9 digits, as 12-3456789'],
    ]);
  });
});
