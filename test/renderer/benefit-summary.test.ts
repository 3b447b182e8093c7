import { describe, expect, it } from 'vitest';
import type { Benefit } from '@src/shared/contract';
import { accumulatorFrom, summarizeBenefits } from '@src/shared/benefit-summary';
import { centsFromDecimal, fractionFromDecimal } from '@src/shared/money';
import { accumulatorCell, accumulatorTile, costTile, otherPayerSentence } from '@src/renderer/src/eligibility/summary-words';

function eb(partial: Partial<Benefit> & Pick<Benefit, 'code'>): Benefit {
  return { x12_code: 'X', service_types: ['health_benefit_plan_coverage'], in_network: 'yes', messages: [], ...partial };
}

/** A typical PPO 271: plan-level deductible and OOP (limit + remaining), office-visit copay. */
const PPO: Benefit[] = [
  eb({ code: 'active_coverage', messages: ['Choice Plus PPO'] }),
  eb({ code: 'deductible', coverage_level: 'individual', time_period: 'calendar_year', amount: '1500.00' }),
  eb({ code: 'deductible', coverage_level: 'individual', time_period: 'remaining', amount: '1125.50' }),
  eb({ code: 'deductible', coverage_level: 'family', time_period: 'calendar_year', amount: '3000' }),
  eb({ code: 'deductible', coverage_level: 'family', time_period: 'year_to_date', amount: '700' }),
  eb({ code: 'deductible', coverage_level: 'individual', time_period: 'calendar_year', amount: '3000', in_network: 'no' }),
  eb({ code: 'deductible', coverage_level: 'individual', time_period: 'remaining', amount: '3000', in_network: 'no' }),
  eb({ code: 'out_of_pocket_stop_loss', coverage_level: 'individual', time_period: 'calendar_year', amount: '6000' }),
  eb({ code: 'out_of_pocket_stop_loss', coverage_level: 'individual', time_period: 'remaining', amount: '5200' }),
  eb({ code: 'out_of_pocket_stop_loss', coverage_level: 'family', time_period: 'calendar_year', amount: '12000' }),
  eb({ code: 'co_payment', service_types: ['professional_physician_visit_office'], coverage_level: 'individual', time_period: 'visit', amount: '25' }),
  eb({ code: 'co_payment', service_types: ['professional_physician_visit_office'], coverage_level: 'individual', time_period: 'visit', amount: '60', in_network: 'no' }),
  eb({ code: 'co_payment', service_types: ['urgent_care'], amount: '75' }),
  eb({ code: 'co_insurance', service_types: ['health_benefit_plan_coverage'], percent: '0.2' }),
  eb({ code: 'co_insurance', service_types: ['health_benefit_plan_coverage'], percent: '0.4', in_network: 'no' }),
];

