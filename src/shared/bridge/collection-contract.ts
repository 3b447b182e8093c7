import { z } from 'zod';
import { BROKEN_UNICODE, Id, Source, Timestamp, WELL_FORMED_TEXT } from '../contract';
import { LocalDate, LocalTime } from './appointment-contract';

/**
 * What the desk collected at the window, and the end-of-day report made from it (issue 30,
 * items 3 and 4). Desk records, like appointments: the upstream contract has none, so they
 * are reached through the bridge (`collections.*`) and the local API's `/v1/collections`
 * only. Amounts are integer cents end to end; nothing is edited or deleted: a void is a new
 * entry pointing at the one it undoes.
 */

const Text = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .regex(/^[^\p{Cc}]+$/u, 'must not contain control characters')
    .regex(WELL_FORMED_TEXT, BROKEN_UNICODE);

export const PaymentMethod = z.enum(['cash', 'check', 'card']);
export type PaymentMethod = z.infer<typeof PaymentMethod>;

/** `payment`: money taken; `declined` / `waived`: a visit where nothing was collected, and why; `void`: undoes one entry. */
export const CollectionKind = z.enum(['payment', 'declined', 'waived', 'void']);
export type CollectionKind = z.infer<typeof CollectionKind>;

/**
 * A collection as sent. `amount_cents` is a plain number here so that a bad amount ($0,
 * negative, a fraction of a cent) is answered by the collection rules (`src/shared/collections.ts`)
 * with its own code and words, not a generic type error.
 */
export const CollectionCreate = z.strictObject({
  kind: z.enum(['payment', 'declined', 'waived']).default('payment'),
  amount_cents: z.number().optional(),
  method: PaymentMethod.optional(),
  /** With `method: check`: the check's number. */
  check_number: Text(30).optional(),
  /** With `method: card`: the card terminal's reference for the sale (never the card number: one is refused). */
  card_reference: Text(60).optional(),
  /** Who took it: a name or initials (staff accounts do not exist yet). */
  taken_by: Text(60),
  /** The visit: an appointment, and/or the patient and the visit's date (today when left out). */
  appointment_id: Id.optional(),
  patient_id: Id.optional(),
  visit_date: LocalDate.optional(),
  /** The estimate shown when it was taken: the check it was made from and the visit type it was read for. */
  check_id: Id.optional(),
  visit_type: Text(100).optional(),
  /** Why nothing was collected (`declined`, `waived`). */
  reason: Text(200).optional(),
  /** A payment above the estimate is refused unless this says the desk confirmed it. */
  confirm_over_estimate: z.boolean().optional(),
});
export type CollectionCreate = z.input<typeof CollectionCreate>;
export type CollectionCreateParsed = z.output<typeof CollectionCreate>;

export const CollectionVoid = z.strictObject({
  taken_by: Text(60),
  reason: Text(200).optional(),
});
export const CollectionVoidInput = CollectionVoid.extend({ id: Id });

export const CollectionEstimate = z.object({
  check_id: Id,
  visit_type: z.string().nullable(),
  min_cents: z.number().int().nonnegative(),
  max_cents: z.number().int().nonnegative().nullable(),
  headline: z.string(),
});
export type CollectionEstimate = z.infer<typeof CollectionEstimate>;

export const Collection = z.object({
  id: Id,
  kind: CollectionKind,
  /** What this entry took in; a void carries the amount it undoes (the report subtracts it). */
  amount_cents: z.number().int().nonnegative(),
  method: PaymentMethod.nullable(),
  check_number: z.string().nullable(),
  card_reference: z.string().nullable(),
  taken_by: z.string(),
  /** The workstation it was recorded at. */
  desk: z.string(),
  source: Source,
  appointment_id: Id.nullable(),
  patient_id: Id.nullable(),
  visit_date: LocalDate,
  /** The desk's local day it was recorded on: the day of the cash drawer it belongs to. */
  date: LocalDate,
  estimate: CollectionEstimate.nullable(),
  /** On a void: the entry it undoes. */
  voids_id: Id.nullable(),
  /** The void that undid this entry, if any. */
  voided_by_id: Id.nullable(),
  reason: z.string().nullable(),
  created_at: Timestamp,
});
export type Collection = z.infer<typeof Collection>;

export const CollectionDay = z.object({ data: z.array(Collection) });
export const CollectionListInput = z.strictObject({ date: LocalDate });

/** What the desk remembers for the window: who is taking payments here, and the practice's name for receipts. */
export const CollectionDeskSettings = z.object({
  taken_by: z.string().nullable(),
  practice_name: z.string().nullable(),
  desk: z.string(),
});
export type CollectionDeskSettings = z.infer<typeof CollectionDeskSettings>;
export const CollectionDeskUpdate = z.strictObject({ taken_by: Text(60).optional(), practice_name: Text(120).optional() });

export const MethodTotals = z.object({ cash: z.number().int(), check: z.number().int(), card: z.number().int() });
export type MethodTotals = z.infer<typeof MethodTotals>;

/** `nothing_due`: the estimate is $0 (the out-of-pocket maximum met); `not_collected`: an estimate, and nothing taken or marked. */
export const VisitStatus = z.enum(['collected', 'declined', 'waived', 'no_estimate', 'nothing_due', 'not_collected']);
export type VisitStatus = z.infer<typeof VisitStatus>;

export const EndOfDayVisit = z.object({
  appointment_id: Id.nullable(),
  patient_id: Id.nullable(),
  name: z.string(),
  time: LocalTime.nullable(),
  visit_type: z.string().nullable(),
  /** The estimate shown when a payment was taken, else the one from the patient's latest successful check; null: none. */
  estimate: CollectionEstimate.nullable(),
  collected_cents: z.number().int(),
  status: VisitStatus,
  reason: z.string().nullable(),
});
export type EndOfDayVisit = z.infer<typeof EndOfDayVisit>;

export const EndOfDayGroup = z.object({
  /** The desk's name, or the person's. */
  name: z.string(),
  expected_min_cents: z.number().int(),
  expected_max_cents: z.number().int().nullable(),
  collected_cents: z.number().int(),
  by_method: MethodTotals,
  entries: z.number().int().nonnegative(),
});
export type EndOfDayGroup = z.infer<typeof EndOfDayGroup>;

export const EndOfDay = z.object({
  date: LocalDate,
  practice_name: z.string().nullable(),
  /** The sum of the estimates for the day's visits; the most is null where an estimate has no upper figure. */
  expected_min_cents: z.number().int(),
  expected_max_cents: z.number().int().nullable(),
  /** Net of voids. */
  collected_cents: z.number().int(),
  by_method: MethodTotals,
  by_desk: z.array(EndOfDayGroup),
  by_person: z.array(EndOfDayGroup),
  visits: z.array(EndOfDayVisit),
  entries: z.array(Collection),
});
export type EndOfDay = z.infer<typeof EndOfDay>;
