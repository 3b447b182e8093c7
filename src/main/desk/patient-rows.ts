import type { Db } from '../db/open-database';
import { CURRENT_CARD_ORDER } from '../records/current-card';
import { preparedOnce } from '../records/statements';
import { eligibilityBadge } from '../../shared/bridge/desk-eligibility';
import { compareDeskRows, type DeskPatientRow } from '../../shared/bridge/desk-contract';
import type { Status, SyncState } from '../../shared/contract';

/**
 * One row per patient for Today and search: the patient, their current card, that card's
 * latest check and how far all three got upstream. Ids travel as one JSON array (json_each), so
 * 10,000 patients are four statements, not 40,000 lookups.
 */

interface PatientRow {
  id: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  created_at: string;
}
/** A patient whose newest activity the caller already knows (Today reads it with the patient). */
export interface ActivePatientRow extends PatientRow {
  last_activity_at: string;
}
interface CardRow {
  patient_id: string;
  id: string;
  member_id: string | null;
  plan_name: string | null;
  carrier_id: string | null;
  payer_name: string | null;
}
interface CheckRow {
  card_id: string;
  id: string;
  status: Status;
  /** A JSON array of the distinct benefit codes. */
  benefit_codes: string;
  checked_at: string;
}
interface ActivityRow {
  patient_id: string;
  last_activity_at: string;
}

function statements(db: Db) {
  const sqlite = db.$client;
  return preparedOnce(db, 'desk:patient-rows', () => ({
    patients: sqlite.prepare<[string], PatientRow>(
      `SELECT id, first_name, last_name, date_of_birth, created_at FROM patients WHERE id IN (SELECT value FROM json_each(?))`,
    ),
    newestCards: sqlite.prepare<[string], CardRow>(
      `SELECT c.patient_id, c.id, c.member_id, c.plan_name, c.carrier_id, e.name AS payer_name FROM (
         SELECT c.patient_id, c.id, c.member_id, c.plan_name, json_extract(c.insurance_carrier_ids, '$[0]') AS carrier_id,
                row_number() OVER (PARTITION BY c.patient_id ORDER BY ${CURRENT_CARD_ORDER}) AS n
         FROM insurance_cards c WHERE c.patient_id IN (SELECT value FROM json_each(?))
       ) c LEFT JOIN clearinghouse_entities e ON e.id = c.carrier_id WHERE c.n = 1`,
    ),
    // The newest check of each current card: the answer the row shows is about the card it shows.
    latestChecks: sqlite.prepare<[string], CheckRow>(
      `SELECT card_id, id, status, checked_at,
              (SELECT json_group_array(DISTINCT json_extract(b.value, '$.code')) FROM json_each(k.benefits) b) AS benefit_codes
       FROM (
         SELECT k.insurance_card_id AS card_id, k.id, k.status, k.benefits, coalesce(k.finished_at, k.created_at) AS checked_at,
                row_number() OVER (PARTITION BY k.insurance_card_id ORDER BY k.created_at DESC, k.id DESC) AS n
         FROM electronic_eligibility_checks k
         WHERE k.insurance_card_id IN (SELECT value FROM json_each(?))
       ) k WHERE n = 1`,
    ),
    activity: sqlite.prepare<[{ ids: string }], ActivityRow>(
      `SELECT patient_id, max(at) AS last_activity_at FROM (
         SELECT id AS patient_id, created_at AS at FROM patients WHERE id IN (SELECT value FROM json_each(@ids))
         UNION ALL SELECT patient_id, created_at FROM insurance_cards WHERE patient_id IN (SELECT value FROM json_each(@ids))
         UNION ALL SELECT c.patient_id, max(k.created_at, coalesce(k.finished_at, '')) FROM electronic_eligibility_checks k
           JOIN insurance_cards c ON c.id = k.insurance_card_id WHERE c.patient_id IN (SELECT value FROM json_each(@ids))
         UNION ALL SELECT c.patient_id, max(d.created_at, coalesce(d.finished_at, '')) FROM electronic_eligibility_discoveries d
           JOIN insurance_cards c ON c.id = d.insurance_card_id WHERE c.patient_id IN (SELECT value FROM json_each(@ids))
       ) GROUP BY patient_id`,
    ),
    syncStates: sqlite.prepare<[string], { record_id: string; state: SyncState }>(
      `SELECT record_id, state FROM outbox WHERE record_id IN (SELECT value FROM json_each(?))`,
    ),
  }));
}

/** Worst first: the row shows the state that needs a person soonest. */
const SYNC_ATTENTION: readonly SyncState[] = ['failed', 'needs_review', 'blocked', 'queued', 'sending', 'synced'];

function leastAdvanced(states: SyncState[]): SyncState {
  for (const state of SYNC_ATTENTION) if (states.includes(state)) return state;
  return 'synced';
}

/** Rows for these patients, newest activity first. Unknown ids are left out. */
export function deskPatientRows(db: Db, patientIds: readonly string[]): DeskPatientRow[] {
  if (patientIds.length === 0) return [];
  const s = statements(db);
  const ids = JSON.stringify(patientIds);
  const activity = new Map(s.activity.all({ ids }).map((row) => [row.patient_id, row.last_activity_at]));
  return shapeDeskRows(
    db,
    s.patients.all(ids).map((patient) => ({ ...patient, last_activity_at: activity.get(patient.id) ?? patient.created_at })),
  );
}

/**
 * Rows for patients already read with their newest activity: three more statements (current
 * cards, their latest checks, outbox states), each keyed by a JSON array of ids, and Maps for
 * the joins in JavaScript, so shaping 10,000 rows does no lookup per row in SQLite.
 */
export function shapeDeskRows(db: Db, patients: readonly ActivePatientRow[]): DeskPatientRow[] {
  if (patients.length === 0) return [];
  const s = statements(db);
  const patientIds = patients.map((p) => p.id);
  const cards = new Map(s.newestCards.all(JSON.stringify(patientIds)).map((row) => [row.patient_id, row]));
  const checks = new Map(s.latestChecks.all(JSON.stringify([...cards.values()].map((c) => c.id))).map((row) => [row.card_id, row]));
  const recordIds = [...patientIds, ...[...cards.values()].map((c) => c.id), ...[...checks.values()].map((c) => c.id)];
  // A record with no outbox entry came from upstream: synced.
  const syncOf = new Map(s.syncStates.all(JSON.stringify(recordIds)).map((row) => [row.record_id, row.state]));

  const rows = patients.map((patient): DeskPatientRow => {
    const card = cards.get(patient.id);
    const check = card ? checks.get(card.id) : undefined;
    const states = [patient.id, card?.id, check?.id].flatMap((id) => (id ? [syncOf.get(id) ?? 'synced'] : []));
    const row: DeskPatientRow = {
      patient_id: patient.id,
      first_name: patient.first_name,
      last_name: patient.last_name,
      date_of_birth: patient.date_of_birth,
      eligibility: eligibilityBadge(check ? { status: check.status, benefit_codes: JSON.parse(check.benefit_codes) as string[] } : null),
      last_activity_at: patient.last_activity_at,
      sync_state: leastAdvanced(states),
    };
    if (card) {
      row.card_id = card.id;
      if (card.member_id) row.member_id = card.member_id;
      if (card.plan_name) row.plan_name = card.plan_name;
      if (card.payer_name) row.payer_name = card.payer_name;
    }
    if (check) {
      row.check_id = check.id;
      row.checked_at = check.checked_at;
    }
    return row;
  });
  return rows.sort(compareDeskRows);
}
