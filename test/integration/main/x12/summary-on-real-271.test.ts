import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { read271 } from '@src/main/x12/read-271';
import { summarizeBenefits } from '@src/shared/benefit-summary';
import { explainFailure } from '@src/renderer/src/eligibility/aaa-fixes';
import { accumulatorTile, costTile, otherPayerSentence } from '@src/renderer/src/eligibility/summary-words';
import type { ServiceType } from '@src/shared/contract';

/**
 * The desk's summary on real 271s (test/fixtures/x12-271, copied by
 * scripts/copy-x12-fixtures.cjs). Every expected figure was read off the file by hand;
 * the EB segment it comes from is quoted beside it. The card's plan name is always the
 * misread "effective date": it must never head a payer's answer that names the plan.
 */
const DIR = path.resolve(__dirname, '../../../fixtures/x12-271');

function summaryOf(file: string, serviceType: ServiceType, person = 0) {
  const answer = read271(file, fs.readFileSync(path.join(DIR, file), 'utf8'));
  return summarizeBenefits({ benefits: answer.people[person].benefits, service_type: serviceType, card_plan_name: 'effective date' });
}

describe('the summary’s words on real 271s (issue 26, item 8)', () => {
  it('UnitedHealthcare: out-of-pocket met, so the copay and coinsurance tiles say so; no “Commercial” beside an amount', () => {
    const s = summaryOf('tigershark_271-example-2.x12', 'professional_physician_visit_office');
    // EB|G|IND|30|C1|||1500 with 29 → 0: nothing left of the maximum in network
    expect(s.out_of_pocket_met).toEqual({ in_network: true, out_of_network: false });
    const met = 'In network, but the out-of-pocket maximum is met: the patient normally owes nothing more in network.';
    expect(costTile(s.coinsurance, () => '20% patient pays', 'coinsurance', s.out_of_pocket_met)?.sentence).toBe(met);
    expect(costTile(s.copay, () => '$0.00 per visit', 'copay', s.out_of_pocket_met)?.sentence).toBe(met);
    expect(accumulatorTile(s.out_of_pocket)).toEqual({ value: '$0.00 left', sentence: 'Individual, in network: $1,500.00 met of $1,500.00.' });
  });

  it('Medicaid naming Medicare and another policy: each other payer by name and role, not a bare “Other payer”', () => {
    // EB*R***QM*QMB, EB*R***MA*Medicare Part A, EB*R***MB*Medicare Part B, EB*R**69*OT*Policy Type Desc
    expect(summaryOf('oop_4010_Example1_DHHS.x12', 'health_benefit_plan_coverage').other_payers.map(otherPayerSentence)).toEqual([
      'QMB may be primary: check coordination of benefits.',
      'Medicare Part A may be primary: check coordination of benefits.',
      'Medicare Part B may be primary: check coordination of benefits.',
      'Policy Type Desc (for maternity) may be primary: check coordination of benefits.',
    ]);
    // EB*R*IND*30*12 … NM1*PRP*2*ORGNAME: the 2120 loop says it is the primary payer
    expect(otherPayerSentence(summaryOf('oophipaa_4010_Example3_CMS_HETS.x12', 'health_benefit_plan_coverage').other_payers[0])).toBe('ORGNAME is the primary payer: check coordination of benefits.');
    // EB*R**88*OT … NM1*PR*2*SILVERSCRIPT INSURANCE COMPANY: a drug plan, for pharmacy
    expect(summaryOf('nodex12_271.x12', 'health_benefit_plan_coverage').other_payers.map(otherPayerSentence)).toContain(
      'SILVERSCRIPT INSURANCE COMPANY (for pharmacy) may be primary: check coordination of benefits.',
    );
  });
});

