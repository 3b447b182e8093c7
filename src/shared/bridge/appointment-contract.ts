import { z } from 'zod';
import { BROKEN_UNICODE, CardText, DateOfBirth, Id, NamePart, ServiceType, Timestamp, WELL_FORMED_TEXT } from '../contract';

/**
 * Appointments are desk-local (the upstream has none): what the practice-management system
 * schedules, matched to the desk's patients, and the batch eligibility run for a day.
 * Shared by the bridge and the local API's `/v1/appointments` routes.
 */

/** A calendar day at the practice: YYYY-MM-DD (the desk's local date, never UTC). */
export const LocalDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date in the form YYYY-MM-DD')
  .refine((value) => {
    const [y, m, d] = value.split('-').map(Number) as [number, number, number];
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  }, 'must be a real calendar date');

/** A time of day on the 24-hour clock: HH:MM. */
export const LocalTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time in the form HH:MM (24-hour)');

const OptionalText = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^\p{Cc}]+$/u, 'must not contain control characters')
  .regex(WELL_FORMED_TEXT, BROKEN_UNICODE);

/** How the patient of an appointment was found: an existing one, one made by the import, or a person must choose. */
export const PatientMatch = z.enum(['matched', 'created', 'ambiguous']);
export type PatientMatch = z.infer<typeof PatientMatch>;

/** One appointment as the practice-management system sends it (JSON, one at a time). */
export const AppointmentCreate = z.strictObject({
  date: LocalDate,
  time: LocalTime,
  first_name: NamePart,
  last_name: NamePart,
  date_of_birth: DateOfBirth,
  member_id: CardText.optional(),
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
]);
export type SkipReason = z.infer<typeof SkipReason>;

export const ImportRowResult = z.discriminatedUnion('result', [
  z.object({ row: z.number().int(), result: z.literal('created'), appointment_id: Id, patient: PatientMatch }),
  z.object({ row: z.number().int(), result: z.literal('updated'), appointment_id: Id, patient: PatientMatch }),
  /** Already imported and unchanged: nothing written. */
  z.object({ row: z.number().int(), result: z.literal('unchanged'), appointment_id: Id, patient: PatientMatch }),
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
});
export type AppointmentSettings = z.infer<typeof AppointmentSettings>;
export const AppointmentSettingsUpdate = AppointmentSettings.partial().strict();

export const AppointmentListInput = z.strictObject({ date: LocalDate });

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
  check_id: Id.nullable(),
  copay: z.string().nullable(),
  /** A plain sentence: what is wrong and what fixes it. */
  detail: z.string(),
});
export type WorklistRow = z.infer<typeof WorklistRow>;
export const Worklist = z.object({ date: LocalDate, rows: z.array(WorklistRow) });
