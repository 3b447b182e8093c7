import { z } from 'zod';
import { BROKEN_UNICODE, CardText, DateOfBirth, Id, NamePart, ServiceType, Timestamp, WELL_FORMED_TEXT } from '../contract';
import { Estimate } from './estimate-contract';
import { GfeStatus } from './gfe-contract';
import { LocalDate } from './local-date';

/**
 * Appointments are desk-local (the upstream has none): what the practice-management system
 * schedules, matched to the desk's patients, and the batch eligibility run for a day.
 * Shared by the bridge and the local API's `/v1/appointments` routes.
 */

export { LocalDate } from './local-date';

/** A time of day on the 24-hour clock: HH:MM. */
export const LocalTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time in the form HH:MM (24-hour)');

const OptionalText = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^\p{Cc}]+$/u, 'must not contain control characters')
  .regex(WELL_FORMED_TEXT, BROKEN_UNICODE);

/**
 * The subscriber's relationship to the patient, as scheduling systems write it: words, or
 * the X12 individual relationship codes (18 self, 01 spouse, 19 child, G8 other).
 */
export const Relationship = z.enum(['self', 'spouse', 'child', 'other']);
export type Relationship = z.infer<typeof Relationship>;

const RELATIONSHIP_WORDS: Record<string, Relationship> = {
  self: 'self', '18': 'self', patient: 'self', subscriber: 'self', insured: 'self', s: 'self',
  spouse: 'spouse', '01': 'spouse', '1': 'spouse', wife: 'spouse', husband: 'spouse', partner: 'spouse', 'domestic partner': 'spouse',
  child: 'child', '19': 'child', son: 'child', daughter: 'child', dependent: 'child', dependant: 'child', c: 'child',
  other: 'other', g8: 'other',
};

/** The relationship a cell names, or null when it names none we know. */
export function readRelationship(text: string): Relationship | null {
  return RELATIONSHIP_WORDS[text.trim().toLowerCase().replace(/\s+/g, ' ')] ?? null;
}

/**
 * A member id from a schedule: letters and digits as printed on the card (spaces and dashes
 * allowed), with at least one digit. Scheduling systems put "N/A", "SELF PAY" or "see card"
 * in the column; those are not member ids and must not become cards.
 */
export const ScheduleMemberId = CardText.refine((value) => /^[A-Za-z0-9][A-Za-z0-9 -]{1,39}$/.test(value) && /\d/.test(value), 'must be the member id as printed on the card: 2 to 40 letters and digits (spaces and dashes allowed), with at least one digit');

/** A payer cell that says the patient has no insurance: the row has none, it is not an unknown payer. */
export function saysNoInsurance(text: string): boolean {
  return /^(self[\s-]*pay|none|no insurance|uninsured|cash|private pay|n\/?a)$/i.test(text.trim());
}

/** How the patient of an appointment was found: an existing one, one made by the import, or a person must choose. */
export const PatientMatch = z.enum(['matched', 'created', 'ambiguous']);
export type PatientMatch = z.infer<typeof PatientMatch>;

/**
 * What became of a row's insurance: a card made from it, a card the patient already has with
 * that member id and payer, a payer to choose first, a card waiting for the patient to be
 * chosen, no insurance in the row, or (no insurance, and the practice's setting says so) a
 * blank card from the schedule with a discovery looking for the patient's coverage.
 */
export const CardOutcome = z.enum(['created', 'on_file', 'needs_payer', 'needs_patient', 'none', 'discovery']);
export type CardOutcome = z.infer<typeof CardOutcome>;

/** One appointment as the practice-management system sends it (JSON, one at a time). */
export const AppointmentCreate = z.strictObject({
  date: LocalDate,
  time: LocalTime,
  first_name: NamePart,
  last_name: NamePart,
  date_of_birth: DateOfBirth,
  member_id: ScheduleMemberId.optional(),
  /** The payer, by name or payer id as the desk's payer directory knows it; with `member_id` it makes the patient's card. */
  payer: OptionalText.optional(),
  group_number: CardText.optional(),
  /** The subscriber's relationship to the patient: self, spouse, child, other (or 18, 01, 19, G8). */
  relationship: OptionalText.optional(),
  phone: OptionalText.optional(),
  /** A provider's id, name or NPI; absent: the practice's default provider. */
  provider: OptionalText.optional(),
  /** A visit type the settings map to a service type; absent: the practice's default service type. */
  visit_type: OptionalText.optional(),
  location: OptionalText.optional(),
  /** The scheduling system's own id: re-sending it never makes a second appointment. */
  external_id: OptionalText.optional(),
});
export type AppointmentCreate = z.infer<typeof AppointmentCreate>;

