import { z } from 'zod';
import {
  BarcodeReading,
  BarcodeText,
  Check,
  Discovery,
  ExtractedFields,
  ExtractionEngine,
  Id,
  InsuranceCard,
  ObjectKey,
  Patient,
  PatientCreate,
  ServiceType,
  SyncError,
  SyncState,
  Timestamp,
} from '../contract';
import { TODAY_CHANGES_MAX_IDS } from './desk-order';

export { compareDeskRows, TODAY_CHANGES_MAX_IDS } from './desk-order';

/**
 * Shapes the front-desk screens read through the bridge that are Coverdesk's own, not /v1:
 * read models (a patient with their latest eligibility at a glance), sync, settings, the
 * local API and extraction previews. Declared here so contract.ts only lists method names.
 */

/** The badge a desk reads first: the outcome of the latest check of the card shown (the current card), or `none` before any. */
export const EligibilityBadge = z.enum(['active', 'inactive', 'failed', 'pending', 'none']);
export type EligibilityBadge = z.infer<typeof EligibilityBadge>;

/** One patient on Today or in a search: who, which card, and where eligibility stands. */
export const DeskPatientRow = z.object({
  patient_id: Id,
  first_name: z.string(),
  last_name: z.string(),
  date_of_birth: z.string(),
  /** The newest card's. */
  card_id: Id.optional(),
  member_id: z.string().optional(),
  plan_name: z.string().optional(),
  payer_name: z.string().optional(),
  eligibility: EligibilityBadge,
  check_id: Id.optional(),
  checked_at: Timestamp.optional(),
  /** The newest record of this patient (patient, card, check or discovery). */
  last_activity_at: Timestamp,
  /** The least advanced sync state among the patient, their current (newest) card and its newest check. */
  sync_state: SyncState,
});
export type DeskPatientRow = z.infer<typeof DeskPatientRow>;

export const DeskPatientRows = z.object({ data: z.array(DeskPatientRow) });

/**
 * Today's list, newest activity first. `as_of` is the host's clock when it was read: the desk
 * asks `desk.todayChanges` for what sync moved since then instead of reading the list again.
 */
export const DeskToday = DeskPatientRows.extend({
  as_of: Timestamp,
  /** With `first`: how many patients are on Today in all (the rest come with a full read). */
  total: z.number().int().nonnegative().optional(),
});
export type DeskToday = z.infer<typeof DeskToday>;

/** The most rows `desk.today`'s `first` may ask for: a screenful or two, never the list. */
export const TODAY_FIRST_MAX = 500;
/**
 * Today since the start of the desk's day; `first`: only the first rows in Today's order, and
 * the `total` (issue 31): the screen is painted with them while the full read is on its way.
 */
export const DeskTodayInput = z.strictObject({
  since: Timestamp,
  first: z.number().int().min(1).max(TODAY_FIRST_MAX).optional(),
});
export type DeskTodayInput = z.infer<typeof DeskTodayInput>;

/**
 * What changed on Today (issue 31): the rows of the patients these records belong to, and of
 * those whose sync moved since `outbox_since`. The desk patches its list with them instead of
 * reading 10,000 rows again for each change.
 */
export const DeskTodayChangesInput = z.strictObject({
  since: Timestamp,
  /** Records named by `records.changed` (patients, cards, checks, discoveries; others match nothing). */
  record_ids: z.array(Id).max(TODAY_CHANGES_MAX_IDS),
  /** The last answer's `as_of`: also the patients whose outbox entries moved since (their sync marker). */
  outbox_since: Timestamp.optional(),
});
export const DeskTodayChanges = z.object({
  /** Their rows now, for those on Today since `since`, newest activity first. */
  data: z.array(DeskPatientRow),
  /** Every patient the changes were about: one not in `data` is no longer on Today. */
  patient_ids: z.array(Id),
  as_of: Timestamp,
});
export type DeskTodayChanges = z.infer<typeof DeskTodayChanges>;

/** Everything about one patient the Eligibility and Discovery screens need, newest first. */
export const DeskPatientDetail = z.object({
  patient: Patient,
  cards: z.array(InsuranceCard),
  checks: z.array(Check),
  discoveries: z.array(Discovery),
});
export type DeskPatientDetail = z.infer<typeof DeskPatientDetail>;

/**
 * A patient's name or date of birth corrected (issue 26, item 7). The upstream contract has
 * creates only, so the desk's chart is corrected in place and the upstream is given the
 * corrected details the only way it can take them: see `PatientCorrected.upstream`.
 */
