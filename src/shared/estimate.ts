import type { Accumulator, BenefitSummary, ByNetwork, Level, Network } from './benefit-summary';
import type { EstimateFigures, EstimateStep } from './bridge/estimate-contract';
import { formatCents } from './money';

/**
 * What the patient owes today for a visit, from a check's benefits (as the summary reads
 * them) and the fee schedule's allowed amount. Integer cents throughout: no amount is ever a
 * float. The order is the (30): the copay, then what is left of the deductible, then
 * the coinsurance on the rest, all capped by what is left of the out-of-pocket maximum.
 *
 * A figure the payer did not state is never guessed: it is taken at its least and at its
 * most, and the answer is the range between (the share only grows with each figure, so the
 * two ends are the least and the most the visit can cost). The one exception is a copay
 * stated with neither a deductible nor a coinsurance for the service: that is a copay plan,
 * and the copay is the visit's whole share.
 */

export interface EstimateInput {
  summary: BenefitSummary;
  /** The fee schedule's expected allowed amount for the visit; null when the practice has none for it. */
  allowed_cents: number | null;
  /** The network to read; without it, the one the check's figures speak of (in network first). */
  network?: Network;
  /** When the check was answered, and now (RFC 3339): the estimate is stale past `freshness_days`. */
  checked_at: string;
  now: string;
  freshness_days: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const WHOLE = 10_000;

/** In network where the check says anything about it; out of network where it speaks only of that. */
export function networkOf(summary: BenefitSummary): Network {
  const speaks = (network: Network) =>
    summary.copay[network] !== null ||
    summary.coinsurance[network] !== null ||
    (['individual', 'family'] as const).some((level) => summary.deductible[level][network] !== null || summary.out_of_pocket[level][network] !== null);
  return speaks('in_network') || !speaks('out_of_network') ? 'in_network' : 'out_of_network';
}

/**
 * What is left of a limit for this visit: the lesser of the member's and the family's where
 * both are stated (whichever runs out first ends the patient's share). Figures for another
 * service type are not this visit's; a limit of zero with nothing left is no limit at all.
 */
function remainingOf(levels: Record<Level, ByNetwork<Accumulator>>, network: Network, zeroIsNone: boolean): { cents: number; level: Level } | null {
  let best: { cents: number; level: Level } | null = null;
  for (const level of ['individual', 'family'] as const) {
    const acc = levels[level][network];
    if (!acc || acc.for !== null || acc.remaining === null) continue;
    if (zeroIsNone && acc.total === 0) continue;
    if (!best || acc.remaining < best.cents) best = { cents: acc.remaining, level };
  }
  return best;
}

interface Share {
  copay: number;
  deductible: number;
  /** What the coinsurance is taken on: the allowed amount less the copay and the deductible. */
  rest: number;
  coinsurance: number;
  total: number;
}

/** Half-up on the last cent, in whole numbers: `rest × points / 10,000` never exceeds `rest`. */
function share(allowed: number, copay: number, deductible: number, points: number): Share {
  const c = Math.min(copay, allowed);
  const d = Math.min(deductible, allowed - c);
  const rest = allowed - c - d;
  const k = Math.floor((rest * points + WHOLE / 2) / WHOLE);
  return { copay: c, deductible: d, rest, coinsurance: k, total: c + d + k };
}

const percent = (points: number) => `${points / 100}%`;
const whose = (level: Level) => (level === 'family' ? "the family's" : "the patient's");

export function estimateVisit(input: EstimateInput): EstimateFigures {
  const { summary, allowed_cents: allowed } = input;
  const network = input.network ?? networkOf(summary);
  const copayFigure = summary.copay[network];
  // A copay per day or admission, or for another service, is not this visit's copay.
  const copay = copayFigure && copayFigure.for === null && (copayFigure.per === null || copayFigure.per === 'visit') ? copayFigure.cents : null;
  const coinsuranceFigure = summary.coinsurance[network];
  const points = coinsuranceFigure && coinsuranceFigure.for === null ? coinsuranceFigure.basis_points : null;
  const deductible = remainingOf(summary.deductible, network, false);
  const outOfPocket = remainingOf(summary.out_of_pocket, network, true);
  const steps: EstimateStep[] = [];
  const step = (kind: EstimateStep['kind'], text: string, cents: number | null = null) => steps.push({ kind, cents, text });
  const basis = allowed === null ? 'copay_only' : 'fee_schedule';
  let min: number;
  let max: number | null;

  if (allowed !== null) step('allowed', `${formatCents(allowed)} expected allowed amount (fee schedule)`);
  else step('no_fee_schedule', 'no fee schedule amount for this visit: the copay alone');

  if (summary.out_of_pocket_met[network] || outOfPocket?.cents === 0) {
    // Nothing more is owed this year in this network: not even the copay is asked for.
    step('out_of_pocket_met', 'out-of-pocket maximum met: no copay, deductible or coinsurance to collect', 0);
    min = 0;
    max = 0;
  } else if (allowed === null) {
    if (copay !== null) {
      step('copay', `${formatCents(copay)} copay`, copay);
      min = copay;
      max = copay;
    } else {
      step('copay_not_stated', 'copay not stated by the payer');
      min = 0;
      max = null;
    }
  } else if (copay !== null && points === null && deductible === null) {
    const c = Math.min(copay, allowed);
    step('copay', `${formatCents(c)} copay; no deductible or coinsurance stated for this service`, c);
    min = c;
    max = c;
  } else {
    const low = share(allowed, copay ?? 0, deductible?.cents ?? 0, points ?? 0);
    const high = share(allowed, copay ?? allowed, deductible?.cents ?? allowed, points ?? WHOLE);
    if (copay !== null) step('copay', `${formatCents(low.copay)} copay`, low.copay);
    else step('copay_not_stated', `copay not stated by the payer: between $0.00 and ${formatCents(allowed)}`);
    if (deductible === null) step('deductible_not_stated', 'deductible not stated by the payer: up to the rest may apply to it');
    else if (deductible.cents === 0) step('deductible', 'deductible met', 0);
    else if (copay !== null) step('deductible', `${formatCents(low.deductible)} toward the deductible (${whose(deductible.level)} ${formatCents(deductible.cents)} left)`, low.deductible);
    else step('deductible', `up to ${formatCents(Math.min(deductible.cents, allowed))} toward the deductible (${whose(deductible.level)} ${formatCents(deductible.cents)} left)`);
    if (low.rest === 0) step('coinsurance', 'nothing left for coinsurance', 0);
    else if (points === null) step('coinsurance_not_stated', 'coinsurance not stated by the payer: between 0% and 100% of the rest');
    else if (low.rest === high.rest) step('coinsurance', `${percent(points)} coinsurance on ${formatCents(low.rest)}: ${formatCents(low.coinsurance)}`, low.coinsurance);
    else step('coinsurance', `${percent(points)} coinsurance on what the copay and deductible leave`);
    min = low.total;
    max = high.total;
  }

  if (max !== 0) {
    if (outOfPocket === null) step('out_of_pocket_not_stated', 'out-of-pocket maximum not stated by the payer');
    else {
      const capped = max === null || max > outOfPocket.cents;
      step('out_of_pocket', `out-of-pocket ${formatCents(outOfPocket.cents)} left${outOfPocket.level === 'family' ? ' (the family’s)' : ''}${capped ? ': no more than that' : ''}`);
      min = Math.min(min, outOfPocket.cents);
      max = max === null ? outOfPocket.cents : Math.min(max, outOfPocket.cents);
    }
  }

  const exact = max === min;
  const headline =
    max === null ? `Collect today: at least ${formatCents(min)} (the payer's figures are incomplete)` : exact ? `Collect today: ${formatCents(min)}` : `Collect today: ${formatCents(min)}–${formatCents(max)}`;
  const age = Date.parse(input.now) - Date.parse(input.checked_at);
  return {
    network,
    basis,
    allowed_cents: allowed,
    min_cents: min,
    max_cents: max,
    exact,
    headline,
    steps,
    stale: !(age <= input.freshness_days * DAY_MS),
    checked_at: input.checked_at,
    freshness_days: input.freshness_days,
  };
}