describe('benefit summary', () => {
  it('reads a PPO response: active, plan name, copay for the visit type, coinsurance, deductible and OOP met and remaining', () => {
    const summary = summarizeBenefits({ benefits: PPO, service_type: 'professional_physician_visit_office' });
    expect(summary.plan).toBe('active');
    expect(summary).toMatchObject({ plan_name: 'Choice Plus PPO', plan_name_source: 'payer' });
    expect(summary.copay).toMatchObject({ in_network: { cents: 2500, time_period: 'visit', per: 'visit', for: null }, out_of_network: { cents: 6000, time_period: 'visit', per: 'visit', for: null } });
    // Coinsurance only at plan level: it applies to the visit type too.
    expect(summary.coinsurance).toMatchObject({ in_network: { fraction: 0.2, for: null }, out_of_network: { fraction: 0.4, for: null } });
    expect(summary.deductible.individual.in_network).toMatchObject({ total: 150000, total_period: 'calendar_year', met: 37450, remaining: 112550, computed: 'met' });
    expect(summary.deductible.individual.out_of_network).toMatchObject({ total: 300000, met: 0, remaining: 300000, computed: 'met' });
    // Family sent as limit and met (year to date): the remainder is derived, and said to be.
    expect(summary.deductible.family.in_network).toMatchObject({ total: 300000, met: 70000, remaining: 230000, computed: 'remaining' });
    expect(summary.deductible.family.out_of_network).toBeNull();
    expect(summary.out_of_pocket.individual.in_network).toMatchObject({ total: 600000, met: 80000, remaining: 520000 });
    // Only the limit is known: nothing is invented, and the limit is not what is left.
    expect(summary.out_of_pocket.family.in_network).toMatchObject({ total: 1200000, met: null, remaining: null, computed: null });
  });

  it('uses the asked service type first, then plan-level figures', () => {
    expect(summarizeBenefits({ benefits: PPO, service_type: 'urgent_care' }).copay.in_network).toMatchObject({ cents: 7500, time_period: null, per: null, for: null });
    // No plan-level copay: the one the payer sent is shown, saying which service it is for.
    const plan = summarizeBenefits({ benefits: PPO, service_type: 'health_benefit_plan_coverage' });
    expect(plan.copay.in_network).toMatchObject({ cents: 2500, time_period: 'visit', for: 'professional_physician_visit_office' });
  });

  it('treats unknown / not-applicable network as both networks, unless a network-specific figure exists', () => {
    const benefits = [
      eb({ code: 'active_coverage' }),
      eb({ code: 'deductible', time_period: 'calendar_year', amount: '500', in_network: 'not_applicable' }),
      eb({ code: 'deductible', time_period: 'calendar_year', amount: '900', in_network: 'no' }),
    ];
    const summary = summarizeBenefits({ benefits, service_type: 'health_benefit_plan_coverage' });
    expect(summary.deductible.individual.in_network?.total).toBe(50000);
    expect(summary.deductible.individual.out_of_network?.total).toBe(90000);
  });

  it('the payer’s plan name heads the answer; the card’s (maybe misread) only when the payer names none', () => {
    const named = [eb({ code: 'active_coverage', plan_description: 'GOLD 123 PLAN' })];
    expect(summarizeBenefits({ benefits: named, service_type: 'health_benefit_plan_coverage', card_plan_name: 'effective date' })).toMatchObject({ plan_name: 'GOLD 123 PLAN', plan_name_source: 'payer' });
    const unnamed = [eb({ code: 'active_coverage' })];
    expect(summarizeBenefits({ benefits: unnamed, service_type: 'health_benefit_plan_coverage', card_plan_name: 'Gold HMO' })).toMatchObject({ plan_name: 'Gold HMO', plan_name_source: 'card' });
    expect(summarizeBenefits({ benefits: unnamed, service_type: 'health_benefit_plan_coverage' })).toMatchObject({ plan_name: null, plan_name_source: null });
  });

  it('reads an inactive plan', () => {
    const summary = summarizeBenefits({ benefits: [eb({ code: 'inactive' })], service_type: 'health_benefit_plan_coverage', card_plan_name: 'Gold HMO' });
    expect(summary.plan).toBe('inactive');
    expect(summary.plan_name).toBe('Gold HMO');
    expect(summary.deductible.individual.in_network).toBeNull();
    expect(summary.copay).toEqual({ in_network: null, out_of_network: null });
  });

  it('an active segment wins over an inactive one (a dropped rider beside an active plan)', () => {
    expect(summarizeBenefits({ benefits: [eb({ code: 'inactive' }), eb({ code: 'active_coverage' })], service_type: 'health_benefit_plan_coverage' }).plan).toBe('active');
  });

  it('never reports a negative remainder when more than the limit is met', () => {
    expect(accumulatorFrom([eb({ code: 'deductible', time_period: 'calendar_year', amount: '100' }), eb({ code: 'deductible', time_period: 'year_to_date', amount: '150' })])).toMatchObject({
      total: 10000,
      met: 15000,
      remaining: 0,
      computed: 'remaining',
    });
    expect(accumulatorFrom([])).toBeNull();
    expect(accumulatorFrom([eb({ code: 'deductible', time_period: 'remaining', amount: '40' })])).toMatchObject({ total: null, met: null, remaining: 4000, computed: null });
  });

  it('says per visit or per day, and when the payer did not say which network', () => {
    const daily = eb({ code: 'co_payment', service_types: ['hospital'], time_period: 'remaining', amount: '248', quantity: { qualifier: 'DY', value: '30' }, in_network: 'unknown', insurance_type: 'MA' });
    const copay = summarizeBenefits({ benefits: [eb({ code: 'active_coverage' }), daily], service_type: 'hospital' }).copay;
    expect(copay.in_network).toEqual({ cents: 24800, time_period: 'remaining', per: 'day', quantity: { qualifier: 'DY', value: 30 }, for: null, insurance: 'Medicare Part A', network_stated: false });
    expect(copay.out_of_network).toEqual(copay.in_network);
  });

  it('keeps every cent: decimal strings become whole cents', () => {
    expect(centsFromDecimal('1500')).toBe(150000);
    expect(centsFromDecimal('0.1')).toBe(10);
    expect(centsFromDecimal('1125.505')).toBe(112551);
    expect(centsFromDecimal('19.99')).toBe(1999);
    expect(centsFromDecimal('-5.25')).toBe(-525);
    expect(centsFromDecimal('abc')).toBeNull();
    expect(centsFromDecimal(undefined)).toBeNull();
    expect(fractionFromDecimal('0.2')).toBe(0.2);
    expect(fractionFromDecimal('20')).toBeNull();
  });
});