export const Appointment = z.object({
  id: Id,
  date: LocalDate,
  time: LocalTime,
  first_name: z.string(),
  last_name: z.string(),
  date_of_birth: z.string(),
  member_id: z.string().nullable(),
  /** The payer as the schedule wrote it. */
  payer: z.string().nullable(),
  /** The payer it was matched to (or the desk chose); null while `payer_candidate_ids` wait for a choice. */
  clearinghouse_entity_id: Id.nullable(),
  /** The payers the schedule's payer could be: a person chooses (`appointments.choosePayer`). */
  payer_candidate_ids: z.array(Id),
  group_number: z.string().nullable(),
  relationship: Relationship.nullable(),
  phone: z.string().nullable(),
  provider_id: Id.nullable(),
  visit_type: z.string().nullable(),
  service_type: ServiceType.nullable(),
  location: z.string().nullable(),
  external_id: z.string().nullable(),
  patient_id: Id.nullable(),
  patient_match: PatientMatch,
  /** With `ambiguous`: the patients it could be, for a person to choose from. */
  candidate_patient_ids: z.array(Id),
  created_at: Timestamp,
});
export type Appointment = z.infer<typeof Appointment>;

/** What creating one appointment answered: made, changed (rescheduled), or already there as sent. */
export const AppointmentWritten = z.object({
  result: z.enum(['created', 'updated', 'unchanged']),
  patient: PatientMatch,
  card: CardOutcome,
  appointment: Appointment,
});
export type AppointmentWritten = z.infer<typeof AppointmentWritten>;

/** The fields a schedule's column can hold. `patient_name` is one column with "Last, First" or "First Last". */
export const ScheduleField = z.enum([
  'external_id',
  'date',
  'time',
  'first_name',
  'last_name',
  'patient_name',
  'date_of_birth',
  'member_id',
  'payer',
  'group_number',
  'relationship',
  'phone',
  'provider',
  'visit_type',
  'location',
]);
export type ScheduleField = z.infer<typeof ScheduleField>;

/** Which column (0-based) holds each field; a field left out is not in the file. */
export const ColumnMapping = z.partialRecord(ScheduleField, z.number().int().min(0).max(200));
export type ColumnMapping = z.infer<typeof ColumnMapping>;

/** A schedule file as the desk drops it: its bytes (any encoding), or pasted text. */
const FileBytes = z.strictObject({ data_base64: z.base64(), file_name: z.string().max(255).optional() });
const PastedText = z.strictObject({ text: z.string().max(10 * 1024 * 1024) });
export const ScheduleFileInput = z.union([FileBytes, PastedText]);
export type ScheduleFileInput = z.infer<typeof ScheduleFileInput>;

/** The file again, with the mapping the desk confirmed (remembered for files with the same headers). */
export const ScheduleImportInput = z.union([
  FileBytes.extend({ mapping: ColumnMapping.optional() }),
  PastedText.extend({ mapping: ColumnMapping.optional() }),
]);
export type ScheduleImportInput = z.infer<typeof ScheduleImportInput>;

/** What the desk sees before importing: the columns, the mapping guessed (or remembered), the first rows. */
export const SchedulePreview = z.object({
  encoding: z.enum(['utf-8', 'utf-16le', 'windows-1252']),
  delimiter: z.enum([',', '\t', ';']),
  headers: z.array(z.string()),
  mapping: ColumnMapping,
  /** Where the mapping came from: the header names, or the one the desk corrected last time for these headers. */
  mapping_source: z.enum(['detected', 'remembered']),
  rows: z.array(z.array(z.string())),
  row_count: z.number().int(),
});
export type SchedulePreview = z.infer<typeof SchedulePreview>;

/** Why a row was not used. */
export const SkipReason = z.enum([
  'missing_name',
  'missing_date_of_birth',
  'invalid_date_of_birth',
  'missing_date',
  'invalid_date',
  'invalid_time',
  'unknown_provider',
  'unknown_visit_type',
  'invalid_field',
  'duplicate_row',
  'unknown_payer',
  'invalid_member_id',
  'incomplete_insurance',
  'invalid_relationship',
]);
export type SkipReason = z.infer<typeof SkipReason>;

export const ImportRowResult = z.discriminatedUnion('result', [
  z.object({ row: z.number().int(), result: z.literal('created'), appointment_id: Id, patient: PatientMatch, card: CardOutcome }),
  z.object({ row: z.number().int(), result: z.literal('updated'), appointment_id: Id, patient: PatientMatch, card: CardOutcome }),
  /** Already imported and unchanged: nothing written. */
  z.object({ row: z.number().int(), result: z.literal('unchanged'), appointment_id: Id, patient: PatientMatch, card: CardOutcome }),
  z.object({ row: z.number().int(), result: z.literal('skipped'), reason: SkipReason, field: z.string(), message: z.string() }),
]);
export type ImportRowResult = z.infer<typeof ImportRowResult>;

