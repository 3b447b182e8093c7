import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';
import type {
  Benefit,
  CardSource,
  CheckFailureReason,
  ClearinghouseEntityError,
  ExtractedFields,
  ServiceType,
  Source,
  Status,
  SyncError,
  SyncState,
} from '../../shared/contract';
import type { AuditAction } from '../../shared/bridge/security-contract';

/**
 * One schema for every store: the host's local database and the sandbox's. The sandbox
 * leaves the outbox empty; the host leaves `roster` empty. `remote_id` is the id the
 * upstream gave a record the host sent it (null until synced, and always null in the sandbox).
 */

export const patients = sqliteTable(
  'patients',
  {
    id: text('id').primaryKey(),
    first_name: text('first_name').notNull(),
    last_name: text('last_name').notNull(),
    date_of_birth: text('date_of_birth').notNull(),
    created_at: text('created_at').notNull(),
    remote_id: text('remote_id'),
  },
  // Pulled records are found by their upstream id; duplicates by birth date (issue 17).
  (t) => [index('patients_remote_id').on(t.remote_id), index('patients_date_of_birth').on(t.date_of_birth)],
);

/** Photo bytes live in files named by their object key; this row says they are complete. */
export const photos = sqliteTable('photos', {
  object_key: text('object_key').primaryKey(),
  content_type: text('content_type').notNull(),
  byte_size: integer('byte_size').notNull(),
  created_at: text('created_at').notNull(),
  remote_id: text('remote_id'),
});

export const insurance_cards = sqliteTable(
  'insurance_cards',
  {
    id: text('id').primaryKey(),
    patient_id: text('patient_id')
      .notNull()
      .references(() => patients.id),
    reference_id: text('reference_id'),
    source: text('source').$type<CardSource>().notNull(),
    network_status: text('network_status').$type<'in_network' | 'out_of_network'>(),
    submission_id: text('submission_id'),
    front_photo_object_key: text('front_photo_object_key').references(() => photos.object_key),
    back_photo_object_key: text('back_photo_object_key').references(() => photos.object_key),
    member_name: text('member_name'),
    member_id: text('member_id'),
    group_number: text('group_number'),
    insurance_carrier_ids: text('insurance_carrier_ids', { mode: 'json' }).$type<string[]>().notNull(),
    plan_name: text('plan_name'),
    rx_bin: text('rx_bin'),
    rx_group: text('rx_group'),
    rx_pcn: text('rx_pcn'),
    dependent_names: text('dependent_names', { mode: 'json' }).$type<string[]>(),
    plan_status: text('plan_status').$type<'active' | 'inactive'>(),
    plan_status_fetched_at: text('plan_status_fetched_at'),
    created_at: text('created_at').notNull(),
    remote_id: text('remote_id'),
  },
  (t) => [index('insurance_cards_patient_id').on(t.patient_id), index('insurance_cards_member_id').on(t.member_id), index('insurance_cards_remote_id').on(t.remote_id)],
);

export const extractions = sqliteTable(
  'extractions',
  {
    id: text('id').primaryKey(),
    insurance_card_id: text('insurance_card_id')
      .notNull()
      .references(() => insurance_cards.id),
    status: text('status').$type<Status>().notNull(),
    engine: text('engine').$type<'on_device' | 'upstream'>().notNull(),
    fields: text('fields', { mode: 'json' }).$type<ExtractedFields>(),
    text: text('text'),
    failure_reason: text('failure_reason'),
    created_at: text('created_at').notNull(),
    finished_at: text('finished_at'),
    remote_id: text('remote_id'),
  },
  (t) => [
    index('extractions_card').on(t.insurance_card_id),
    index('extractions_remote_id').on(t.remote_id),
  // Records still waiting for an answer, found at every start (sync: answers owed by another service) without reading the whole table.
    index('extractions_pending').on(t.status).where(sql`status = 'pending'`),
  ],
);

export const discoveries = sqliteTable(
  'electronic_eligibility_discoveries',
  {
    id: text('id').primaryKey(),
    insurance_card_id: text('insurance_card_id')
      .notNull()
      .references(() => insurance_cards.id),
    patient_first_name: text('patient_first_name').notNull(),
    patient_last_name: text('patient_last_name').notNull(),
    patient_date_of_birth: text('patient_date_of_birth').notNull(),
    insurance_card_member_id: text('insurance_card_member_id'),
    source: text('source').$type<Source>().notNull(),
    status: text('status').$type<Status>().notNull(),
    /** The service type its spawned checks ask about; null: plan coverage. */
    service_type: text('service_type').$type<ServiceType>(),
    created_at: text('created_at').notNull(),
    finished_at: text('finished_at'),
    remote_id: text('remote_id'),
  },
  (t) => [
    index('discoveries_card').on(t.insurance_card_id),
    index('discoveries_remote_id').on(t.remote_id),
  // Records still waiting for an answer, found at every start (sync: answers owed by another service) without reading the whole table.
    index('discoveries_pending').on(t.status).where(sql`status = 'pending'`),
  ],
);

