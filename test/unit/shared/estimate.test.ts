import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { read271 } from '@src/main/x12/read-271';
import { summarizeBenefits, type BenefitSummary } from '@src/shared/benefit-summary';
import { estimateVisit } from '@src/shared/estimate';
import type { Benefit, ServiceType } from '@src/shared/contract';

/**
 * The estimate's arithmetic (issue 30, item 2) on the real 271s in test/fixtures/x12-271:
 * every figure below is read off the file, with the EB segment it comes from beside it.
 */
const DIR = path.resolve(__dirname, '../../fixtures/x12-271');
const NOW = '2026-11-26T12:00:00.000Z';

function summaryOf(file: string, serviceType: ServiceType): BenefitSummary {
  const answer = read271(file, fs.readFileSync(path.join(DIR, file), 'utf8'));
  return summarizeBenefits({ benefits: answer.people[0].benefits, service_type: serviceType });
}

const estimate = (summary: BenefitSummary, allowed: number | null, extra: Partial<Parameters<typeof estimateVisit>[0]> = {}) =>
  estimateVisit({ summary, allowed_cents: allowed, checked_at: '2026-11-20T09:00:00.000Z', now: NOW, freshness_days: 30, ...extra });

describe('the estimate on real 271s', () => {
  it('deductible not met, family and individual both stated: the lesser remainder is what applies, then coinsurance', () => {
    // Aetna (dependent): EB|C|IND|30|||29|78.8, EB|C|FAM|30|||29|186.89, EB|A|IND|5|||||0.3||||N, EB|G|IND|30||||1000|||||N
    const s = summaryOf('tigershark_271-dependent-benefits.x12', 'diagnostic_lab');
    const e = estimate(s, 20000, { network: 'out_of_network' });
    // $200 allowed: $0 copay, $78.80 to the deductible (the patient's, less than the family's $186.89), 30% of $121.20 = $36.36
    expect(e).toMatchObject({ network: 'out_of_network', basis: 'fee_schedule', min_cents: 11516, max_cents: 11516, exact: true, headline: 'Collect today: $115.16', stale: false });
    expect(e.steps.map((x) => x.text)).toEqual([
      '$200.00 expected allowed amount (fee schedule)',
      '$0.00 copay',
      "$78.80 toward the deductible (the patient's $78.80 left)",
      '30% coinsurance on $121.20: $36.36',
      'out-of-pocket $1,000.00 left',
    ]);
  });

  it('in network on the same answer: 0% coinsurance, so the deductible alone', () => {
    // EB|A|IND|5|||||0||||Y in network
    const e = estimate(summaryOf('tigershark_271-dependent-benefits.x12', 'diagnostic_lab'), 20000);
    expect(e).toMatchObject({ network: 'in_network', min_cents: 7880, max_cents: 7880 });
    // In network the payer states no out-of-pocket maximum: said, not made up.
    expect(e.steps.at(-1)).toMatchObject({ kind: 'out_of_pocket_not_stated' });
  });

  it('a deductible less than the visit: capped by what is left of it; the family remainder when it is the lesser', () => {
    const s = summaryOf('tigershark_271-dependent-benefits.x12', 'diagnostic_lab');
    const family = { ...s, deductible: { individual: { in_network: null, out_of_network: null }, family: s.deductible.family } };
    // The family's $186.89 left; $100 allowed: all of it to the deductible, nothing left for coinsurance
    expect(estimate(family, 10000, { network: 'out_of_network' })).toMatchObject({ min_cents: 10000, max_cents: 10000 });
    expect(estimate(family, 10000, { network: 'out_of_network' }).steps[3]).toEqual({ kind: 'coinsurance', cents: 0, text: 'nothing left for coinsurance' });
    expect(estimate(family, 30000, { network: 'out_of_network' }).steps[2].text).toBe("$186.89 toward the deductible (the family's $186.89 left)");
  });

  it('out-of-pocket met: no copay asked, nothing to collect, though the family deductible is not met', () => {
    // UnitedHealthcare: EB|G|IND|30|C1|||1500 with 29 → 0 (Y); EB|C|FAM … 29 → 236
    const e = estimate(summaryOf('tigershark_271-example-2.x12', 'professional_physician_visit_office'), 25000);
    expect(e).toMatchObject({ min_cents: 0, max_cents: 0, exact: true, headline: 'Collect today: $0.00' });
    expect(e.steps.map((x) => x.kind)).toEqual(['allowed', 'out_of_pocket_met']);
  });

  it('deductible met (the individual 0 left is less than the family 236): 20% coinsurance on the whole allowed amount', () => {
    // The same plan before its out-of-pocket maximum was met: EB|C|IND|30|||29|0, EB|A|IND|98|||27||0.2
    const s = summaryOf('tigershark_271-example-2.x12', 'professional_physician_visit_office');
    const before = { ...s, out_of_pocket_met: { in_network: false, out_of_network: false }, out_of_pocket: { individual: { in_network: null, out_of_network: null }, family: { in_network: null, out_of_network: null } } };
    const e = estimate(before, 25000);
    expect(e).toMatchObject({ min_cents: 5000, max_cents: 5000 });
    expect(e.steps.map((x) => x.text).slice(1, 4)).toEqual(['$0.00 copay', 'deductible met', '20% coinsurance on $250.00: $50.00']);
  });

  it('copay only: a copay and no deductible or coinsurance for the service is the whole share; out of network its own copay', () => {
    // EB*B*IND*98*…*27*10*…*Y and EB*B*IND*98*…*27*30*…*N
    const s = summaryOf('oop_5010_Example_3_1_2.x12', 'professional_physician_visit_office');
    expect(estimate(s, 12000)).toMatchObject({ network: 'in_network', min_cents: 1000, max_cents: 1000, headline: 'Collect today: $10.00' });
    expect(estimate(s, 12000, { network: 'out_of_network' })).toMatchObject({ min_cents: 3000, max_cents: 3000 });
  });

  it('no fee schedule: the copay alone, and it says so', () => {
    const e = estimate(summaryOf('oop_5010_Example_3_1_2.x12', 'professional_physician_visit_office'), null);
    expect(e).toMatchObject({ basis: 'copay_only', allowed_cents: null, min_cents: 1000, max_cents: 1000 });
    expect(e.steps.map((x) => x.text)).toEqual(['no fee schedule amount for this visit: the copay alone', '$10.00 copay', 'out-of-pocket maximum not stated by the payer']);
  });

  it('figures missing: a range, never a made-up exact figure; capped by the out-of-pocket left', () => {
    // EB|1 … EB|B|IND|…|0 (copay $0), EB|G|IND … 29 → 460, EB|G|FAM … 29 → 870; no deductible, no coinsurance
    const s = summaryOf('tigershark_271-related-entity.x12', 'professional_physician_visit_office');
    const noCopay = { ...s, copay: { in_network: null, out_of_network: null } };
    const e = estimate(noCopay, 60000);
    expect(e).toMatchObject({ exact: false, min_cents: 0, max_cents: 46000, headline: 'Collect today: $0.00–$460.00' });
    expect(e.steps.map((x) => x.kind)).toEqual(['allowed', 'copay_not_stated', 'deductible_not_stated', 'coinsurance_not_stated', 'out_of_pocket']);
    // An answer with no cost figures at all and no fee schedule: no upper figure is claimed.
    const bare = summaryOf('oop_4010_Example2_TMHP.x12', 'health_benefit_plan_coverage');
    expect(estimate(bare, null)).toMatchObject({ min_cents: 0, max_cents: null, exact: false });
  });

  it('stale past the freshness window', () => {
    const s = summaryOf('oop_5010_Example_3_1_2.x12', 'professional_physician_visit_office');
    expect(estimate(s, null, { checked_at: '2026-10-27T11:59:00.000Z' }).stale).toBe(true);
    expect(estimate(s, null, { checked_at: '2026-10-27T12:01:00.000Z' }).stale).toBe(false);
    expect(estimate(s, null, { checked_at: '2026-11-20T12:00:00.000Z', freshness_days: 5 }).stale).toBe(true);
  });
});

