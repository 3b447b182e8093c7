import type { Db } from '../db/open-database';
import { looseKey, personKey } from './schedule-values';

export type PatientMatchResult =
  | { kind: 'matched'; patient_id: string }
  | { kind: 'ambiguous'; candidate_patient_ids: string[] }
  | { kind: 'none' };

export interface PatientIndex {
  match(person: { first_name: string; last_name: string; date_of_birth: string }): PatientMatchResult;
  /** A patient the import just created, so later rows of the same file find them. */
  add(patient: { id: string; first_name: string; last_name: string; date_of_birth: string }): void;
}

/**
 * The desk's patients by name and date of birth, for one import (read once: a schedule of
 * thousands of rows must not query per row). One patient with the same names and birth
 * date is a match. Two, or names that only agree once split differently or swapped
 * ("Smith John"), are put to a person: a wrong match would check someone else's coverage.
 */
export function loadPatientIndex(db: Db, datesOfBirth: string[]): PatientIndex {
  const exact = new Map<string, string[]>();
  const loose = new Map<string, string[]>();
  const push = (map: Map<string, string[]>, key: string, id: string) => {
    const list = map.get(key);
    if (list) list.push(id);
    else map.set(key, [id]);
  };
  const add = (p: { id: string; first_name: string; last_name: string; date_of_birth: string }) => {
    push(exact, personKey(p.first_name, p.last_name, p.date_of_birth), p.id);
    push(loose, looseKey(p.first_name, p.last_name, p.date_of_birth), p.id);
  };
  const rows = db.$client
    .prepare<[string], { id: string; first_name: string; last_name: string; date_of_birth: string }>(
      'SELECT id, first_name, last_name, date_of_birth FROM patients WHERE date_of_birth IN (SELECT value FROM json_each(?)) ORDER BY id',
    )
    .all(JSON.stringify([...new Set(datesOfBirth)]));
  for (const row of rows) add(row);
  return {
    add,
    match(person) {
      const ids = exact.get(personKey(person.first_name, person.last_name, person.date_of_birth)) ?? [];
      if (ids.length === 1) return { kind: 'matched', patient_id: ids[0] };
      if (ids.length > 1) return { kind: 'ambiguous', candidate_patient_ids: ids };
      const near = loose.get(looseKey(person.first_name, person.last_name, person.date_of_birth)) ?? [];
      return near.length > 0 ? { kind: 'ambiguous', candidate_patient_ids: near } : { kind: 'none' };
    },
  };
}