export const PatientCorrection = PatientCreate.extend({ id: Id });
export type PatientCorrection = z.infer<typeof PatientCorrection>;
export const PatientCorrected = z.object({
  patient: Patient,
  /**
   * `not_sent_yet`: the patient had not reached the service; it will receive the corrected
   * details, once. `registered_again`: the service already has the patient with the old
   * details and cannot change them; the corrected patient is registered there as a new
   * record, with a copy of each of the patient's cards, and every check or discovery sent
   * from now on names the corrected patient. The service keeps the old record.
   */
  upstream: z.enum(['not_sent_yet', 'registered_again']),
  /** Cards sent again under the corrected patient (`registered_again`). */
  cards_resent: z.number().int().min(0),
});
export type PatientCorrected = z.infer<typeof PatientCorrected>;

/** Where the outbox stands. `online` is null while no sync worker has tried the upstream. */
export const SyncStatus = z.object({
  online: z.boolean().nullable(),
  mode: z.enum(['sandbox', 'upstream']),
  upstream_url: z.string().nullable(),
  counts: z.object(Object.fromEntries(SyncState.options.map((s) => [s, z.number().int().min(0)])) as Record<SyncState, z.ZodNumber>),
  last_sync_at: Timestamp.nullable(),
  worker: z.enum(['running', 'paused', 'absent']),
  /**
   * This computer's disk: `low` under the free-space margin (a warning: everything still
   * works), `full` when a write could not be stored (sending, pulling and batches wait, and
   * go on by themselves once there is room).
   */
  storage: z.enum(['ok', 'low', 'full']),
});
export type SyncStatus = z.infer<typeof SyncStatus>;

/**
 * The database was damaged at start (issue 29, item 2): set aside, a fresh one started, what
 * could be read copied in. `missing_records`: records whose outbox entry was read back but
 * whose own row was not (their ids; what could not be read at all is counted by table).
 */
export const DamageReport = z.object({
  message: z.string(),
  kept_as: z.string(),
  problems: z.number().int(),
  recovered_entries: z.number().int(),
  recovered_rows: z.number().int(),
  unreadable_rows: z.record(z.string(), z.number().int()),
  unreadable_entries: z.array(z.string()),
  missing_records: z.array(z.string()),
});
export type DamageReport = z.infer<typeof DamageReport>;

/** Records this desk has that the service has not taken yet (issue 29): lost with this computer. */
export const OnlyHere = z.object({ records: z.number().int().min(0), since: Timestamp.nullable() });
export type OnlyHere = z.infer<typeof OnlyHere>;

