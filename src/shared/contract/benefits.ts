import { z } from 'zod';
import { DecimalString } from './common';
import { ServiceType } from './service-types';

/**
 * One benefit per X12 271 EB segment. Each enum below is the readable name of an X12
 * code; the tables keep the code beside it so the sandbox can speak X12 and the UI plain words.
 */
export const BENEFIT_CODES = {
  active_coverage: '1',
  active_full_risk_capitation: '2',
  active_services_capitated: '3',
  active_pending_investigation: '5',
  inactive: '6',
  inactive_pending_eligibility_update: '7',
  inactive_pending_investigation: '8',
  co_insurance: 'A',
  co_payment: 'B',
  deductible: 'C',
  benefit_description: 'D',
  exclusions: 'E',
  limitations: 'F',
  out_of_pocket_stop_loss: 'G',
  unlimited: 'H',
  non_covered: 'I',
  cost_containment: 'J',
  reserve: 'K',
  primary_care_provider: 'L',
  pre_existing_condition: 'M',
  services_restricted_to_following_provider: 'N',
  not_deemed_medically_necessary: 'O',
  benefit_disclaimer: 'P',
  second_surgical_opinion_required: 'Q',
  other_or_additional_payor: 'R',
  prior_year_history: 'S',
  card_reported_lost_stolen: 'T',
  contact_following_entity: 'U',
  cannot_process: 'V',
  other_source_of_data: 'W',
  health_care_facility: 'X',
  spend_down: 'Y',
  coverage_basis: 'CB',
  managed_care_coordinator: 'MC',
} as const;
export const BenefitCode = z.enum(Object.keys(BENEFIT_CODES) as [keyof typeof BENEFIT_CODES]);
export type BenefitCode = z.infer<typeof BenefitCode>;

export const COVERAGE_LEVELS = {
  individual: 'IND',
  family: 'FAM',
  employee_only: 'EMP',
  employee_and_spouse: 'ESP',
  employee_and_children: 'ECH',
  employee_and_one_dependent: 'E1D',
  children_only: 'CHD',
  dependents_only: 'DEP',
  spouse_and_children: 'SPC',
  spouse_only: 'SPO',
  two_party: 'TWO',
} as const;
export const CoverageLevel = z.enum(Object.keys(COVERAGE_LEVELS) as [keyof typeof COVERAGE_LEVELS]);
export type CoverageLevel = z.infer<typeof CoverageLevel>;

export const TIME_PERIODS = {
  hour: '6',
  day: '7',
  years: '21',
  service_year: '22',
  calendar_year: '23',
  year_to_date: '24',
  contract: '25',
  episode: '26',
  visit: '27',
  outlier: '28',
  remaining: '29',
  exceeded: '30',
  not_exceeded: '31',
  lifetime: '32',
  lifetime_remaining: '33',
  month: '34',
  week: '35',
  admission: '36',
} as const;
export const TimePeriod = z.enum(Object.keys(TIME_PERIODS) as [keyof typeof TIME_PERIODS]);
export type TimePeriod = z.infer<typeof TimePeriod>;

/** EB12: in plan network. `not_applicable` where the payer does not distinguish. */
export const InNetwork = z.enum(['yes', 'no', 'unknown', 'not_applicable']);
export type InNetwork = z.infer<typeof InNetwork>;

export const Benefit = z.object({
  code: BenefitCode,
  x12_code: z.string(),
  service_types: z.array(ServiceType),
  coverage_level: CoverageLevel.optional(),
  time_period: TimePeriod.optional(),
  /** EB07, a monetary amount in dollars. */
  amount: DecimalString.optional(),
  /** EB08, a fraction between 0 and 1 (0.2 = 20%), as X12 sends it. */
  percent: DecimalString.optional(),
  /** EB10 with its EB09 qualifier, e.g. visits. */
  quantity: z.object({ qualifier: z.string(), value: DecimalString }).optional(),
  in_network: InNetwork,
  /** EB11. */
  authorization_required: z.enum(['yes', 'no', 'unknown']).optional(),
  /** MSG segments. */
  messages: z.array(z.string()),
  /** EB03 as the payer sent it, every code, including any the service type table has no name for. */
  x12_service_type_codes: z.array(z.string()).optional(),
  /** EB04, the insurance type code (MA Medicare Part A, MB Part B, HM HMO, C1 commercial, …). */
  insurance_type: z.string().optional(),
  /** EB05, the payer's own name for the plan or coverage ("GOLD 123 PLAN", "Medicare Part B"). */
  plan_description: z.string().optional(),
  /** EB13, the procedure the benefit is about (qualifier HC = HCPCS/CPT). */
  procedure: z.object({ qualifier: z.string(), code: z.string() }).optional(),
  /** The DTP segments that follow the EB: X12 date qualifier (291 plan, 292 benefit, 348 begin, …), a date or a range. */
  dates: z.array(z.object({ qualifier: z.string(), start: z.string(), end: z.string().optional() })).optional(),
  /** Entities the EB's 2120 loop names (another payer, the primary care provider, the employer). */
  related_entities: z.array(z.object({ code: z.string(), name: z.string().optional(), id: z.string().optional() })).optional(),
});
export type Benefit = z.infer<typeof Benefit>;
