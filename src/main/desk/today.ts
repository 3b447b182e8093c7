import type { Db } from '../db/open-database';
import { preparedOnce } from '../records/statements';
import type { DeskPatientRow } from '../../shared/bridge/desk-contract';
import { shapeDeskRows, type ActivePatientRow } from './patient-rows';

/**
 * Today's patients: everyone registered, carded, checked or discovered since the start of
 * the desk's day (which only the renderer knows: it is local time), newest activity first.
 *
 * One statement finds them and their newest activity: a patient is on Today only because one
 * of their activities is at or after `since`, so the newest of those is their newest of all,
 * and patients, cards, checks and discoveries need not be read a second time for it.
 */
export function todayRows(db: Db, input: { since: string }): DeskPatientRow[] {
  const statement = preparedOnce(db, 'desk:today', () =>
    db.$client.prepare<[{ since: string }], ActivePatientRow>(
      `SELECT p.id, p.first_name, p.last_name, p.date_of_birth, p.created_at, a.last_activity_at FROM (
         SELECT patient_id, max(at) AS last_activity_at FROM (
           SELECT id AS patient_id, created_at AS at FROM patients WHERE created_at >= @since
           UNION ALL SELECT patient_id, created_at FROM insurance_cards WHERE created_at >= @since
           UNION ALL SELECT c.patient_id, max(k.created_at, coalesce(k.finished_at, '')) FROM electronic_eligibility_checks k
             JOIN insurance_cards c ON c.id = k.insurance_card_id WHERE k.created_at >= @since OR k.finished_at >= @since
           UNION ALL SELECT c.patient_id, max(d.created_at, coalesce(d.finished_at, '')) FROM electronic_eligibility_discoveries d
             JOIN insurance_cards c ON c.id = d.insurance_card_id WHERE d.created_at >= @since OR d.finished_at >= @since
         ) GROUP BY patient_id
       ) a JOIN patients p ON p.id = a.patient_id`,
    ),
  );
  return shapeDeskRows(db, statement.all({ since: input.since }));
}
