import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/open-database';
import { outbox, photos } from '../db/schema';
import { enqueue, type OutboxDeps } from '../outbox/outbox-store';
import { findRow } from '../records/record-store';
import { preparedOnce } from '../records/statements';
import { COLLECTIONS, createReferences, type CreatableCollection, type LocalReferenceTarget } from '../../shared/contract';
import type { OutboxEntry } from './outbox-queue';
import { POLLED_COLLECTIONS } from './remote-results';
import { remoteIdAt } from './remote-ids';

/**
 * Records the service sync talks to now has not received (issue 26): a switch of service
 * leaves every record synced to the previous one unknown to the new one, and an outbox
 * entry pruned after its week is gone. Such a record is sent again, as a new outbox entry
 * with its own Idempotency-Key, built from the record as stored, before anything that names
 * it; its own references first, in dependency order, each once.
 */

interface LocalRef {
  field: string;
  target: LocalReferenceTarget;
  id: string;
}

/** The local records a create request names (a card's patient and photos; the card of a check). */
export function localReferences(collection: string, payload: Record<string, unknown>): LocalRef[] {
  const refs: LocalRef[] = [];
  for (const [field, reference] of createReferences(collection)) {
    if (!reference.local) continue;
    const value = payload[field];
    for (const id of Array.isArray(value) ? value : [value]) if (typeof id === 'string') refs.push({ field, target: reference.target, id });
  }
  return refs;
}

/** An entry for the record that has not reached a service yet (queued, sending, failed…): it goes to the current one. */
function openEntryOf(db: Db, recordId: string): string | null {
  return (
    preparedOnce(db, 'send-again:open-entry', () =>
      db
        .select({ id: outbox.id })
        .from(outbox)
        .where(and(eq(outbox.record_id, sql.placeholder('recordId')), ne(outbox.state, 'synced')))
        .limit(1)
        .prepare(),
    ).get({ recordId })?.id ?? null
  );
}

/** The create request that makes the stored record again: the create schema's fields, as stored. */
function createRequestOf(db: Db, target: LocalReferenceTarget, localId: string): Record<string, unknown> | null {
  if (target === 'photos') {
    const photo = db.select({ key: photos.object_key }).from(photos).where(eq(photos.object_key, localId)).get();
    return photo ? { object_key: photo.key } : null;
  }
  const row = findRow(db, target, localId) as Record<string, unknown> | undefined;
  if (!row) return null;
  const request: Record<string, unknown> = {};
  for (const field of Object.keys(COLLECTIONS[target as CreatableCollection].create.shape)) {
    const value = row[field];
    if (value !== null && value !== undefined) request[field] = value;
  }
  return request;
}

/**
 * The entries `upstream` must receive before something naming the record can go: none if it
 * holds the record, the record's open entry if it has one, else a new entry (and, first, the
 * same for what it names). Null: the record is not on this desk (nothing can send it).
 */
export function entriesBefore(deps: OutboxDeps, upstream: string, target: LocalReferenceTarget, localId: string): string[] | null {
  if (remoteIdAt(deps.db, upstream, localId)) return [];
  const open = openEntryOf(deps.db, localId);
  if (open) return [open];
  const request = createRequestOf(deps.db, target, localId);
  if (!request) return null;
  const refs = localReferences(target, request);
  for (const ref of refs) if (entriesBefore(deps, upstream, ref.target, ref.id) === null) return null;
  // enqueue makes the new entry wait for every entry of the records it names, the ones just made among them.
  return [enqueue(deps, { collection: target, record_id: localId, payload: request, refs: refs.map((r) => r.id) })];
}

export type Readiness = { kind: 'ready' } | { kind: 'waits'; on: string[] } | { kind: 'missing'; field: string };

/**
 * Whether a ready entry may go to `upstream` now: every local record it names is there.
 * Otherwise the entries to wait for are made (or found) and added to its dependencies.
 */
export function readinessFor(deps: OutboxDeps, upstream: string, entry: OutboxEntry): Readiness {
  const waits: string[] = [];
  for (const ref of localReferences(entry.collection, entry.payload)) {
    const before = entriesBefore(deps, upstream, ref.target, ref.id);
    if (before === null) return { kind: 'missing', field: ref.field };
    waits.push(...before);
  }
  if (waits.length === 0) return { kind: 'ready' };
  const depends_on = [...new Set([...entry.depends_on, ...waits])];
  deps.db.update(outbox).set({ depends_on }).where(eq(outbox.id, entry.id)).run();
  return { kind: 'waits', on: waits };
}

const POLLED_TABLE_NAMES: Record<(typeof POLLED_COLLECTIONS)[number], string> = {
  extractions: 'extractions',
  electronic_eligibility_discoveries: 'electronic_eligibility_discoveries',
  electronic_eligibility_checks: 'electronic_eligibility_checks',
};

/**
 * Records still waiting for an answer that `upstream` does not owe: sent to a previous
 * service (which may never be asked again), or a late send to it that landed after the
 * switch. Each is sent to `upstream`, so its answer comes from the service the desk talks
 * to, instead of showing "Checking…" for ever. Returns how many entries it made.
 */
export function sendOwedAnswersAgain(deps: OutboxDeps, upstream: string): number {
  let made = 0;
  for (const collection of POLLED_COLLECTIONS) {
    const orphans = deps.db.$client
      .prepare(
        `SELECT r.id FROM "${POLLED_TABLE_NAMES[collection]}" r
          WHERE r.status = 'pending'
            AND NOT EXISTS (SELECT 1 FROM remote_ids m WHERE m.upstream = ? AND m.record_id = r.id)
            AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.record_id = r.id AND o.state <> 'synced')
            AND (r.remote_id IS NOT NULL OR EXISTS (SELECT 1 FROM outbox o WHERE o.record_id = r.id))`,
      )
      .all(upstream) as { id: string }[];
    for (const { id } of orphans) if (entriesBefore(deps, upstream, collection, id)?.length) made += 1;
  }
  return made;
}

/** In the order a service needs them: what a record names goes before it. */
const RECOVERY_ORDER: [LocalReferenceTarget, string][] = [
  ['patients', 'patients'],
  ['photos', 'photos'],
  ['insurance_cards', 'insurance_cards'],
  ['extractions', 'extractions'],
  ['electronic_eligibility_discoveries', 'electronic_eligibility_discoveries'],
  ['electronic_eligibility_checks', 'electronic_eligibility_checks'],
];

/**
 * Records read back from a damaged database whose outbox entry could not be (db/start-check.ts):
 * never sent anywhere, and with no way upstream. Each gets a new entry built from the record
 * as stored, so nothing made on this desk is kept only here. Returns their ids.
 */
export function queueRecordsWithoutEntry(deps: OutboxDeps): string[] {
  const queued: string[] = [];
  for (const [target, table] of RECOVERY_ORDER) {
    const key = target === 'photos' ? 'object_key' : 'id';
    const stranded = deps.db.$client
      .prepare(
        `SELECT r."${key}" AS id FROM "${table}" r
          WHERE r.remote_id IS NULL
            AND NOT EXISTS (SELECT 1 FROM remote_ids m WHERE m.record_id = r."${key}")
            AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.record_id = r."${key}")`,
      )
      .all() as { id: string }[];
    for (const { id } of stranded) {
      const request = createRequestOf(deps.db, target, id);
      if (!request) continue;
      const refs = localReferences(target, request);
      enqueue(deps, { collection: target, record_id: id, payload: request, refs: refs.map((r) => r.id) });
      queued.push(id);
    }
  }
  return queued;
}