describe('summary figures on real 271s', () => {
  it('UnitedHealthcare managed indemnity: calendar-year total, year to date and remaining, individual and family, in and out of network', () => {
    const s = summaryOf('tigershark_271-example-2.x12', 'professional_physician_visit_office');
    expect(s).toMatchObject({ plan: 'active', plan_name: 'MANAGED INDEMNITY', plan_name_source: 'payer' }); // EB|1||30|C1|MANAGED INDEMNITY
    // EB|C|IND|30||||118|||||Y, EB|C|IND|30|||24|118|||||Y, EB|C|IND|30|||29|0|||||Y
    expect(s.deductible.individual.in_network).toMatchObject({ total: 11800, met: 11800, remaining: 0, computed: null, network_stated: true });
    // EB|C|FAM|30||||236, 24 → 0, 29 → 236 (Y)
    expect(s.deductible.family.in_network).toMatchObject({ total: 23600, met: 0, remaining: 23600, computed: null });
    // EB|C|IND|30||||0|||||N and its 24/29 zeros
    expect(s.deductible.individual.out_of_network).toMatchObject({ total: 0, met: 0, remaining: 0 });
    // EB|G|IND|30|C1|||1500, 24 → 1500, 29 → 0 (Y)
    expect(s.out_of_pocket.individual.in_network).toMatchObject({ total: 150000, met: 150000, remaining: 0, computed: null });
    // EB|G|FAM|30|C1|||3000, 24 → 3025.9, 29 → 0: more met than the limit, and nothing left
    expect(s.out_of_pocket.family.in_network).toMatchObject({ total: 300000, met: 302590, remaining: 0, computed: null });
    // EB|B|IND|98|||27|0|||||Y (office visit), EB|A|IND|98|||27||0.2||||Y
    expect(s.copay.in_network).toMatchObject({ cents: 0, per: 'visit', for: null });
    expect(s.copay.out_of_network).toBeNull();
    expect(s.coinsurance.in_network).toMatchObject({ fraction: 0.2 });
  });

  it('Aetna Choice POS II (dependent): calendar-year totals and remaining, met worked out and said to be', () => {
    const s = summaryOf('tigershark_271-dependent-benefits.x12', 'diagnostic_lab');
    expect(s).toMatchObject({ plan_name: 'Aetna Choice POS II', plan_name_source: 'payer' }); // EB|1|FAM|30|PS|Aetna Choice POS II
    // EB|C|IND|30|||23|200 and EB|C|IND|30|||29|78.8 (no EB12: either network)
    expect(s.deductible.individual.in_network).toMatchObject({ total: 20000, total_period: 'calendar_year', remaining: 7880, met: 12120, computed: 'met', network_stated: false });
    // EB|C|FAM|30|||23|600 and EB|C|FAM|30|||29|186.89
    expect(s.deductible.family.in_network).toMatchObject({ total: 60000, remaining: 18689, met: 41311, computed: 'met' });
    // EB|G|IND|30||||1000|||||N: out of network only; in network not stated
    expect(s.out_of_pocket.individual.out_of_network).toMatchObject({ total: 100000, remaining: 100000 });
    expect(s.out_of_pocket.individual.in_network).toBeNull();
    // Lab (5): EB|A|FAM|5|||||0||||Y and EB|A|FAM|5|||||.3||||N; EB|B|FAM|5||||0
    expect(s.coinsurance).toMatchObject({ in_network: { fraction: 0 }, out_of_network: { fraction: 0.3 } });
    expect(s.copay.in_network).toMatchObject({ cents: 0, network_stated: false });
  });

  it('Medicare (CMS HETS 4010): Part A deductible left, a copay per day with the days left; the card’s name only as the payer names none', () => {
    const s = summaryOf('oophipaa_4010_Example3_CMS_HETS.x12', 'hospital');
    expect(s).toMatchObject({ plan: 'active', plan_name: 'Medicare Part A · Medicare Part B', plan_name_source: 'payer' }); // EB*1*IND**MA, EB*1*IND**MB
    // EB*C**47*MA**29*992: what is left, stated; no total sent, none invented
    expect(s.deductible.individual.in_network).toMatchObject({ remaining: 99200, total: null, met: null, computed: null, insurance: 'Medicare Part A', network_stated: false });
    // EB*B**47*MA**29*248**DY*30
    expect(s.copay.in_network).toMatchObject({ cents: 24800, per: 'day', quantity: { qualifier: 'DY', value: 30 }, insurance: 'Medicare Part A' });
    expect(s.out_of_pocket.individual.in_network).toBeNull();
    // Part B, for a professional visit: EB*C**96*MB**29*0
    const partB = summaryOf('oophipaa_4010_Example3_CMS_HETS.x12', 'professional_physician');
    expect(partB.deductible.individual.in_network).toMatchObject({ remaining: 0, insurance: 'Medicare Part B' });
  });

  it('5010 specimen: copay in and out of network, per visit, for the office visit asked', () => {
    const s = summaryOf('oop_5010_Example_3_1_2.x12', 'professional_physician_visit_office');
    expect(s).toMatchObject({ plan_name: 'GOLD 123 PLAN', plan_name_source: 'payer' }); // EB*1**30**GOLD 123 PLAN
    // EB*B**1^33^35^47^86^88^98^AL^MH^UC*HM*GOLD 123 PLAN*27*10*****Y and …*27*30*****N
    expect(s.copay.in_network).toMatchObject({ cents: 1000, per: 'visit', network_stated: true, for: null });
    expect(s.copay.out_of_network).toMatchObject({ cents: 3000, per: 'visit', network_stated: true });
    // No deductible or coinsurance segment: not stated, not zero.
    expect(s.deductible.individual).toEqual({ in_network: null, out_of_network: null });
    expect(s.coinsurance).toEqual({ in_network: null, out_of_network: null });
  });

  it('a subscriber rejected with AAA 72, 73 and 58: the reasons and the fields the desk corrects', () => {
    const [person] = read271('r.x12', fs.readFileSync(path.join(DIR, 'tigershark_271-example.x12'), 'utf8')).people;
    expect(person.benefits).toEqual([]);
    // AAA|N||72|C, AAA|N||73|C (twice), AAA|N||58|C
    expect(person.errors.map((e) => [e.code, e.level, e.field, e.follow_up_action])).toEqual([
      ['72', 'subscriber', 'member_id', 'please_correct_and_resubmit'],
      ['73', 'subscriber', 'member_name', 'please_correct_and_resubmit'],
      ['73', 'subscriber', 'member_name', 'please_correct_and_resubmit'],
      ['58', 'subscriber', 'date_of_birth', 'please_correct_and_resubmit'],
    ]);
    const explained = explainFailure({ failure_reason: 'clearinghouse_entity_error', clearinghouse_entity_errors: person.errors });
    // The payer's repeated 73 is one reason for the desk (issue 26, Low: "payer code 73 listed twice").
    expect(explained.map((e) => e.field)).toEqual(['member_id', 'member_name', 'date_of_birth']);
    expect(explained[0].problem).toMatch(/member id/i);
    // 58: the desk corrects the patient's details, never registers the patient again (item 7).
    expect(explained[2].fix).toMatch(/correct the patient’s details/);
  });

  it('a request rejected at the provider level (AAA*Y**50*N): nobody answered about, the reason kept', () => {
    const answer = read271('p.x12', fs.readFileSync(path.join(DIR, 'oop_5010_Example_3_1_3.x12'), 'utf8'));
    expect(answer.people).toEqual([]);
    expect(answer.errors).toEqual([
      { code: '50', reason: 'provider_ineligible_for_inquiries', description: 'Provider ineligible for inquiries', follow_up_action: 'resubmission_not_allowed', field: 'provider_id', level: 'information_receiver' },
    ]);
  });
});
