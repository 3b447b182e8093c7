import type { Db } from '../db/open-database';
import { preparedOnce } from '../records/statements';
import { WAITING_STATES_SQL } from '../outbox/waiting-states';
import type { DeskPatientRow, DeskTodayChanges } from '../../shared/bridge/desk-contract';
import { deskPatientRows, shapeDeskRows, type ActivePatientRow } from './patient-rows';

/** Who is on Today (see `todayRows`) and their newest activity: one row per patient id, unordered. */
const ACTIVITY_BY_PATIENT = `SELECT patient_id, max(at) AS last_activity_at FROM (
           SELECT id AS patient_id, created_at AS at FROM patients WHERE created_at >= @since
           UNION ALL SELECT patient_id, created_at FROM insurance_cards WHERE created_at >= @since
           UNION ALL SELECT c.patient_id, max(k.created_at, coalesce(k.finished_at, '')) FROM electronic_eligibility_checks k
             JOIN insurance_cards c ON c.id = k.insurance_card_id WHERE k.created_at >= @since OR k.finished_at >= @since
           UNION ALL SELECT c.patient_id, max(d.created_at, coalesce(d.finished_at, '')) FROM electronic_eligibility_discoveries d
             JOIN insurance_cards c ON c.id = d.insurance_card_id WHERE d.created_at >= @since OR d.finished_at >= @since
         ) GROUP BY patient_id`;

/** Who is on Today with their newest activity: one row per patient, unordered. */
const ACTIVE_PATIENTS = `SELECT p.id, p.first_name, p.last_name, p.date_of_birth, p.created_at, a.last_activity_at FROM (
         ${ACTIVITY_BY_PATIENT}
       ) a JOIN patients p ON p.id = a.patient_id`;

/**
 * Today's patients: everyone registered, carded, checked or discovered since the start of
 * the desk's day (which only the renderer knows: it is local time), newest activity first.
 *
 * One statement finds them and their newest activity: a patient is on Today only because one
 * of their activities is at or after `since`, so the newest of those is their newest of all,
 * and patients, cards, checks and discoveries need not be read a second time for it.
 */
export function todayRows(db: Db, input: { since: string }): DeskPatientRow[] {
  const statement = preparedOnce(db, 'desk:today', () => db.$client.prepare<[{ since: string }], ActivePatientRow>(ACTIVE_PATIENTS));
  return shapeDeskRows(db, statement.all({ since: input.since }));
}

/**
 * The first `first` rows of Today, exactly as the full read orders and shapes them, and how many
 * there are in all (issue 31): only those rows are shaped (their cards, checks and sync states),
 * so the screen is painted before the host has shaped 10,000 rows. The order is
 * `compareDeskRows`' (newest activity, then id, both descending: SQLite's BINARY collation
 * compares these ASCII strings as JavaScript does).
 */
export function firstTodayRows(db: Db, input: { since: string; first: number }): { rows: DeskPatientRow[]; total: number } {
  const statement = preparedOnce(db, 'desk:today-first', () =>
    db.$client.prepare<[{ since: string; first: number }], ActivePatientRow & { total: number }>(
      // Grouped once (materialised), counted, and only the first rows joined to their patients:
      // ordering and counting all 10,000 joined rows was most of this read's 40 ms (issue 31).
      `WITH a AS MATERIALIZED (${ACTIVITY_BY_PATIENT})
       SELECT p.id, p.first_name, p.last_name, p.date_of_birth, p.created_at, f.last_activity_at, (SELECT count(*) FROM a) AS total
       FROM (SELECT patient_id, last_activity_at FROM a ORDER BY last_activity_at DESC, patient_id DESC LIMIT @first) f
       JOIN patients p ON p.id = f.patient_id
       ORDER BY f.last_activity_at DESC, p.id DESC`,
    ),
  );
  const found = statement.all(input);
  if (found.length === 0) return { rows: [], total: 0 };
  return { rows: shapeDeskRows(db, found.map(({ total: _total, ...patient }) => patient)), total: found[0].total };
}

/**
 * The patients these records belong to (a patient, a card, a check or a discovery: other ids
 * match nothing), and, with `outbox_since`, those with an outbox entry that moved since then:
 * every write to the outbox sets `updated_at`, and a row's sync marker is read from there.
 * Synced and waiting entries are asked apart so that each uses an index (synced ones by
 * `updated_at`, waiting ones by state): one `updated_at >=` over the whole outbox read every
 * entry at each change a batch made.
 */
function changedPatients(db: Db, input: { record_ids: readonly string[]; outbox_since?: string }): string[] {
  const statement = preparedOnce(db, 'desk:today-changed-patients', () =>
    db.$client.prepare<[{ ids: string; outbox_since: string | null }], { patient_id: string }>(
      `WITH changed(id) AS (
         SELECT value FROM json_each(@ids)
         UNION SELECT record_id FROM outbox INDEXED BY outbox_synced_at WHERE @outbox_since IS NOT NULL AND state = 'synced' AND updated_at >= @outbox_since
         UNION SELECT record_id FROM outbox WHERE @outbox_since IS NOT NULL AND state IN (${WAITING_STATES_SQL}) AND updated_at >= @outbox_since
       )
       SELECT id AS patient_id FROM patients WHERE id IN changed
       UNION SELECT patient_id FROM insurance_cards WHERE id IN changed
       UNION SELECT c.patient_id FROM electronic_eligibility_checks k JOIN insurance_cards c ON c.id = k.insurance_card_id WHERE k.id IN changed
       UNION SELECT c.patient_id FROM electronic_eligibility_discoveries d JOIN insurance_cards c ON c.id = d.insurance_card_id WHERE d.id IN changed`,
    ),
  );
  return statement.all({ ids: JSON.stringify(input.record_ids), outbox_since: input.outbox_since ?? null }).map((row) => row.patient_id);
}

/**
 * Today's rows for what changed (issue 31): a batch answering 800 checks moves 800 rows of a
 * list that may hold 50,000, and each re-read whole was 14 MB. A patient is on Today exactly
 * when their newest activity is at or after `since` (each activity `todayRows` counts is also
 * one of `deskPatientRows`' activities), so the rows are the same as a full read would give.
 */
export function todayChanges(db: Db, input: { since: string; record_ids: readonly string[]; outbox_since?: string }, now: string): DeskTodayChanges {
  const patientIds = changedPatients(db, input);
  const data = deskPatientRows(db, patientIds).filter((row) => row.last_activity_at >= input.since);
  return { data, patient_ids: patientIds, as_of: now };
}
