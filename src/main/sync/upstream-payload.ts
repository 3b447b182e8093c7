import { eq } from 'drizzle-orm';
import type { Db } from '../db/open-database';
import { photos } from '../db/schema';
import { findRow } from '../records/record-store';
import type { OutboxEntry } from './outbox-queue';
import { createReferences, type LocalReferenceTarget } from '../../shared/contract';
import { ServiceError } from '../../shared/service-error';
import { SYNC_MESSAGES } from './sync-messages';

export function remoteIdOf(db: Db, target: LocalReferenceTarget, localId: string): string | null {
  if (target === 'photos') {
    return db.select({ remote_id: photos.remote_id }).from(photos).where(eq(photos.object_key, localId)).get()?.remote_id ?? null;
  }
  return findRow(db, target, localId)?.remote_id ?? null;
}

/**
 * The reference id a card carries upstream: the desk's own where it gave one, else the
 * outbox entry's id, so the worker can find the card upstream after the upstream has
 * forgotten the Idempotency-Key (docs/decisions.md, Sync).
 */
export function cardReferenceId(entry: OutboxEntry): { value: string; ours: boolean } {
  const given = entry.payload.reference_id;
  return typeof given === 'string' ? { value: given, ours: false } : { value: entry.id, ours: true };
}

/**
 * The request as the upstream must see it: the fields the contract's `CREATE_REFERENCES`
 * marks local rewritten to the upstream's ids. The others (providers, clearinghouse
 * entities) come from the upstream's own lists and are already its ids.
 */
export function upstreamPayload(db: Db, entry: OutboxEntry): Record<string, unknown> {
  const payload: Record<string, unknown> = { ...entry.payload };
  const toRemote = (field: string, target: LocalReferenceTarget, localId: string): string => {
    const remoteId = remoteIdOf(db, target, localId);
    // Dependencies go first, so this means the referenced record never reached the
    // upstream and never will (its entry is gone): sending would only earn a 422.
    if (!remoteId) throw new ServiceError('dependency_not_synced', SYNC_MESSAGES.dependencyNotSynced(field), undefined, { status: 422 });
    return remoteId;
  };
  for (const [field, reference] of createReferences(entry.collection)) {
    if (!reference.local) continue;
    const value = payload[field];
    if (typeof value === 'string') payload[field] = toRemote(field, reference.target, value);
    else if (reference.many && Array.isArray(value)) payload[field] = value.map((id: unknown) => (typeof id === 'string' ? toRemote(field, reference.target, id) : id));
  }
  if (entry.collection === 'insurance_cards') payload.reference_id = cardReferenceId(entry).value;
  return payload;
}