describe('figures of one accumulator come from one insurance and one service type', () => {
  it('never works out "met" from Part A’s limit and Part B’s remainder, nor shows one part’s limit beside the other’s', () => {
    // Plan-level Medicare deductibles, no network said: Part A per benefit period, Part B what is left.
    const benefits = [
      eb({ code: 'deductible', time_period: 'episode', amount: '1632', insurance_type: 'MA', in_network: 'unknown' }),
      eb({ code: 'deductible', time_period: 'remaining', amount: '240', insurance_type: 'MB', in_network: 'unknown' }),
    ];
    const acc = accumulatorFrom(benefits);
    // The remainder is Part B's; Part A's limit is not its total, and no "met" is invented.
    expect(acc).toMatchObject({ remaining: 24000, total: null, met: null, computed: null, insurance: 'Medicare Part B' });
  });

  it('does not pair a limit for one service type with a remainder for another', () => {
    const benefits = [
      eb({ code: 'deductible', service_types: ['hospital'], time_period: 'calendar_year', amount: '1000' }),
      eb({ code: 'deductible', service_types: ['professional_physician'], time_period: 'remaining', amount: '50' }),
    ];
    expect(accumulatorFrom(benefits, 'urgent_care')).toMatchObject({ remaining: 5000, total: null, met: null, computed: null, for: 'professional_physician' });
  });

  it('still pairs figures when only one of them names the insurance', () => {
    const benefits = [
      eb({ code: 'deductible', time_period: 'calendar_year', amount: '1000', insurance_type: 'C1' }),
      eb({ code: 'deductible', time_period: 'remaining', amount: '250' }),
    ];
    expect(accumulatorFrom(benefits)).toMatchObject({ total: 100000, remaining: 25000, met: 75000, computed: 'met' });
  });
});