export const checks = sqliteTable(
  'electronic_eligibility_checks',
  {
    id: text('id').primaryKey(),
    insurance_card_id: text('insurance_card_id')
      .notNull()
      .references(() => insurance_cards.id),
    // Not foreign keys: providers and entities are reference data a refresh may replace.
    provider_id: text('provider_id').notNull(),
    clearinghouse_entity_id: text('clearinghouse_entity_id').notNull(),
    electronic_eligibility_discovery_id: text('electronic_eligibility_discovery_id').references(() => discoveries.id),
    provider_npi: text('provider_npi').notNull(),
    patient_first_name: text('patient_first_name').notNull(),
    patient_last_name: text('patient_last_name').notNull(),
    patient_date_of_birth: text('patient_date_of_birth').notNull(),
    insurance_card_member_id: text('insurance_card_member_id'),
    service_type: text('service_type').notNull(),
    status: text('status').$type<Status>().notNull(),
    source: text('source').$type<Source>().notNull(),
    failure_reason: text('failure_reason').$type<CheckFailureReason>(),
    clearinghouse_entity_errors: text('clearinghouse_entity_errors', { mode: 'json' }).$type<ClearinghouseEntityError[]>(),
    benefits: text('benefits', { mode: 'json' }).$type<Benefit[]>(),
    created_at: text('created_at').notNull(),
    finished_at: text('finished_at'),
    remote_id: text('remote_id'),
  },
  (t) => [
    index('checks_card').on(t.insurance_card_id),
    index('checks_discovery').on(t.electronic_eligibility_discovery_id),
    index('checks_remote_id').on(t.remote_id),
  // Records still waiting for an answer, found at every start (sync: answers owed by another service) without reading the whole table.
    index('checks_pending').on(t.status).where(sql`status = 'pending'`),
  ],
);

export const providers = sqliteTable('providers', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  npi: text('npi').notNull(),
});

export const clearinghouse_entities = sqliteTable('clearinghouse_entities', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  payer_id: text('payer_id').notNull(),
});

/**
 * The outbox (docs/decisions.md, local data and the outbox). Its id is the Idempotency-Key upstream. `depends_on` lists
 * entry ids that must be synced first (a card waits for its patient and photos).
 */
/** Entries sent whose answer has not come: in flight, or sent once and queued again (index `outbox_unanswered`). */
export const OUTBOX_UNANSWERED_SQL = "state = 'sending' OR (state = 'queued' AND attempts > 0)";

export const outbox = sqliteTable(
  'outbox',
  {
    id: text('id').primaryKey(),
    collection: text('collection').notNull(),
    record_id: text('record_id').notNull(),
    payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    depends_on: text('depends_on', { mode: 'json' }).$type<string[]>().notNull(),
    state: text('state').$type<SyncState>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: text('next_attempt_at'),
    first_attempt_at: text('first_attempt_at'),
    last_error: text('last_error', { mode: 'json' }).$type<SyncError>(),
    remote_id: text('remote_id'),
    created_at: text('created_at').notNull(),
    updated_at: text('updated_at').notNull(),
  },
  // outbox_remote: an id the service once answered for a record and has since replaced
  // (a corrected patient sent again) still names that record when the feed brings it.
  (t) => [
    index('outbox_state_next').on(t.state, t.next_attempt_at),
    index('outbox_record').on(t.record_id),
    index('outbox_remote').on(t.remote_id),
    // "Last sync" at every start without reading every synced entry; only synced entries are in it, so a create pays nothing for it.
    index('outbox_synced_at').on(t.updated_at).where(sql`state = 'synced'`),
    // The pull asks, once a run, which collections have a send whose answer has not come (in
    // flight, or sent once and queued again). Only those entries are in it, so a create (queued,
    // never tried) pays nothing, and the question no longer reads a long offline queue.
    index('outbox_unanswered').on(t.collection).where(sql.raw(OUTBOX_UNANSWERED_SQL)),
  ],
);

