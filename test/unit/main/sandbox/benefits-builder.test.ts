import { describe, expect, it } from 'vitest';
import { benefitCategory, buildActiveBenefits, buildInactiveBenefits, planFor } from '@src/main/sandbox/benefits-builder';
import { BENEFIT_CODES, Benefit, SERVICE_TYPES, type ServiceType } from '@src/shared/contract';

const MEMBERS = ['W284619375', 'U51837264', '918273645', 'XOF837261945', 'H47382910', 'a', 'zz-99'];

describe('benefits of an active plan', () => {
  it('are valid 271 benefits for every service type and member, starting with active coverage', () => {
    for (const member of MEMBERS) {
      for (const serviceType of SERVICE_TYPES) {
        const benefits = buildActiveBenefits(member, serviceType);
        for (const b of benefits) {
          expect(Benefit.parse(b)).toEqual(b);
          expect(b.x12_code).toBe(BENEFIT_CODES[b.code]);
        }
        expect(benefits[0]).toMatchObject({ code: 'active_coverage', service_types: [serviceType] });
        expect(benefits.filter((b) => b.service_types.includes(serviceType)).length).toBeGreaterThanOrEqual(2);
      }
    }
  });

  it('carry calendar-year and remaining deductible and out-of-pocket, remaining never above the year', () => {
    for (const member of MEMBERS) {
      const benefits = buildActiveBenefits(member, 'health_benefit_plan_coverage');
      const family = benefits[0].coverage_level === 'family';
      for (const code of ['deductible', 'out_of_pocket_stop_loss'] as const) {
        for (const level of family ? (['individual', 'family'] as const) : (['individual'] as const)) {
          for (const network of planFor(member).outOfNetwork ? (['yes', 'no'] as const) : (['yes'] as const)) {
            const of = (period: string) => benefits.find((b) => b.code === code && b.coverage_level === level && b.in_network === network && b.time_period === period);
            const year = Number(of('calendar_year')?.amount);
            const remaining = Number(of('remaining')?.amount);
            expect(year).toBeGreaterThan(0);
            expect(remaining).toBeGreaterThanOrEqual(0);
            expect(remaining).toBeLessThanOrEqual(year);
          }
        }
        if (!family) expect(benefits.some((b) => b.coverage_level === 'family' && b.code === code)).toBe(false);
      }
    }
  });

  it('are the same for the same member, and differ between plans', () => {
    expect(buildActiveBenefits('W284619375', 'urgent_care')).toEqual(buildActiveBenefits('w284619375', 'urgent_care'));
    const plans = new Set(Array.from({ length: 40 }, (_, i) => planFor(`M${i}`).name));
    expect(plans.size).toBe(4);
  });

  it('vary by service type', () => {
    const own = (member: string, type: ServiceType) => buildActiveBenefits(member, type).filter((b) => b.service_types.includes(type) && b.code !== 'active_coverage');
    const member = MEMBERS.find((m) => planFor(m).copay !== null)!;
    expect(own(member, 'dental_care').map((b) => b.code)).toEqual(['non_covered']);
    expect(own(member, 'urgent_care').find((b) => b.in_network === 'yes')).toMatchObject({ code: 'co_payment', time_period: 'visit' });
    expect(own(member, 'routine_physical').find((b) => b.in_network === 'yes')?.amount).toBe('0.00');
    expect(own(member, 'physical_therapy').filter((b) => b.code === 'limitations').map((b) => [b.time_period, b.quantity?.qualifier])).toEqual([
      ['calendar_year', 'VS'],
      ['remaining', 'VS'],
    ]);
    expect(own(member, 'hospital_inpatient').every((b) => b.authorization_required === 'yes')).toBe(true);
    const emergency = own(member, 'emergency_services');
    expect(emergency.map((b) => b.in_network).sort()).toEqual(['no', 'yes']);
    expect(new Set(emergency.map((b) => b.amount)).size).toBe(1);
    expect(own(member, 'brand_name_prescription_drug')[0].amount).toBe('40.00');
    expect(own(member, 'mail_order_prescription_drug_generic')[0].amount).toBe('20.00');
    expect(own(member, 'in_vitro_fertilization').map((b) => b.code)).toEqual(['non_covered']);
    const categories = new Set(SERVICE_TYPES.map(benefitCategory));
    expect(categories.size).toBeGreaterThanOrEqual(14);
  });

  it('use the plan name given, else the simulated plan', () => {
    expect(buildActiveBenefits('W1', 'chiropractic', 'Aetna Choice POS II')[0].messages).toEqual(['Aetna Choice POS II']);
    expect(buildActiveBenefits('W1', 'chiropractic')[0].messages).toEqual([planFor('W1').name]);
  });
});

describe('an inactive plan', () => {
  it('is one EB01 6 segment for the service type', () => {
    const [inactive, ...rest] = buildInactiveBenefits('chiropractic');
    expect(rest).toEqual([]);
    expect(Benefit.parse(inactive)).toMatchObject({ code: 'inactive', x12_code: '6', service_types: ['chiropractic'] });
  });
});
