import type { Db } from '../db/open-database';
import { preparedOnce } from '../records/statements';
import { normalizeNameText, parseDeskQuery } from '../../shared/bridge/desk-search';
import type { DeskPatientRow } from '../../shared/bridge/desk-contract';
import { deskPatientRows } from './patient-rows';

type IdRow = { patient_id: string };

/**
 * Every patient, not only today's, by date of birth, member id (any of their cards) or
 * name words: the rules of `matchesDeskQuery`, in SQL. `instr` rather than LIKE, so a
 * typed % or _ is just a character.
 */
export function findPatients(db: Db, input: { query: string; limit: number }): DeskPatientRow[] {
  const sqlite = db.$client;
  const s = preparedOnce(db, 'desk:find-patients', () => ({
    byDob: sqlite.prepare<[{ dob: string; limit: number }], IdRow>(
      `SELECT id AS patient_id FROM patients WHERE date_of_birth = @dob ORDER BY id DESC LIMIT @limit`,
    ),
    byMemberId: sqlite.prepare<[{ member_id: string; limit: number }], IdRow>(
      `SELECT patient_id FROM insurance_cards
       WHERE instr(upper(replace(replace(member_id, ' ', ''), '-', '')), @member_id) = 1
       GROUP BY patient_id ORDER BY max(id) DESC LIMIT @limit`,
    ),
    byName: sqlite.prepare<[{ tokens: string; limit: number }], IdRow>(
      `SELECT id AS patient_id FROM patients p
       WHERE NOT EXISTS (
         SELECT 1 FROM json_each(@tokens) t
         WHERE instr(' ' || replace(replace(lower(p.first_name || ' ' || p.last_name), '''', ''), '-', ' '), ' ' || t.value) = 0
       ) ORDER BY id DESC LIMIT @limit`,
    ),
  }));
  const query = parseDeskQuery(input.query);
  const { limit } = input;
  let ids: IdRow[];
  switch (query.kind) {
    case 'empty':
      return [];
    case 'date_of_birth':
      ids = s.byDob.all({ dob: query.date_of_birth, limit });
      break;
    case 'member_id':
      ids = s.byMemberId.all({ member_id: query.member_id, limit });
      break;
    case 'name':
      // Tokens go in normalised exactly as the haystack is.
      ids = s.byName.all({ tokens: JSON.stringify(query.tokens.map(normalizeNameText)), limit });
      break;
  }
  return deskPatientRows(db, ids.map((row) => row.patient_id));
}