/**
 * Which service holds which of this desk's records, under which id (issue 26): an upstream's
 * id means something only to the service that issued it, so it is kept per service (keyed by
 * `upstreamKey`: "sandbox" for the embedded one, else its address). A record with no row for
 * the service sync talks to now has not reached it, and is sent again before anything that
 * names it. A record's `remote_id` column is the id most recently issued, whichever service.
 */
export const remote_ids = sqliteTable(
  'remote_ids',
  {
    upstream: text('upstream').notNull(),
    /** The local record id, or a photo's object key. */
    record_id: text('record_id').notNull(),
    remote_id: text('remote_id').notNull(),
  },
  // The pull side finds the local record by the id a service's feed names.
  (t) => [primaryKey({ columns: [t.upstream, t.record_id] }), index('remote_ids_remote').on(t.upstream, t.remote_id)],
);

/** Stored first responses for Idempotency-Key replay (the HTTP layer, any service). */
export const idempotency_keys = sqliteTable('idempotency_keys', {
  scope: text('scope').notNull(),
  key: text('key').notNull(),
  request_hash: text('request_hash').notNull(),
  status: integer('status'),
  response_body: text('response_body'),
  created_at: text('created_at').notNull(),
  completed_at: text('completed_at'),
  // The once-a-minute purge of expired keys reads this index, not the whole table, inside a create's transaction.
}, (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_created_at').on(t.created_at)]);

/** Small key-value settings (upstream URL, default provider, …); secrets are not stored here. */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value', { mode: 'json' }).notNull(),
});

/**
 * The people who work at this desk (issue 28): each signs in with their own PIN or passphrase,
 * so the audit names a person, not the workstation's OS account. Never deleted (the audit keeps
 * naming them): a person who leaves is disabled. `pin` is the lock's scrypt record (JSON, with
 * its parameters); wrong PINs are counted per person, so one person's typos do not lock the next.
 */
export const staff = sqliteTable(
  'staff',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    role: text('role', { enum: ['front_desk', 'manager'] }).notNull(),
    pin: text('pin', { mode: 'json' }).notNull(),
    failures: integer('failures').notNull().default(0),
    retry_at: text('retry_at'),
    created_at: text('created_at').notNull(),
    disabled_at: text('disabled_at'),
  },
  (table) => [uniqueIndex('staff_name').on(sql`lower(${table.name})`)],
);

/**
 * The local API's named integrations (issue 28): one bearer token each, kept only as its
 * SHA-256 (the token is shown once, when made), revoked rather than deleted so the audit's
 * names keep pointing somewhere. The token file's token predates them and is not here.
 */
export const integration_tokens = sqliteTable(
  'integration_tokens',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    token_sha256: text('token_sha256').notNull(),
    created_at: text('created_at').notNull(),
    last_used_at: text('last_used_at'),
    revoked_at: text('revoked_at'),
  },
  (table) => [uniqueIndex('integration_tokens_token').on(table.token_sha256)],
);

/**
 * Scanned cards dropped in the hot folder, waiting for the desk to attach them to a
 * patient in Intake. The photos are already stored (and queued upstream); the item only
 * says which belong together and what the scanner's sidecar and the extraction said.
 */
export const inbox_items = sqliteTable(
  'inbox_items',
  {
    id: text('id').primaryKey(),
    front_photo_object_key: text('front_photo_object_key')
      .notNull()
      .references(() => photos.object_key),
    back_photo_object_key: text('back_photo_object_key').references(() => photos.object_key),
    patient_id: text('patient_id'),
    patient_first_name: text('patient_first_name'),
    patient_last_name: text('patient_last_name'),
    patient_date_of_birth: text('patient_date_of_birth'),
    extraction_status: text('extraction_status').$type<Status>().notNull(),
    extraction_fields: text('extraction_fields', { mode: 'json' }).$type<ExtractedFields>(),
    extraction_failure_reason: text('extraction_failure_reason'),
    state: text('state').$type<'new' | 'used' | 'dismissed'>().notNull(),
    insurance_card_id: text('insurance_card_id'),
    created_at: text('created_at').notNull(),
  },
  (t) => [index('inbox_items_state').on(t.state)],
);

/**
 * The sandbox's covered people (docs/sandbox.md): a discovery finds coverage by matching the
 * patient's name and date of birth here. One row per coverage; the host leaves it empty.
 */