describe('the summary’s words: one plain sentence a tile, the network said once (issue 26, item 8)', () => {
  const noneMet = { in_network: false, out_of_network: false };
  const copayText = (c: { cents: number }) => `$${(c.cents / 100).toFixed(2)}`;

  it('a copay in network only says the out-of-network one was not stated, once', () => {
    const summary = summarizeBenefits({ benefits: [eb({ code: 'active_coverage' }), eb({ code: 'co_payment', time_period: 'visit', amount: '0' })], service_type: 'health_benefit_plan_coverage' });
    expect(costTile(summary.copay, copayText, 'copay', noneMet)).toEqual({ value: '$0.00', sentence: 'In network; the payer did not state the out-of-network copay.' });
  });

  it('a coinsurance out of network only names the network once', () => {
    const summary = summarizeBenefits({ benefits: [eb({ code: 'active_coverage' }), eb({ code: 'co_insurance', percent: '0.3', in_network: 'no' })], service_type: 'health_benefit_plan_coverage' });
    const words = costTile(summary.coinsurance, (c) => `${c.fraction * 100}% patient pays`, 'coinsurance', noneMet);
    expect(words).toEqual({ value: '30% patient pays', sentence: 'Out of network; the payer did not state the in-network coinsurance.' });
    expect(words!.sentence.match(/out of network/gi)).toHaveLength(1);
  });

  it('both networks: the other one in the same sentence; no network said: said once', () => {
    const both = summarizeBenefits({ benefits: PPO, service_type: 'professional_physician_visit_office' });
    expect(costTile(both.copay, copayText, 'copay', noneMet)?.sentence).toBe('In network; out of network $60.00.');
    const either = summarizeBenefits({ benefits: [eb({ code: 'co_payment', amount: '15', in_network: 'unknown' })], service_type: 'health_benefit_plan_coverage' });
    expect(costTile(either.copay, copayText, 'copay', noneMet)?.sentence).toBe('Either network (the payer did not say which).');
  });

  it('“Commercial” is not appended to amounts; Medicare’s parts still are', () => {
    const benefits = [
      eb({ code: 'out_of_pocket_stop_loss', time_period: 'calendar_year', amount: '1500', insurance_type: 'C1' }),
      eb({ code: 'out_of_pocket_stop_loss', time_period: 'remaining', amount: '0', insurance_type: 'C1' }),
      eb({ code: 'deductible', time_period: 'remaining', amount: '240', insurance_type: 'MB', in_network: 'unknown' }),
    ];
    const summary = summarizeBenefits({ benefits, service_type: 'health_benefit_plan_coverage' });
    const oop = accumulatorTile(summary.out_of_pocket)!;
    expect(oop).toEqual({ value: '$0.00 left', sentence: 'Individual, in network: $1,500.00 met (worked out) of $1,500.00 per calendar year.' });
    expect(accumulatorCell(summary.out_of_pocket.individual.in_network)).not.toMatch(/Commercial/);
    expect(accumulatorTile(summary.deductible)!.sentence).toBe('Individual, either network (the payer did not say which), Medicare Part B: the limit and the amount met not stated.');
  });

  it('the copay and coinsurance tiles say when the out-of-pocket maximum is met, instead of a share beside “$0.00 left”', () => {
    const benefits = [
      eb({ code: 'active_coverage' }),
      eb({ code: 'out_of_pocket_stop_loss', time_period: 'calendar_year', amount: '1500' }),
      eb({ code: 'out_of_pocket_stop_loss', time_period: 'remaining', amount: '0' }),
      eb({ code: 'co_insurance', percent: '0.2' }),
      eb({ code: 'co_payment', time_period: 'visit', amount: '25' }),
    ];
    const summary = summarizeBenefits({ benefits, service_type: 'health_benefit_plan_coverage' });
    expect(summary.out_of_pocket_met).toEqual({ in_network: true, out_of_network: false });
    const met = 'In network, but the out-of-pocket maximum is met: the patient normally owes nothing more in network.';
    expect(costTile(summary.coinsurance, () => '20% patient pays', 'coinsurance', summary.out_of_pocket_met)?.sentence).toBe(met);
    expect(costTile(summary.copay, copayText, 'copay', summary.out_of_pocket_met)?.sentence).toBe(met);
    // A limit of zero met is no maximum: nothing said.
    const zero = summarizeBenefits({ benefits: [eb({ code: 'out_of_pocket_stop_loss', time_period: 'calendar_year', amount: '0' }), eb({ code: 'out_of_pocket_stop_loss', time_period: 'remaining', amount: '0' })], service_type: 'health_benefit_plan_coverage' });
    expect(zero.out_of_pocket_met.in_network).toBe(false);
  });

  it('names another payer with its role, not a bare “Other payer”', () => {
    const benefits = [
      eb({ code: 'active_coverage' }),
      eb({ code: 'other_or_additional_payor', insurance_type: 'MA', plan_description: 'Medicare Part A', service_types: [] }),
      eb({ code: 'other_or_additional_payor', service_types: ['pharmacy'], insurance_type: 'OT', related_entities: [{ code: 'PR', name: 'SILVERSCRIPT INSURANCE COMPANY' }] }),
      eb({ code: 'other_or_additional_payor', insurance_type: '12', related_entities: [{ code: 'PRP', name: 'ACME HEALTH' }] }),
      eb({ code: 'other_or_additional_payor', insurance_type: 'OT' }),
    ];
    const sentences = summarizeBenefits({ benefits, service_type: 'health_benefit_plan_coverage' }).other_payers.map(otherPayerSentence);
    expect(sentences).toEqual([
      'Medicare Part A may be primary: check coordination of benefits.',
      'SILVERSCRIPT INSURANCE COMPANY (for pharmacy) may be primary: check coordination of benefits.',
      'ACME HEALTH is the primary payer: check coordination of benefits.',
      'Another payer may be primary: check coordination of benefits.',
    ]);
  });
});
