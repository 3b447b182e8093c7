import { eligibilityBadge } from './bridge/desk-eligibility';
import {
  DEFAULT_SERVICE_TYPE,
  type Benefit,
  type BenefitCode,
  type CoverageLevel,
  type ServiceType,
  type TimePeriod,
} from './contract';
import { basisPointsFromDecimal, centsFromDecimal, fractionFromDecimal } from './money';

/**
 * The five-second summary of a successful check: is the plan active, what does the payer
 * call it, what will the visit cost (copay, coinsurance) and what is left of the year's
 * deductible and out-of-pocket maximum, for the individual and the family, in and out of
 * network. Everything here is what the payer said; a figure worked out from two others is
 * marked as such, and a figure the payer did not send is null (shown as "not stated by the
 * payer"), never filled in from another kind of figure.
 */

export type Network = 'in_network' | 'out_of_network';
export type Level = 'individual' | 'family';

/** Where a figure came from, beyond its amount. */
export interface FigureSource {
  /** The service type the payer gave the figure for, when neither the one asked nor the whole plan. */
  for: ServiceType | null;
  /** The insurance it is under when the payer says (Medicare Part A, Part B, …). */
  insurance: string | null;
  /** False when the payer did not say which network: the figure is shown for both. */
  network_stated: boolean;
}

/** Any figure may be missing: payers often send only some of them. */
export interface Accumulator extends FigureSource {
  total: number | null;
  /** What the total is per (calendar year, plan year, lifetime…), as the payer said. */
  total_period: TimePeriod | null;
  met: number | null;
  remaining: number | null;
  /** The one figure worked out from the other two (total − met, or total − remaining). */
  computed: 'met' | 'remaining' | null;
}

export interface Copay extends FigureSource {
  cents: number;
  time_period: TimePeriod | null;
  /** Per visit, per day (a hospital or nursing-facility day), per admission; null when not said. */
  per: 'visit' | 'day' | 'admission' | null;
  /** EB09/EB10 beside it, e.g. 30 days. */
  quantity: { qualifier: string; value: number } | null;
}

export interface Coinsurance extends FigureSource {
  fraction: number;
  /** The same share in hundredths of a percent (2000 = 20%): what money is worked out with, in whole numbers. */
  basis_points: number;
}

export type ByNetwork<T> = Record<Network, T | null>;

export interface BenefitSummary {
  /** As Today's badge reads the same check. */
  plan: 'active' | 'inactive';
  plan_name: string | null;
  /** Whose name it is: the payer's answer, else the card's. */
  plan_name_source: 'payer' | 'card' | null;
  /** The service type the figures below are for (the asked one, else plan-level). */
  service_type: ServiceType;
  copay: ByNetwork<Copay>;
  coinsurance: ByNetwork<Coinsurance>;
  deductible: Record<Level, ByNetwork<Accumulator>>;
  out_of_pocket: Record<Level, ByNetwork<Accumulator>>;
  /** Whether the payer says nothing is left of the out-of-pocket maximum (the member's or the family's). */
  out_of_pocket_met: Record<Network, boolean>;
  /** Other coverage the payer names (EB R): who pays first decides whom the visit is billed to. */
  other_payers: OtherPayer[];
}

