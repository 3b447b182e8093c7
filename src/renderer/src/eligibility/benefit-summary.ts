import { eligibilityBadge } from '../../../shared/bridge/desk-eligibility';
import {
  DEFAULT_SERVICE_TYPE,
  type Benefit,
  type BenefitCode,
  type CoverageLevel,
  type ServiceType,
  type TimePeriod,
} from '../../../shared/contract';
import { centsFromDecimal, fractionFromDecimal } from './money';

/**
 * The five-second summary of a successful check: is the plan active, what is it called,
 * what will the visit cost (copay, coinsurance) and how far along the year's deductible
 * and out-of-pocket maximum are, for the individual and the family, in and out of network.
 */

export type Network = 'in_network' | 'out_of_network';
export type Level = 'individual' | 'family';

/** Either side may be unknown: payers often send only some of the figures. */
export interface Accumulator {
  total: number | null;
  met: number | null;
  remaining: number | null;
}

export type ByNetwork<T> = Record<Network, T | null>;

export interface BenefitSummary {
  /** As Today's badge reads the same check. */
  plan: 'active' | 'inactive';
  plan_name: string | null;
  /** The service type the figures below are for (the asked one, else plan-level). */
  service_type: ServiceType;
  /** `for`: the service type the payer gave the figure for, when not the one asked. */
  copay: ByNetwork<{ cents: number; time_period: TimePeriod | null; for: ServiceType | null }>;
  coinsurance: ByNetwork<{ fraction: number; for: ServiceType | null }>;
  deductible: Record<Level, ByNetwork<Accumulator>>;
  out_of_pocket: Record<Level, ByNetwork<Accumulator>>;
}

const FAMILY_LEVELS: ReadonlySet<CoverageLevel> = new Set<CoverageLevel>([
  'family',
  'two_party',
  'employee_and_spouse',
  'employee_and_children',
  'employee_and_one_dependent',
  'spouse_and_children',
  'dependents_only',
]);

/** No level means the member's own: payers omit EB02 for individual amounts. */
export function levelOf(benefit: Pick<Benefit, 'coverage_level'>): Level {
  return benefit.coverage_level && FAMILY_LEVELS.has(benefit.coverage_level) ? 'family' : 'individual';
}

/** `unknown` and `not_applicable` apply to both networks (the payer does not distinguish). */
function appliesTo(benefit: Pick<Benefit, 'in_network'>, network: Network): boolean {
  if (benefit.in_network === 'yes') return network === 'in_network';
  if (benefit.in_network === 'no') return network === 'out_of_network';
  return true;
}

/** The figure for one network: a benefit naming that network beats one that applies to both. */
function pick(benefits: Benefit[], network: Network): Benefit[] {
  const exact = benefits.filter((b) => b.in_network === (network === 'in_network' ? 'yes' : 'no'));
  return exact.length > 0 ? exact : benefits.filter((b) => appliesTo(b, network));
}

/**
 * The benefits of a code that speak about `serviceType`: those for the type itself, else
 * the plan-level ones (deductibles and out-of-pocket maximums are usually sent only
 * there), else any.
 */
export function benefitsFor(benefits: Benefit[], code: BenefitCode, serviceType: ServiceType): Benefit[] {
  const ofCode = benefits.filter((b) => b.code === code);
  const own = ofCode.filter((b) => b.service_types.includes(serviceType));
  if (own.length > 0) return own;
  const plan = ofCode.filter((b) => b.service_types.includes(DEFAULT_SERVICE_TYPE));
  return plan.length > 0 ? plan : ofCode;
}

const REMAINING_PERIODS: ReadonlySet<TimePeriod> = new Set<TimePeriod>(['remaining', 'lifetime_remaining']);
const MET_PERIODS: ReadonlySet<TimePeriod> = new Set<TimePeriod>(['year_to_date']);
/** Periods that say nothing about the limit itself. */
const NON_TOTAL_PERIODS: ReadonlySet<TimePeriod> = new Set<TimePeriod>([...REMAINING_PERIODS, ...MET_PERIODS, 'exceeded', 'not_exceeded']);

function firstCents(benefits: Benefit[], test: (period: TimePeriod | undefined) => boolean): number | null {
  for (const benefit of benefits) {
    if (!test(benefit.time_period)) continue;
    const cents = centsFromDecimal(benefit.amount);
    if (cents !== null && cents >= 0) return cents;
  }
  return null;
}