export const roster = sqliteTable(
  'roster',
  {
    id: text('id').primaryKey(),
    first_name: text('first_name').notNull(),
    last_name: text('last_name').notNull(),
    date_of_birth: text('date_of_birth').notNull(),
    member_id: text('member_id').notNull(),
    clearinghouse_entity_id: text('clearinghouse_entity_id')
      .notNull()
      .references(() => clearinghouse_entities.id),
    group_number: text('group_number'),
    plan_name: text('plan_name'),
  },
  (t) => [index('roster_person').on(t.last_name, t.date_of_birth)],
);

/**
 * Who did what to which record, for the practice's privacy officer: the workstation's OS
 * user, view / create / print / export, a record id, the time. Ids only, never PHI.
 * Append-only: triggers (in the migrations) refuse UPDATE and DELETE, except sealing an
 * entry from before the chain once.
 */
export const audit_log = sqliteTable('audit_log', {
  seq: integer('seq').primaryKey({ autoIncrement: true }),
  at: text('at').notNull(),
  actor: text('actor').notNull(),
  action: text('action').$type<AuditAction>().notNull(),
  record_id: text('record_id').notNull(),
  /**
   * The chain's seal (issue 28): HMAC-SHA256, keyed from the database key, over this entry
   * and the previous entry's seal (`src/main/audit/audit-chain.ts`). Null only on entries
   * from before the chain until the host's first start seals them (the checkpoint).
   */
  hash: text('hash'),
});

/**
 * Appointments (issue 16): desk-local, never sent upstream. `dedupe_key` makes re-importing a
 * schedule change nothing: the scheduling system's id, else date + time + the patient's
 * normalised name and birth date. `patient_id` is null while a person must choose (`ambiguous`).
 */
export const appointments = sqliteTable(
  'appointments',
  {
    id: text('id').primaryKey(),
    dedupe_key: text('dedupe_key').notNull().unique(),
    date: text('date').notNull(),
    time: text('time').notNull(),
    first_name: text('first_name').notNull(),
    last_name: text('last_name').notNull(),
    date_of_birth: text('date_of_birth').notNull(),
    member_id: text('member_id'),
    // The schedule's insurance (issue 26): with the member id, what makes the patient's card.
    payer: text('payer'),
    clearinghouse_entity_id: text('clearinghouse_entity_id'),
    payer_candidate_ids: text('payer_candidate_ids', { mode: 'json' }).$type<string[]>().notNull().default([]),
    group_number: text('group_number'),
    relationship: text('relationship').$type<'self' | 'spouse' | 'child' | 'other'>(),
    phone: text('phone'),
    provider_id: text('provider_id'),
    visit_type: text('visit_type'),
    service_type: text('service_type').$type<ServiceType>(),
    location: text('location'),
    external_id: text('external_id'),
    patient_id: text('patient_id').references(() => patients.id),
    patient_match: text('patient_match').$type<'matched' | 'created' | 'ambiguous'>().notNull(),
    candidate_patient_ids: text('candidate_patient_ids', { mode: 'json' }).$type<string[]>().notNull(),
    created_at: text('created_at').notNull(),
    updated_at: text('updated_at').notNull(),
  },
  (t) => [index('appointments_date').on(t.date, t.time), index('appointments_patient').on(t.patient_id)],
);

/** A batch of eligibility checks for one day's appointments, durable across restarts and crashes. */
export const eligibility_batches = sqliteTable('eligibility_batches', {
  id: text('id').primaryKey(),
  date: text('date').notNull(),
  start_at: text('start_at').notNull(),
  state: text('state').$type<'scheduled' | 'running' | 'finished'>().notNull(),
  created_at: text('created_at').notNull(),
  finished_at: text('finished_at'),
});

/**
 * One appointment of a batch. A job becomes `done` in the same transaction that creates its
 * check, so a crash can neither lose nor repeat a check.
 */
export const batch_jobs = sqliteTable(
  'batch_jobs',
  {
    id: text('id').primaryKey(),
    batch_id: text('batch_id')
      .notNull()
      .references(() => eligibility_batches.id),
    appointment_id: text('appointment_id')
      .notNull()
      .references(() => appointments.id),
    state: text('state').$type<'queued' | 'done' | 'skipped'>().notNull(),
    skip_reason: text('skip_reason'),
    insurance_card_id: text('insurance_card_id'),
    check_id: text('check_id'),
    created_at: text('created_at').notNull(),
    updated_at: text('updated_at').notNull(),
  },
  (t) => [index('batch_jobs_batch_state').on(t.batch_id, t.state), index('batch_jobs_appointment').on(t.appointment_id)],
);

/**
 * The upstream's changes feed (issue 17, docs/decisions.md "The changes feed"): one row per
 * record, moved to a new `seq` each time the record is created or changes, in the same
 * transaction (the sandbox's triggers write it). The host leaves it empty.
 */
