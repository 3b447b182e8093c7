import type { Db } from '../db/open-database';
import { preparedOnce } from './statements';

/**
 * `src/shared/current-card.ts`'s rule (the newest card is the patient's card) as SQL, for
 * the host's reads that pick one card per patient: Today's rows, the batch, the worklist.
 */
export const CURRENT_CARD_ORDER = 'created_at DESC, id DESC';

export interface CurrentCardRow {
  id: string;
  /** The card's `insurance_carrier_ids`, as stored (a JSON array). */
  carriers: string;
  /** `schedule:<appointment id>` for a card made from the schedule. */
  reference_id: string | null;
}

/** The patient's current card, or undefined when they have none. */
export function currentCardOf(db: Db, patientId: string): CurrentCardRow | undefined {
  const statement = preparedOnce(db, 'records:current-card', () =>
    db.$client.prepare<[string], CurrentCardRow>(
      `SELECT id, insurance_carrier_ids AS carriers, reference_id FROM insurance_cards WHERE patient_id = ? ORDER BY ${CURRENT_CARD_ORDER} LIMIT 1`,
    ),
  );
  return statement.get(patientId);
}