/**
 * A limit and how much of it is used. X12 sends the limit (EB06 calendar/service year)
 * and usually the remainder (EB06 = 29); some payers send the amount met instead (24).
 * Whatever is missing is derived from the other two; a remainder never goes below zero.
 */
export function accumulatorFrom(benefits: Benefit[]): Accumulator | null {
  const total = firstCents(benefits, (p) => p === undefined || !NON_TOTAL_PERIODS.has(p));
  let remaining = firstCents(benefits, (p) => p !== undefined && REMAINING_PERIODS.has(p));
  let met = firstCents(benefits, (p) => p !== undefined && MET_PERIODS.has(p));
  if (total === null && remaining === null && met === null) return null;
  if (total !== null && met === null && remaining !== null) met = Math.max(0, total - remaining);
  if (total !== null && remaining === null && met !== null) remaining = Math.max(0, total - met);
  return { total, met, remaining };
}

function accumulators(benefits: Benefit[], code: BenefitCode, serviceType: ServiceType): Record<Level, ByNetwork<Accumulator>> {
  const relevant = benefitsFor(benefits, code, serviceType);
  const forLevel = (level: Level): ByNetwork<Accumulator> => {
    const atLevel = relevant.filter((b) => levelOf(b) === level);
    return { in_network: accumulatorFrom(pick(atLevel, 'in_network')), out_of_network: accumulatorFrom(pick(atLevel, 'out_of_network')) };
  };
  return { individual: forLevel('individual'), family: forLevel('family') };
}

/** Null when the benefit speaks of the type asked (or the whole plan); else the type it does speak of. */
function otherType(benefit: Benefit, asked: ServiceType): ServiceType | null {
  if (benefit.service_types.includes(asked) || benefit.service_types.includes(DEFAULT_SERVICE_TYPE)) return null;
  return benefit.service_types[0] ?? null;
}

/** The individual's figure where there is one: a visit's copay is per person. */
function preferIndividual(benefits: Benefit[]): Benefit[] {
  const own = benefits.filter((b) => levelOf(b) === 'individual');
  return own.length > 0 ? own : benefits;
}

function copays(benefits: Benefit[], serviceType: ServiceType): BenefitSummary['copay'] {
  const relevant = preferIndividual(benefitsFor(benefits, 'co_payment', serviceType));
  const one = (network: Network) => {
    for (const b of pick(relevant, network)) {
      const cents = centsFromDecimal(b.amount);
      if (cents !== null && cents >= 0) return { cents, time_period: b.time_period ?? null, for: otherType(b, serviceType) };
    }
    return null;
  };
  return { in_network: one('in_network'), out_of_network: one('out_of_network') };
}

function coinsurances(benefits: Benefit[], serviceType: ServiceType): BenefitSummary['coinsurance'] {
  const relevant = preferIndividual(benefitsFor(benefits, 'co_insurance', serviceType));
  const one = (network: Network) => {
    for (const b of pick(relevant, network)) {
      const fraction = fractionFromDecimal(b.percent);
      if (fraction !== null) return { fraction, for: otherType(b, serviceType) };
    }
    return null;
  };
  return { in_network: one('in_network'), out_of_network: one('out_of_network') };
}

/**
 * The plan's name: the card's, as the patient knows it; else what the payer put in the
 * active-coverage segment's message.
 */
function planName(benefits: Benefit[], cardPlanName: string | undefined): string | null {
  if (cardPlanName) return cardPlanName;
  const active = benefits.find((b) => b.code.startsWith('active') && b.messages.length > 0);
  return active?.messages[0] ?? null;
}

export function summarizeBenefits(input: { benefits: Benefit[]; service_type: ServiceType; card_plan_name?: string }): BenefitSummary {
  const { benefits, service_type } = input;
  return {
    plan: eligibilityBadge({ status: 'success', benefit_codes: benefits.map((b) => b.code) }) === 'inactive' ? 'inactive' : 'active',
    plan_name: planName(benefits, input.card_plan_name),
    service_type,
    copay: copays(benefits, service_type),
    coinsurance: coinsurances(benefits, service_type),
    deductible: accumulators(benefits, 'deductible', service_type),
    out_of_pocket: accumulators(benefits, 'out_of_pocket_stop_loss', service_type),
  };
}