export const ImportCounts = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  skipped: z.number().int(),
  patients_matched: z.number().int(),
  patients_created: z.number().int(),
  needs_person: z.number().int(),
  /** Insurance cards made from the schedule's member id and payer. */
  cards_created: z.number().int(),
  /** Rows whose payer fits several of the directory's payers: a person chooses. */
  needs_payer: z.number().int(),
  /** Rows without insurance sent to discovery (`discover_without_insurance`). */
  discoveries: z.number().int(),
});
export type ImportCounts = z.infer<typeof ImportCounts>;

/** Per row (1-based, the header is row 0 when there is one): what happened and why. */
export const ImportResult = z.object({ counts: ImportCounts, rows: z.array(ImportRowResult) });
export type ImportResult = z.infer<typeof ImportResult>;

/** Settings of the schedule and batch checks (kept in the settings table). */
export const AppointmentSettings = z.object({
  /** Visit type (as the scheduling system writes it, matched without case) → service type. */
  visit_types: z.record(z.string().trim().min(1).max(100), ServiceType),
  /** A successful check of the same payer this recent is not run again. */
  recheck_days: z.number().int().min(0).max(365),
  /** At most this many batch checks waiting for the upstream at once. */
  max_in_flight: z.number().int().min(1).max(50),
  /**
   * A row without insurance, for a patient with no card, starts a discovery (from a blank card
   * marked as from the schedule) when imported, so the coverage is looked for before the visit.
   */
  discover_without_insurance: z.boolean(),
});
export type AppointmentSettings = z.infer<typeof AppointmentSettings>;
export const AppointmentSettingsUpdate = AppointmentSettings.partial().strict();

export const AppointmentListInput = z.strictObject({ date: LocalDate });

/** A person settles which payer the schedule meant: one of the candidates (or any payer the desk knows). */
export const ChoosePayerInput = z.strictObject({ id: Id, clearinghouse_entity_id: Id });

export const AssignPatientInput = z.strictObject({
  id: Id,
  /** One of the candidates (or any patient); null: a new patient from the appointment's name and birth date. */
  patient_id: Id.nullable(),
});

/** A batch: every appointment of a day checked ahead of the visit. */
export const BatchStart = z.strictObject({
  date: LocalDate,
  /** Start at this moment (while the app is open); absent: now. */
  start_at: Timestamp.optional(),
});

export const BatchJobState = z.enum(['queued', 'checking', 'done', 'skipped']);
export const BatchSkip = z.enum(['no_patient_match', 'no_card', 'payer_unknown', 'recent_check', 'already_checking', 'no_provider', 'check_refused']);
export type BatchSkip = z.infer<typeof BatchSkip>;

export const BatchProgress = z.object({
  batch_id: Id.nullable(),
  date: LocalDate,
  state: z.enum(['none', 'scheduled', 'running', 'finished']),
  start_at: Timestamp.nullable(),
  /** Appointments considered; `checks` of them are being checked, the rest skipped with a reason. */
  total: z.number().int(),
  checks: z.number().int(),
  /** Checks answered (success or failure) plus appointments skipped. */
  done: z.number().int(),
  in_flight: z.number().int(),
  /** Seconds left at the pace so far; null before the first answer. */
  seconds_left: z.number().nullable(),
});
export type BatchProgress = z.infer<typeof BatchProgress>;

/** The one status a person reads on the worklist. */
export const WorklistStatus = z.enum([
  'needs_patient',
  'needs_payer',
  'no_provider',
  'no_card',
  'payer_unknown',
  'rejected',
  'inactive',
  'check_failed',
  'pending',
  'queued_offline',
  'not_checked',
  'ready',
]);
export type WorklistStatus = z.infer<typeof WorklistStatus>;

export const WorklistRow = z.object({
  appointment: Appointment,
  status: WorklistStatus,
  /** needs a person / waiting / ready: what the row's colour says. */
  group: z.enum(['needs_attention', 'waiting', 'ready']),
  card_id: Id.nullable(),
  /** The card was made from the schedule's member id and payer, not captured at the desk (no photos). */
  card_from_schedule: z.boolean(),
  check_id: Id.nullable(),
  copay: z.string().nullable(),
  /** "Collect today" for a ready row: its check and the appointment's visit type through the fee schedule; null on any other row. */
  estimate: Estimate.nullable(),
  /** The appointment's Good Faith Estimate (self-pay): due by its deadline, or issued; null when the visit is not self-pay. */
  gfe: GfeStatus.nullable(),
  /** A plain sentence: what is wrong and what fixes it. */
  detail: z.string(),
});
export type WorklistRow = z.infer<typeof WorklistRow>;
export const Worklist = z.object({ date: LocalDate, rows: z.array(WorklistRow) });