/** An outbox entry as the Sync screen shows it. */
export const SyncItem = z.object({
  id: Id,
  collection: z.string(),
  record_id: z.string(),
  state: SyncState,
  attempts: z.number().int(),
  last_error: SyncError.nullable(),
  /** Plain words for what this entry carries, e.g. "Eligibility check for Jane Doe". */
  description: z.string(),
  /** The desk's state of it (sync-phase.ts): sending, needs you, waiting for another item, sent. */
  phase: z.enum(['sending', 'needs_you', 'waiting', 'sent']),
  /** One line on why it is in that state and what happens next (shown to the desk only: it may name a patient). */
  reason: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type SyncItem = z.infer<typeof SyncItem>;

export const SyncListInput = z.strictObject({ states: z.array(SyncState).min(1).optional() });

/**
 * What trying the eligibility service said, in the four cases a desk must tell apart
 * (plus a service that answered but is failing right now): `connected`; `wrong_key` (401 or
 * 403); `unreachable` (no answer at all: a wrong address, a closed port, no network);
 * `not_compatible` (something answered, but not a Coverdesk `/v1` service); `service_error`.
 */
export const ConnectionState = z.enum(['connected', 'wrong_key', 'unreachable', 'not_compatible', 'service_error']);
export type ConnectionState = z.infer<typeof ConnectionState>;
export const ConnectionTest = z.object({
  state: ConnectionState,
  mode: z.enum(['sandbox', 'upstream']),
  /** The address tried (null for the sandbox, which runs inside Coverdesk). */
  upstream_url: z.string().nullable(),
  /** The HTTP status it answered with; null when nothing answered. */
  http_status: z.number().int().nullable(),
  /** One sentence for the desk: what happened and what to do. Never a secret. */
  message: z.string(),
  tested_at: Timestamp,
});
export type ConnectionTest = z.infer<typeof ConnectionTest>;

/**
 * Records made on this computer that have not reached the service they were made for, and
 * which service that is: switching services must say how many would go to the new one.
 */
export const WaitingRecords = z.object({
  count: z.number().int().min(0),
  mode: z.enum(['sandbox', 'upstream']),
  upstream_url: z.string().nullable(),
});
export type WaitingRecords = z.infer<typeof WaitingRecords>;

/** Settings the desk can see and change. The API key itself is never sent back. */
export const DeskSettings = z.object({
  mode: z.enum(['sandbox', 'upstream']),
  upstream_url: z.string().nullable(),
  api_key_set: z.boolean(),
  default_provider_id: Id.nullable(),
  hot_folder: z.string().nullable(),
  /** The practice's usual visit: what new checks and the checks a discovery starts ask about; null: plan coverage. */
  default_service_type: ServiceType.nullable(),
  waiting: WaitingRecords,
});
export type DeskSettings = z.infer<typeof DeskSettings>;

/** What saving answers: the settings now, and, when the service or its key changed, the connection test. */
export const DeskSettingsSaved = DeskSettings.extend({ connection: ConnectionTest.nullable() });
export type DeskSettingsSaved = z.infer<typeof DeskSettingsSaved>;

/**
 * Where the upstream service is: http(s) only, and no user name or password in it. The
 * service authenticates with the API key, which is sealed at rest; a password in the
 * address would be kept, shown in Settings and sent with every status as plain text.
 */
export const UpstreamUrl = z
  .url({ protocol: /^https?$/, error: 'must be a web address starting with http:// or https://' })
  .max(2000)
  // zod runs this check even when the address failed the one above, which said so already.
  .refine((url) => !holdsCredentials(url), 'must not hold a user name or password: the API key is the credential');

/** Whether an address carries a user name or password (`https://user:pw@host`); false for what is not an address. */
export function holdsCredentials(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { username, password } = new URL(url);
  return username !== '' || password !== '';
}

export const DeskSettingsUpdate = z.strictObject({
  upstream_url: UpstreamUrl.nullable().optional(),
  api_key: z.string().trim().min(1).max(500).nullable().optional(),
  default_provider_id: Id.nullable().optional(),
  hot_folder: z.string().trim().min(1).max(1000).nullable().optional(),
  default_service_type: ServiceType.nullable().optional(),
  /**
   * Required when the change moves to another service while records still wait for the
   * current one (`waiting.count` > 0): the desk has been told they will go to the new one.
   */
  send_waiting_to_new_service: z.literal(true).optional(),
});
export type DeskSettingsUpdate = z.infer<typeof DeskSettingsUpdate>;

/** The local API for scanner software: whether it listens, where, and its bearer token. */
export const LocalApiStatus = z.object({
  state: z.enum(['running', 'stopped', 'unavailable']),
  /** The Unix socket's path, or the Windows named pipe. */
  address: z.string().nullable(),
  /** `http://127.0.0.1:P` when TCP is on (`--local-api-port`). */
  tcp_address: z.string().nullable(),
  token: z.string().nullable(),
  message: z.string().optional(),
});
export type LocalApiStatus = z.infer<typeof LocalApiStatus>;

/** A named local API integration (issue 28): the token itself is shown once, when made. */
export const Integration = z.object({
  id: z.string(),
  name: z.string(),
  created_at: Timestamp,
  last_used_at: Timestamp.nullable(),
  revoked_at: Timestamp.nullable(),
});
export type Integration = z.infer<typeof Integration>;

export const AddIntegrationInput = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .regex(/^[^\p{Cc}]+$/u, 'must be on one line, without control characters'),
});
export const AddedIntegration = z.object({ integration: Integration, token: z.string() });
export const RevokeIntegrationInput = z.strictObject({ id: z.string().min(1) });

/** Read a card's photos before the card exists, so Intake can pre-fill its fields. */
export const ExtractionPreviewInput = z.strictObject({
  front_photo_object_key: ObjectKey,
  back_photo_object_key: ObjectKey.optional(),
});
export const ExtractionPreview = z.object({
  status: z.enum(['success', 'failure']),
  engine: ExtractionEngine,
  fields: ExtractedFields.optional(),
  failure_reason: z.string().optional(),
  /** The barcodes on the photos, read: a licence's details are offered to the desk, never filled silently. */
  barcodes: z.array(BarcodeReading).optional(),
});
export type ExtractionPreview = z.infer<typeof ExtractionPreview>;

/** A barcode's text a scanner typed into the desk (keyboard wedge): read as if from a photo, nothing stored. */
export const BarcodeTextInput = z.strictObject({ text: BarcodeText });
