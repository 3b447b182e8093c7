import type { Db } from '../db/open-database';
import { preparedOnce } from '../records/statements';
import type { DeskPatientRow } from '../../shared/bridge/desk-contract';
import { deskPatientRows } from './patient-rows';

/**
 * Today's patients: everyone registered, carded, checked or discovered since the start of
 * the desk's day (which only the renderer knows: it is local time), newest activity first.
 */
export function todayRows(db: Db, input: { since: string }): DeskPatientRow[] {
  const statement = preparedOnce(db, 'desk:today', () =>
    db.$client.prepare<[{ since: string }], { patient_id: string }>(
      `SELECT id AS patient_id FROM patients WHERE created_at >= @since
       UNION SELECT patient_id FROM insurance_cards WHERE created_at >= @since
       UNION SELECT c.patient_id FROM electronic_eligibility_checks k JOIN insurance_cards c ON c.id = k.insurance_card_id
         WHERE k.created_at >= @since OR k.finished_at >= @since
       UNION SELECT c.patient_id FROM electronic_eligibility_discoveries d JOIN insurance_cards c ON c.id = d.insurance_card_id
         WHERE d.created_at >= @since OR d.finished_at >= @since`,
    ),
  );
  return deskPatientRows(db, statement.all({ since: input.since }).map((row) => row.patient_id));
}
