import { eq } from 'drizzle-orm';
import type { Db } from '../db/open-database';
import { photos } from '../db/schema';
import { findRow } from '../records/record-store';
import type { OutboxEntry } from './outbox-queue';
import { ServiceError } from '../../shared/service-error';

type LocalTarget = 'patients' | 'insurance_cards' | 'photos';

/**
 * The fields of each request that name a record this desk created, and which kind. They
 * are rewritten to the upstream's ids when sent. Provider and clearinghouse entity ids are
 * not here: they come from the upstream's own lists and are already its ids.
 */
const LOCAL_REFERENCES: Record<string, Record<string, LocalTarget>> = {
  insurance_cards: { patient_id: 'patients', front_photo_object_key: 'photos', back_photo_object_key: 'photos' },
  extractions: { insurance_card_id: 'insurance_cards' },
  electronic_eligibility_discoveries: { insurance_card_id: 'insurance_cards' },
  electronic_eligibility_checks: { insurance_card_id: 'insurance_cards' },
};

export function remoteIdOf(db: Db, target: LocalTarget, localId: string): string | null {
  if (target === 'photos') {
    return db.select({ remote_id: photos.remote_id }).from(photos).where(eq(photos.object_key, localId)).get()?.remote_id ?? null;
  }
  return findRow(db, target, localId)?.remote_id ?? null;
}

/**
 * The reference id a card carries upstream: the desk's own where it gave one, else the
 * outbox entry's id, so the worker can find the card upstream after the upstream has
 * forgotten the Idempotency-Key (DESIGN.md §3).
 */
export function cardReferenceId(entry: OutboxEntry): { value: string; ours: boolean } {
  const given = entry.payload.reference_id;
  return typeof given === 'string' ? { value: given, ours: false } : { value: entry.id, ours: true };
}

/** The request as the upstream must see it: local ids replaced by the upstream's. */
export function upstreamPayload(db: Db, entry: OutboxEntry): Record<string, unknown> {
  const payload: Record<string, unknown> = { ...entry.payload };
  for (const [field, target] of Object.entries(LOCAL_REFERENCES[entry.collection] ?? {})) {
    const localId = payload[field];
    if (typeof localId !== 'string') continue;
    const remoteId = remoteIdOf(db, target, localId);
    if (!remoteId) {
      // Dependencies go first, so this means the referenced record never reached the
      // upstream and never will (its entry is gone): sending would only earn a 422.
      throw new ServiceError('dependency_not_synced', `${field} refers to a record that has not reached the upstream.`, undefined, { status: 422 });
    }
    payload[field] = remoteId;
  }
  if (entry.collection === 'insurance_cards') payload.reference_id = cardReferenceId(entry).value;
  return payload;
}
