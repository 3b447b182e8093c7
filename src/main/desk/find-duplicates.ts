import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/open-database';
import { patients, possible_duplicates } from '../db/schema';
import { looseKey } from '../appointments/schedule-values';
import type { DuplicateCandidate, FindDuplicatesInput, PossibleDuplicate } from '../../shared/bridge/practice-view';
import { ServiceError } from '../../shared/service-error';

type PatientRow = { id: string; first_name: string; last_name: string; date_of_birth: string; created_at: string };

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
  const sameBirth = db
    .select({ id: patients.id, first_name: patients.first_name, last_name: patients.last_name, date_of_birth: patients.date_of_birth, created_at: patients.created_at })
    .from(patients)
    .where(eq(patients.date_of_birth, input.date_of_birth))
    .all();
  for (const row of sameBirth) if (looseKey(row.first_name, row.last_name, row.date_of_birth) === wanted) add(row, 'name_and_date_of_birth');
  const memberId = input.member_id?.trim();
  if (memberId) {
    const byMember = db.$client
      .prepare<[string], PatientRow>(
        `SELECT DISTINCT p.id, p.first_name, p.last_name, p.date_of_birth, p.created_at FROM insurance_cards c JOIN patients p ON p.id = c.patient_id
         WHERE replace(c.member_id, ' ', '') = replace(?, ' ', '') COLLATE NOCASE`,
      )
      .all(memberId);
    for (const row of byMember) add(row, 'member_id');
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
  const patient = db.select().from(patients).where(eq(patients.id, patientId)).get();
  if (!patient) return 0;
  // The first few registrations are enough for a person to link: a name and birth date
  // shared by dozens (twins' records, a test patient) would otherwise grow pairs by the square.
  const candidates = findDuplicatePatients(db, { ...patient, exclude: patient.id }).slice(0, DUPLICATES_RECORDED);
  for (const candidate of candidates) {
    db.insert(possible_duplicates)
      .values({ patient_id: candidate.patient_id, other_patient_id: patient.id, reason: candidate.reasons[0], state: 'open', created_at: at })
      .onConflictDoNothing()
      .run();
  }
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
