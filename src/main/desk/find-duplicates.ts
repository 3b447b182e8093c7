import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/open-database';
import { patients, possible_duplicates } from '../db/schema';
import { looseKey } from '../appointments/schedule-values';
import { preparedOnce } from '../records/statements';
import type { DuplicateCandidate, FindDuplicatesInput, PossibleDuplicate } from '../../shared/bridge/practice-view';
import { ServiceError } from '../../shared/service-error';

type PatientRow = { id: string; first_name: string; last_name: string; date_of_birth: string; created_at: string };

/*
 * Prepared once a connection: a new desk's pull asks these for every patient it receives
 * (`notePossibleDuplicates`), and building the queries anew each time was ~5 % of the desk's
 * thread during a drain that pulled 8,000 patients (issue 31). 8,000 patients against 20,000
 * local ones: 330–475 → 155–268 µs CPU a patient, three alternating rounds.
 */
const patientById = (db: Db) =>
  preparedOnce(db, 'duplicates:patient', () =>
    db.$client.prepare<[string], PatientRow>('SELECT id, first_name, last_name, date_of_birth, created_at FROM patients WHERE id = ?'),
  );
const bornOn = (db: Db) =>
  preparedOnce(db, 'duplicates:born-on', () =>
    db.$client.prepare<[string], PatientRow>('SELECT id, first_name, last_name, date_of_birth, created_at FROM patients WHERE date_of_birth = ?'),
  );
const byMemberId = (db: Db) =>
  preparedOnce(db, 'duplicates:member-id', () =>
    db.$client.prepare<[string], PatientRow>(
      `SELECT DISTINCT p.id, p.first_name, p.last_name, p.date_of_birth, p.created_at FROM insurance_cards c JOIN patients p ON p.id = c.patient_id
       WHERE replace(c.member_id, ' ', '') = replace(?, ' ', '') COLLATE NOCASE`,
    ),
  );
const recordPair = (db: Db) =>
  preparedOnce(db, 'duplicates:record', () =>
    db.$client.prepare<[string, string, string, string]>(
      "INSERT INTO possible_duplicates (patient_id, other_patient_id, reason, state, created_at) VALUES (?, ?, ?, 'open', ?) ON CONFLICT DO NOTHING",
    ),
  );

/**
 * Patients that may be the person about to be registered (issue 17, "one patient, one
 * record"): the same names and birth date, forgiving of case, accents, punctuation and
 * order ("Peña Maria" = "maria pena"), or a card with the same member id. Oldest first:
 * the first registration is the one to keep.
 */
export function findDuplicatePatients(db: Db, input: FindDuplicatesInput & { exclude?: string }): DuplicateCandidate[] {
  const found = new Map<string, DuplicateCandidate>();
  const add = (row: PatientRow, reason: DuplicateCandidate['reasons'][number]) => {
    if (row.id === input.exclude) return;
    const existing = found.get(row.id);
    if (existing) {
      if (!existing.reasons.includes(reason)) existing.reasons.push(reason);
      return;
    }
    found.set(row.id, { patient_id: row.id, first_name: row.first_name, last_name: row.last_name, date_of_birth: row.date_of_birth, reasons: [reason], created_at: row.created_at });
  };
  const wanted = looseKey(input.first_name, input.last_name, input.date_of_birth);
  for (const row of bornOn(db).all(input.date_of_birth)) if (looseKey(row.first_name, row.last_name, row.date_of_birth) === wanted) add(row, 'name_and_date_of_birth');
  const memberId = input.member_id?.trim();
  if (memberId) {
    for (const row of byMemberId(db).all(memberId)) add(row, 'member_id');
  }
  return [...found.values()].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
}

/** Possible duplicates recorded per patient received: the oldest registrations. */
export const DUPLICATES_RECORDED = 5;

/**
 * A patient that arrived from another desk: any local patient that may be the same person
 * is recorded as a possible duplicate for a person to link. Nothing is merged.
 */
export function notePossibleDuplicates(db: Db, patientId: string, at: string): number {
  const patient = patientById(db).get(patientId);
  if (!patient) return 0;
  // The first few registrations are enough for a person to link: a name and birth date
  // shared by dozens (twins' records, a test patient) would otherwise grow pairs by the square.
  const candidates = findDuplicatePatients(db, { first_name: patient.first_name, last_name: patient.last_name, date_of_birth: patient.date_of_birth, exclude: patient.id }).slice(
    0,
    DUPLICATES_RECORDED,
  );
  for (const candidate of candidates) recordPair(db).run(candidate.patient_id, patient.id, candidate.reasons[0], at);
  return candidates.length;
}

/** Every recorded pair, open ones first, with both patients as the desk shows them. */
export function listPossibleDuplicates(db: Db): PossibleDuplicate[] {
  const rows = db.select().from(possible_duplicates).all();
  const people = new Map(
    db
      .select({ patient_id: patients.id, first_name: patients.first_name, last_name: patients.last_name, date_of_birth: patients.date_of_birth, created_at: patients.created_at })
      .from(patients)
      .where(inArray(patients.id, [...new Set(rows.flatMap((r) => [r.patient_id, r.other_patient_id]))]))
      .all()
      .map((p) => [p.patient_id, p]),
  );
  const order = { open: 0, linked: 1, dismissed: 2 } as const;
  return rows
    .map((row) => ({ patient: people.get(row.patient_id)!, other: people.get(row.other_patient_id)!, reason: row.reason, state: row.state }))
    .sort((a, b) => order[a.state] - order[b.state]);
}

export function resolvePossibleDuplicate(db: Db, input: { patient_id: string; other_patient_id: string; state: 'linked' | 'dismissed' }): PossibleDuplicate {
  const where = and(eq(possible_duplicates.patient_id, input.patient_id), eq(possible_duplicates.other_patient_id, input.other_patient_id));
  const changed = db.update(possible_duplicates).set({ state: input.state }).where(where).run().changes;
  if (changed === 0) throw new ServiceError('resource_not_found', 'These two patients are not recorded as possible duplicates.');
  return listPossibleDuplicates(db).find((d) => d.patient.patient_id === input.patient_id && d.other.patient_id === input.other_patient_id)!;
}
