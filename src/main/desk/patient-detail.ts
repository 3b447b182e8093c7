import { desc, eq, inArray } from 'drizzle-orm';
import { checks, discoveries, insurance_cards } from '../db/schema';
import { syncInfoFor } from '../outbox/outbox-store';
import { getRow, toResource, type RecordStoreDeps } from '../records/record-store';
import type { RowOf } from '../records/tables';
import type { DeskPatientDetail } from '../../shared/bridge/desk-contract';
import type { Collection, ResourceOf } from '../../shared/contract';

/** Resources as the bridge serves them, each with how far it got upstream. */
function present<K extends Collection>(deps: RecordStoreDeps, collection: K, rows: (RowOf<K> & { id: string; remote_id: string | null })[]): ResourceOf<K>[] {
  const sync = syncInfoFor(deps.db, rows.map((row) => ({ id: row.id, remote_id: row.remote_id })));
  return rows.map((row) => ({ ...toResource(deps, collection, row), sync: sync.get(row.id) }) as ResourceOf<K>);
}

/** One patient with every card, check and discovery, newest first: what Eligibility and Discovery show. */
export function patientDetail(deps: RecordStoreDeps, input: { id: string }): DeskPatientDetail {
  const { db } = deps;
  const patient = getRow(db, 'patients', input.id);
  const cardRows = db.select().from(insurance_cards).where(eq(insurance_cards.patient_id, patient.id)).orderBy(desc(insurance_cards.created_at), desc(insurance_cards.id)).all();
  const cardIds = cardRows.map((card) => card.id);
  const checkRows = cardIds.length
    ? db.select().from(checks).where(inArray(checks.insurance_card_id, cardIds)).orderBy(desc(checks.created_at), desc(checks.id)).all()
    : [];
  const discoveryRows = cardIds.length
    ? db.select().from(discoveries).where(inArray(discoveries.insurance_card_id, cardIds)).orderBy(desc(discoveries.created_at), desc(discoveries.id)).all()
    : [];
  return {
    patient: present(deps, 'patients', [patient])[0],
    cards: present(deps, 'insurance_cards', cardRows),
    checks: present(deps, 'electronic_eligibility_checks', checkRows),
    discoveries: present(deps, 'electronic_eligibility_discoveries', discoveryRows),
  };
}