describe('the estimate, property-tested', () => {
  const money = fc.integer({ min: 0, max: 5_000_000 });
  const decimal = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
  const network = fc.constantFrom<Benefit['in_network']>('yes', 'no', 'unknown');
  const level = fc.constantFrom<Benefit['coverage_level']>('individual', 'family', undefined);
  const base = { x12_code: '', service_types: ['health_benefit_plan_coverage' as ServiceType], messages: [] };
  const benefit: fc.Arbitrary<Benefit> = fc.oneof(
    fc.record({ cents: money, in_network: network, coverage_level: level }).map(({ cents, ...rest }) => ({ ...base, ...rest, code: 'co_payment', x12_code: 'B', time_period: 'visit', amount: decimal(cents) }) as Benefit),
    fc.record({ points: fc.integer({ min: 0, max: 10000 }), in_network: network }).map(({ points, in_network }) => ({ ...base, in_network, code: 'co_insurance', x12_code: 'A', percent: String(points / 10000) }) as Benefit),
    fc
      .record({ code: fc.constantFrom('deductible', 'out_of_pocket_stop_loss'), cents: money, in_network: network, coverage_level: level, time_period: fc.constantFrom('calendar_year', 'remaining', 'year_to_date') })
      .map(({ cents, ...rest }) => ({ ...base, ...rest, amount: decimal(cents) }) as Benefit),
  );

  it('never negative, never above the allowed amount, never above the out-of-pocket remaining; the range is ordered', () => {
    fc.assert(
      fc.property(fc.array(benefit, { maxLength: 12 }), fc.option(money, { nil: null }), fc.constantFrom('in_network', 'out_of_network', undefined), (benefits, allowed, net) => {
        const summary = summarizeBenefits({ benefits, service_type: 'health_benefit_plan_coverage' });
        const e = estimateVisit({ summary, allowed_cents: allowed, network: net as never, checked_at: NOW, now: NOW, freshness_days: 30 });
        expect(Number.isInteger(e.min_cents)).toBe(true);
        expect(e.min_cents).toBeGreaterThanOrEqual(0);
        if (e.max_cents !== null) {
          expect(Number.isInteger(e.max_cents)).toBe(true);
          expect(e.max_cents).toBeGreaterThanOrEqual(e.min_cents);
        }
        if (allowed !== null) expect(e.max_cents).not.toBeNull();
        if (allowed !== null) expect(e.max_cents!).toBeLessThanOrEqual(allowed);
        for (const lvl of ['individual', 'family'] as const) {
          const oop = summary.out_of_pocket[lvl][e.network];
          if (oop && oop.for === null && oop.remaining !== null && oop.total !== 0) {
            expect(e.max_cents).not.toBeNull();
            expect(e.max_cents!).toBeLessThanOrEqual(oop.remaining);
          }
        }
        for (const s of e.steps) if (s.cents !== null) expect(Number.isInteger(s.cents) && s.cents >= 0).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
