import { z } from 'zod';
import { Id, ServiceType, Timestamp } from '../contract';

/**
 * The practice's fee schedule and the visit estimate made from it (issue 30). Desk-local,
 * like appointments: the upstream contract has neither, so they are reached through the
 * bridge and the local API only. Amounts are integer cents end to end.
 */

const Cents = z.number().int().nonnegative();

/** One expected allowed amount: for a visit type or procedure code, for one payer or (payer null) every other. */
export const FeeScheduleRow = z.object({
  /** The visit type or procedure code as the file wrote it ("Office visit", "99213"). */
  service: z.string().min(1).max(100),
  /** The payer as the file wrote it; null on the default row. */
  payer: z.string().nullable(),
  /** The payer directory's entry it resolved to; null on the default row. */
  clearinghouse_entity_id: Id.nullable(),
  allowed_cents: Cents,
});
export type FeeScheduleRow = z.infer<typeof FeeScheduleRow>;

export const FeeSchedule = z.object({
  rows: z.array(FeeScheduleRow),
  /** When the rows were imported; null when the practice has none. */
  imported_at: Timestamp.nullable(),
  /** Days a check's answer is good for before its estimate is marked stale (Settings). */
  freshness_days: z.number().int().min(1).max(365),
});
export type FeeSchedule = z.infer<typeof FeeSchedule>;

export const FeeScheduleImported = z.object({
  /** Rows now in the fee schedule: an import replaces the whole schedule. */
  imported: z.number().int().nonnegative(),
  schedule: FeeSchedule,
});
export type FeeScheduleImported = z.infer<typeof FeeScheduleImported>;

export const FeeScheduleImportInput = z.strictObject({ text: z.string() });
export const FreshnessUpdate = z.strictObject({ freshness_days: z.number().int().min(1).max(365) });

/** One amount typed in Settings, as a file's row would be: the payer by name or payer id ("default" or empty for every other payer), the amount in dollars. */
export const FeeRowInput = z.strictObject({ service: z.string().max(200), payer: z.string().max(200), allowed: z.string().max(40) });
export type FeeRowInput = z.infer<typeof FeeRowInput>;
export const FeeRowKey = z.strictObject({ service: z.string().min(1).max(100), clearinghouse_entity_id: Id.nullable() });
export type FeeRowKey = z.infer<typeof FeeRowKey>;
export const FeeScheduleExport = z.object({ csv: z.string(), filename: z.string() });

export const EstimateStepKind = z.enum([
  'allowed',
  'no_fee_schedule',
  'copay',
  'copay_not_stated',
  'deductible',
  'deductible_not_stated',
  'coinsurance',
  'coinsurance_not_stated',
  'out_of_pocket',
  'out_of_pocket_met',
  'out_of_pocket_not_stated',
]);
export type EstimateStepKind = z.infer<typeof EstimateStepKind>;

export const EstimateStep = z.object({
  kind: EstimateStepKind,
  /** What this step adds to what is collected; null where it adds nothing or the figure is not known. */
  cents: Cents.nullable(),
  /** As the desk reads it: "$40.00 copay", "deductible met", "out-of-pocket $1,240.00 left". */
  text: z.string(),
});
export type EstimateStep = z.infer<typeof EstimateStep>;

export const EstimateFigures = z.object({
  network: z.enum(['in_network', 'out_of_network']),
  /** `fee_schedule`: from the allowed amount; `copay_only`: no fee schedule row, so the copay alone. */
  basis: z.enum(['fee_schedule', 'copay_only']),
  allowed_cents: Cents.nullable(),
  /** The least and the most to collect; equal when the benefits give one figure. `max_cents` null: no upper figure can be given. */
  min_cents: Cents,
  max_cents: Cents.nullable(),
  exact: z.boolean(),
  /** "Collect today: $40.00", or a range "Collect today: $0.00–$120.00". */
  headline: z.string(),
  steps: z.array(EstimateStep),
  /** The check's answer is older than the freshness window: check again before collecting. */
  stale: z.boolean(),
  checked_at: Timestamp,
  freshness_days: z.number().int().min(1),
});
export type EstimateFigures = z.infer<typeof EstimateFigures>;

export const Estimate = EstimateFigures.extend({
  check_id: Id,
  visit_type: z.string().nullable(),
  service_type: ServiceType,
});
export type Estimate = z.infer<typeof Estimate>;

export const EstimateQuery = z.strictObject({
  check_id: Id,
  /** The visit type or procedure code the fee schedule is looked up by; without it, the check's service alone (copay). */
  visit_type: z.string().min(1).max(100).optional(),
  network: z.enum(['in_network', 'out_of_network']).optional(),
});
export type EstimateQuery = z.infer<typeof EstimateQuery>;