export const changes = sqliteTable(
  'changes',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    collection: text('collection').notNull(),
    record_id: text('record_id').notNull(),
  },
  (t) => [uniqueIndex('changes_record').on(t.collection, t.record_id)],
);

/**
 * What the desk has pulled from the practice's feed, per upstream (a switch of upstream
 * starts again): the cursor, written in the same transaction as the page it ends.
 */
export const pull_state = sqliteTable('pull_state', {
  upstream: text('upstream').primaryKey(),
  cursor: text('cursor'),
  /** Set once the desk has read to the end of the feed the first time. */
  bootstrapped_at: text('bootstrapped_at'),
  /** When the feed last answered (the Sync screen's "last heard from the practice"). */
  last_pulled_at: text('last_pulled_at'),
  /** Records applied so far (bootstrap progress). */
  received: integer('received').notNull().default(0),
  /** The last page's `has_more`: whether the desk is behind. */
  behind: integer('behind', { mode: 'boolean' }).notNull().default(true),
});

/**
 * Records of the feed the desk could not take (a record failing the contract, one naming a
 * record the desk does not have): kept with the reason for the Sync screen and tried again.
 */
export const pull_set_aside = sqliteTable(
  'pull_set_aside',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    collection: text('collection').notNull(),
    upstream_id: text('upstream_id'),
    reason: text('reason').notNull(),
    record: text('record', { mode: 'json' }).$type<unknown>(),
    created_at: text('created_at').notNull(),
  },
  (t) => [index('pull_set_aside_upstream').on(t.collection, t.upstream_id)],
);

/**
 * Two patients that may be one person (same name and birth date, or same member id), found
 * when records arrive from another desk: shown to link, never merged silently.
 */
export const possible_duplicates = sqliteTable(
  'possible_duplicates',
  {
    patient_id: text('patient_id')
      .notNull()
      .references(() => patients.id),
    other_patient_id: text('other_patient_id')
      .notNull()
      .references(() => patients.id),
    reason: text('reason').$type<'name_and_date_of_birth' | 'member_id'>().notNull(),
    state: text('state').$type<'open' | 'linked' | 'dismissed'>().notNull(),
    created_at: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.patient_id, t.other_patient_id] })],
);

/**
 * Good Faith Estimates (issue 30, item 5): one per appointment marked self-pay, due by the
 * rule's deadline, then issued once with its whole document, so a re-print is the same.
 * Desk-local, as appointments are; never sent upstream.
 */
export const good_faith_estimates = sqliteTable(
  'good_faith_estimates',
  {
    id: text('id').primaryKey(),
    appointment_id: text('appointment_id')
      .notNull()
      .unique()
      .references(() => appointments.id),
    patient_id: text('patient_id').references(() => patients.id),
    // The deadline is worked out on read from these and the appointment's current date: a rescheduled visit moves it.
    scheduled_on: text('scheduled_on').notNull(),
    requested_on: text('requested_on'),
    created_at: text('created_at').notNull(),
    issued_at: text('issued_at'),
    document: text('document', { mode: 'json' }).$type<unknown>(),
  },
);

/**
 * What the desk collected at the window (issue 30): desk records, never sent upstream.
 * Append-only (the migration's triggers refuse UPDATE and DELETE): a void is a new row whose
 * `voids_id` names the row it undoes, and the unique index lets a row be undone once.
 */
export const collections = sqliteTable(
  'collections',
  {
    id: text('id').primaryKey(),
    kind: text('kind').$type<'payment' | 'declined' | 'waived' | 'void'>().notNull(),
    amount_cents: integer('amount_cents').notNull(),
    method: text('method').$type<'cash' | 'check' | 'card'>(),
    check_number: text('check_number'),
    card_reference: text('card_reference'),
    taken_by: text('taken_by').notNull(),
    desk: text('desk').notNull(),
    source: text('source').$type<Source>().notNull(),
    appointment_id: text('appointment_id').references(() => appointments.id),
    patient_id: text('patient_id').references(() => patients.id),
    visit_date: text('visit_date').notNull(),
    date: text('date').notNull(),
    estimate: text('estimate', { mode: 'json' }).$type<{ check_id: string; visit_type: string | null; min_cents: number; max_cents: number | null; headline: string }>(),
    voids_id: text('voids_id').unique(),
    reason: text('reason'),
    created_at: text('created_at').notNull(),
  },
  (t) => [index('collections_date').on(t.date), index('collections_visit').on(t.visit_date)],
);