export interface OtherPayer {
  /** The payer's name as the 271 gives it, else the insurance it names; null when it names neither. */
  name: string | null;
  /** What the 2120 loop says it is: primary (PRP), secondary (SEP), tertiary (TTP); `other` when it does not say. */
  role: 'primary' | 'secondary' | 'tertiary' | 'other';
  /** The service type it covers when not the whole plan (a drug plan for pharmacy). */
  for: ServiceType | null;
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

/** The figures for one network: a benefit naming that network beats one that applies to both. */
function pick(benefits: Benefit[], network: Network): Benefit[] {
  const exact = benefits.filter((b) => b.in_network === (network === 'in_network' ? 'yes' : 'no'));
  return exact.length > 0 ? exact : benefits.filter((b) => appliesTo(b, network));
}

/**
 * The benefits of a code that speak about `serviceType`: those for the type itself, else
 * the plan-level ones (deductibles and out-of-pocket maximums are usually sent only
 * there), else any (marked with the type they are for).
 */
export function benefitsFor(benefits: Benefit[], code: BenefitCode, serviceType: ServiceType): Benefit[] {
  const ofCode = benefits.filter((b) => b.code === code);
  const own = ofCode.filter((b) => b.service_types.includes(serviceType));
  if (own.length > 0) return own;
  const plan = ofCode.filter((b) => b.service_types.includes(DEFAULT_SERVICE_TYPE) || b.service_types.length === 0);
  return plan.length > 0 ? plan : ofCode;
}

const INSURANCE_TYPES: Record<string, string> = {
  MA: 'Medicare Part A',
  MB: 'Medicare Part B',
  MC: 'Medicaid',
  QM: 'Qualified Medicare Beneficiary',
  HM: 'HMO',
  PR: 'PPO',
  PS: 'Point of service',
  EP: 'EPO',
  HN: 'HMO Medicare risk',
  C1: 'Commercial',
  OT: 'Other',
};

/**
 * The insurance types worth naming beside a figure: those that tell one limit from another
 * (Medicare's parts, Medicaid). "Commercial", "Other" or a plan type (HMO, PPO) beside an
 * amount says nothing the plan's name does not.
 */
const TELLING_INSURANCE: ReadonlySet<string> = new Set(['MA', 'MB', 'MC', 'QM', 'HN']);

/** Null when the benefit speaks of the type asked (or the whole plan); else the type it does speak of. */
function otherType(benefit: Benefit, asked: ServiceType): ServiceType | null {
  if (benefit.service_types.length === 0 || benefit.service_types.includes(asked) || benefit.service_types.includes(DEFAULT_SERVICE_TYPE)) return null;
  return benefit.service_types[0] ?? null;
}

/** Two figures may be of one limit unless each names an insurance and they differ. */
function sameInsurance(a: Benefit, b: Benefit): boolean {
  return !a.insurance_type || !b.insurance_type || a.insurance_type === b.insurance_type;
}

function sourceOf(benefit: Benefit, asked: ServiceType): FigureSource {
  return {
    for: otherType(benefit, asked),
    insurance: benefit.insurance_type && TELLING_INSURANCE.has(benefit.insurance_type) ? (INSURANCE_TYPES[benefit.insurance_type] ?? null) : null,
    network_stated: benefit.in_network === 'yes' || benefit.in_network === 'no',
  };
}

const REMAINING_PERIODS: ReadonlySet<TimePeriod> = new Set<TimePeriod>(['remaining', 'lifetime_remaining']);
const MET_PERIODS: ReadonlySet<TimePeriod> = new Set<TimePeriod>(['year_to_date']);
/** Periods that say nothing about the limit itself. */
const NON_TOTAL_PERIODS: ReadonlySet<TimePeriod> = new Set<TimePeriod>([...REMAINING_PERIODS, ...MET_PERIODS, 'exceeded', 'not_exceeded']);

function first(benefits: Benefit[], test: (period: TimePeriod | undefined) => boolean): { cents: number; benefit: Benefit } | null {
  for (const benefit of benefits) {
    if (!test(benefit.time_period)) continue;
    const cents = centsFromDecimal(benefit.amount);
    if (cents !== null && cents >= 0) return { cents, benefit };
  }
  return null;
}

/**
 * A limit and how much of it is used. X12 sends the limit (EB06 calendar or service year,
 * or none), and the remainder (29) or the amount met (24), or both. A figure the payer did
 * not send is worked out from the other two and marked `computed`; a limit is never shown
 * as what remains. A remainder never goes below zero.
 */
export function accumulatorFrom(benefits: Benefit[], asked: ServiceType = DEFAULT_SERVICE_TYPE): Accumulator | null {
  const isTotal = (p: TimePeriod | undefined) => p === undefined || !NON_TOTAL_PERIODS.has(p);
  const isRemaining = (p: TimePeriod | undefined) => p !== undefined && REMAINING_PERIODS.has(p);
  const isMet = (p: TimePeriod | undefined) => p !== undefined && MET_PERIODS.has(p);
  const any = first(benefits, isRemaining) ?? first(benefits, isTotal) ?? first(benefits, isMet);
  if (!any) return null;
  // One limit's figures only: Part A's limit beside Part B's remainder (or a hospital limit
  // beside an office remainder) would make up a "met" the payer never said.
  const sameLimit = benefits.filter((b) => sameInsurance(b, any.benefit) && otherType(b, asked) === otherType(any.benefit, asked));
  const total = first(sameLimit, isTotal);
  const remaining = first(sameLimit, isRemaining);
  const met = first(sameLimit, isMet);
  const result: Accumulator = {
    total: total?.cents ?? null,
    total_period: total?.benefit.time_period ?? null,
    met: met?.cents ?? null,
    remaining: remaining?.cents ?? null,
    computed: null,
    ...sourceOf(any.benefit, asked),
  };
  if (result.total !== null && result.met === null && result.remaining !== null) {
    result.met = Math.max(0, result.total - result.remaining);
    result.computed = 'met';
  } else if (result.total !== null && result.remaining === null && result.met !== null) {
    result.remaining = Math.max(0, result.total - result.met);
    result.computed = 'remaining';
  }
  return result;
}

function accumulators(benefits: Benefit[], code: BenefitCode, serviceType: ServiceType): Record<Level, ByNetwork<Accumulator>> {
  const relevant = benefitsFor(benefits, code, serviceType);
  const forLevel = (level: Level): ByNetwork<Accumulator> => {
    const atLevel = relevant.filter((b) => levelOf(b) === level);
    return { in_network: accumulatorFrom(pick(atLevel, 'in_network'), serviceType), out_of_network: accumulatorFrom(pick(atLevel, 'out_of_network'), serviceType) };
  };
  return { individual: forLevel('individual'), family: forLevel('family') };
}

/** The individual's figure where there is one: a visit's copay is per person. */
function preferIndividual(benefits: Benefit[]): Benefit[] {
  const own = benefits.filter((b) => levelOf(b) === 'individual');
  return own.length > 0 ? own : benefits;
}

const PER: Partial<Record<TimePeriod, Copay['per']>> = { visit: 'visit', day: 'day', admission: 'admission' };

/** Per visit, day or admission as EB06 says; a quantity in days (EB09 DY) with no such period means a daily amount. */
function perOf(benefit: Benefit): Copay['per'] {
  const said = benefit.time_period ? PER[benefit.time_period] : undefined;
  if (said) return said;
  return benefit.quantity?.qualifier === 'DY' ? 'day' : null;
}

function copays(benefits: Benefit[], serviceType: ServiceType): BenefitSummary['copay'] {
  const relevant = preferIndividual(benefitsFor(benefits, 'co_payment', serviceType));
  const one = (network: Network): Copay | null => {
    for (const b of pick(relevant, network)) {
      const cents = centsFromDecimal(b.amount);
      if (cents === null || cents < 0) continue;
      const quantity = b.quantity ? Number(b.quantity.value) : NaN;
      return {
        cents,
        time_period: b.time_period ?? null,
        per: perOf(b),
        quantity: b.quantity && Number.isFinite(quantity) ? { qualifier: b.quantity.qualifier, value: quantity } : null,
        ...sourceOf(b, serviceType),
      };
    }
    return null;
  };
  return { in_network: one('in_network'), out_of_network: one('out_of_network') };
}

function coinsurances(benefits: Benefit[], serviceType: ServiceType): BenefitSummary['coinsurance'] {
  const relevant = preferIndividual(benefitsFor(benefits, 'co_insurance', serviceType));
  const one = (network: Network): Coinsurance | null => {
    for (const b of pick(relevant, network)) {
      const fraction = fractionFromDecimal(b.percent);
      const basisPoints = basisPointsFromDecimal(b.percent);
      if (fraction !== null && basisPoints !== null) return { fraction, basis_points: basisPoints, ...sourceOf(b, serviceType) };
    }
    return null;
  };
  return { in_network: one('in_network'), out_of_network: one('out_of_network') };
}

/**
 * The plan's name as the payer gave it: EB05 of the active-coverage segment (the
 * plan-level one first), else the message of a plan-level active segment, else the
 * insurance it names. The card's printed name (possibly misread) is only a fallback.
 */
function planName(benefits: Benefit[], cardPlanName: string | undefined): Pick<BenefitSummary, 'plan_name' | 'plan_name_source'> {
  const active = benefits.filter((b) => b.code.startsWith('active'));
  const planLevel = (b: Benefit) => b.service_types.length === 0 || b.service_types.includes(DEFAULT_SERVICE_TYPE);
  const described = [...active.filter(planLevel), ...active].find((b) => b.plan_description);
  // Medicare names no plan, only the insurance: "Medicare Part A · Medicare Part B".
  const insurances = [...new Set(active.filter(planLevel).flatMap((b) => (b.insurance_type && INSURANCE_TYPES[b.insurance_type] ? [INSURANCE_TYPES[b.insurance_type]] : [])))];
  const said = described?.plan_description ?? active.find((b) => planLevel(b) && b.messages.length > 0)?.messages[0] ?? (insurances.join(' · ') || undefined);
  if (said) return { plan_name: said, plan_name_source: 'payer' };
  if (cardPlanName) return { plan_name: cardPlanName, plan_name_source: 'card' };
  return { plan_name: null, plan_name_source: null };
}

const PAYER_ROLES: Record<string, OtherPayer['role']> = { PRP: 'primary', SEP: 'secondary', TTP: 'tertiary' };

/**
 * Each other payer the 271 names (EB R), by its 2120 loop's name and role where it has one,
 * else the plan description or the insurance type (EB05, EB04). The same payer in the same
 * role is listed once.
 */
function otherPayers(benefits: Benefit[]): OtherPayer[] {
  const seen = new Map<string, OtherPayer>();
  for (const b of benefits.filter((x) => x.code === 'other_or_additional_payor')) {
    const entity = b.related_entities?.find((e) => e.code in PAYER_ROLES || e.code === 'PR') ?? null;
    const name = entity?.name ?? b.plan_description ?? (b.insurance_type ? (INSURANCE_TYPES[b.insurance_type] ?? null) : null);
    const type = b.service_types.find((t) => t !== DEFAULT_SERVICE_TYPE) ?? null;
    const payer: OtherPayer = { name: name === 'Other' ? null : name, role: (entity && PAYER_ROLES[entity.code]) ?? 'other', for: type };
    const key = `${payer.name ?? ''}|${payer.role}|${payer.for ?? ''}`;
    if (!seen.has(key)) seen.set(key, payer);
  }
  return [...seen.values()];
}

/** Nothing left of the maximum, as the payer said or as worked out; a limit of zero is no maximum met. */
function maximumMet(levels: Record<Level, ByNetwork<Accumulator>>, network: Network): boolean {
  return (['individual', 'family'] as const).some((level) => {
    const acc = levels[level][network];
    return acc !== null && acc.remaining === 0 && acc.total !== 0;
  });
}

export function summarizeBenefits(input: { benefits: Benefit[]; service_type: ServiceType; card_plan_name?: string }): BenefitSummary {
  const { benefits, service_type } = input;
  const outOfPocket = accumulators(benefits, 'out_of_pocket_stop_loss', service_type);
  return {
    plan: eligibilityBadge({ status: 'success', benefit_codes: benefits.map((b) => b.code) }) === 'inactive' ? 'inactive' : 'active',
    ...planName(benefits, input.card_plan_name),
    service_type,
    copay: copays(benefits, service_type),
    coinsurance: coinsurances(benefits, service_type),
    deductible: accumulators(benefits, 'deductible', service_type),
    out_of_pocket: outOfPocket,
    out_of_pocket_met: { in_network: maximumMet(outOfPocket, 'in_network'), out_of_network: maximumMet(outOfPocket, 'out_of_network') },
    other_payers: otherPayers(benefits),
  };
}
