import type { Db } from '../db/open-database';
import type { OutboxEntry } from './outbox-queue';
import { createReferences } from '../../shared/contract';
import { ServiceError } from '../../shared/service-error';
import { SYNC_MESSAGES } from './sync-messages';
import { remoteIdAt } from './remote-ids';

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
 * The request as `upstream` must see it: the fields the contract's `CREATE_REFERENCES`
 * marks local rewritten to the ids that service gave them. The others (providers, clearinghouse
 * entities) come from the upstream's own lists and are already its ids.
 */
export function upstreamPayload(db: Db, upstream: string, entry: OutboxEntry): Record<string, unknown> {
  const payload: Record<string, unknown> = { ...entry.payload };
  const toRemote = (field: string, localId: string): string => {
    const remoteId = remoteIdAt(db, upstream, localId);
    // The engine sends what a service lacks before what names it (send-again.ts), so this
    // means the referenced record is gone from this desk: sending would only earn a 422.
    if (!remoteId) throw new ServiceError('dependency_not_synced', SYNC_MESSAGES.dependencyNotSynced(field), undefined, { status: 422 });
    return remoteId;
  };
  for (const [field, reference] of createReferences(entry.collection)) {
    if (!reference.local) continue;
    const value = payload[field];
    if (typeof value === 'string') payload[field] = toRemote(field, value);
    else if (reference.many && Array.isArray(value)) payload[field] = value.map((id: unknown) => (typeof id === 'string' ? toRemote(field, id) : id));
  }
  if (entry.collection === 'insurance_cards') payload.reference_id = cardReferenceId(entry).value;
  return payload;
}
