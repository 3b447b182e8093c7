import { eq } from 'drizzle-orm';
import { inTransaction, type Db } from '../db/open-database';
import { photos } from '../db/schema';
import { findRow } from '../records/record-store';
import { TABLES } from '../records/tables';
import type { Clock } from '../support/clock';
import type { SyncItem } from '../../shared/bridge/desk-contract';
import { syncPhase } from '../../shared/bridge/sync-phase';
import { isCollection, SyncState, type Collection } from '../../shared/contract';
import { notFound, ServiceError } from '../../shared/service-error';
import { dependentsOf, deleteEntry, getEntry, listEntries, requeueByUser, type OutboxEntry } from './outbox-queue';
import { entryDescription, SYNC_MESSAGES } from './sync-messages';
import { heldByAService } from './remote-ids';

/**
 * What the Sync screen does with the queue: list it, retry an entry, discard one. The
 * worker is told (`kick`) after each change so it reacts at once.
 */
export interface SyncActionDeps {
  db: Db;
  clock: Clock;
  kick(): void;
}

/** The queue as the Sync screen lists it, at most this many (newest first). */
const LIST_LIMIT = 1000;

/** Everything that has not reached the upstream, unless the caller names states. */
const OPEN_STATES = SyncState.options.filter((s) => s !== 'synced');

function patientName(db: Db, patientId: string | undefined): string | null {
  const patient = patientId ? findRow(db, 'patients', patientId) : undefined;
  return patient ? `${patient.first_name} ${patient.last_name}` : null;
}

function cardPatientName(db: Db, cardId: unknown): string | null {
  const card = typeof cardId === 'string' ? findRow(db, 'insurance_cards', cardId) : undefined;
  return patientName(db, card?.patient_id);
}

/** Plain words for an entry, as the desk knows the record (shown to the desk only). */
export function describeEntry(db: Db, entry: OutboxEntry): string {
  const p = entry.payload;
  switch (entry.collection) {
    case 'photos':
      return entryDescription(entry.collection, null);
    case 'patients':
      return entryDescription(entry.collection, patientName(db, entry.record_id));
    case 'insurance_cards':
      return entryDescription(entry.collection, patientName(db, p.patient_id as string | undefined));
    case 'electronic_eligibility_checks':
      return entryDescription(entry.collection, cardPatientName(db, p.insurance_card_id), typeof p.service_type === 'string' ? p.service_type : undefined);
    default:
      return entryDescription(entry.collection, cardPatientName(db, p.insurance_card_id));
  }
}

/** Why the entry is where it is, and what happens next, in one line. */
function reasonFor(db: Db, entry: OutboxEntry): string {
  switch (entry.state) {
    case 'queued':
      if (entry.last_error) return SYNC_MESSAGES.reasonRetrying(entry.last_error.message);
      return heldByAService(db, entry.record_id) ? SYNC_MESSAGES.reasonSentAgain : SYNC_MESSAGES.reasonQueued;
    case 'sending':
      return SYNC_MESSAGES.reasonSending;
    case 'failed':
      return SYNC_MESSAGES.reasonRefused(entry.last_error?.message ?? '');
    case 'needs_review':
      return entry.last_error?.message ?? SYNC_MESSAGES.idempotencyWindowPassed;
    case 'blocked': {
      const [root] = stoppedAncestors(db, entry);
      return root ? SYNC_MESSAGES.reasonWaitsFor(describeEntry(db, root)) : SYNC_MESSAGES.reasonWaitsForOther;
    }
    case 'synced':
      return SYNC_MESSAGES.reasonSent;
  }
}

export function toSyncItem(db: Db, entry: OutboxEntry): SyncItem {
  return {
    phase: syncPhase(entry.state),
    reason: reasonFor(db, entry),
    id: entry.id,
    collection: entry.collection,
    record_id: entry.record_id,
    state: entry.state,
    attempts: entry.attempts,
    last_error: entry.last_error ?? null,
    description: describeEntry(db, entry),
    created_at: entry.created_at,
    updated_at: entry.updated_at,
  };
}

function entryOrThrow(db: Db, id: string): OutboxEntry {
  const entry = getEntry(db, id);
  if (!entry) throw notFound('sync entry', id);
  return entry;
}

export function listSyncItems(db: Db, states?: SyncState[]): SyncItem[] {
  return listEntries(db, states ?? OPEN_STATES, LIST_LIMIT).map((entry) => toSyncItem(db, entry));
}

/**
 * Try again now. A failed entry (after the user fixed what the upstream refused) or one
 * needing review (the user checked upstream and wants it sent) goes back in the queue
 * with a fresh backoff, and what it blocked follows. A blocked entry retries what blocks
 * it; a queued one is simply made due now.
 */
export function retryEntry(deps: SyncActionDeps, id: string): SyncItem {
  const { db } = deps;
  const now = deps.clock.now().toISOString();
  const entry = entryOrThrow(db, id);
  inTransaction(db, () => {
    switch (entry.state) {
      case 'failed':
      case 'needs_review':
        // Needs review means the key may be forgotten: sending again is the person's call,
        // and starts a new window for the rule that stopped it.
        requeueByUser(db, id, now, entry.state === 'needs_review');
        break;
      case 'blocked':
        for (const root of stoppedAncestors(db, entry)) requeueByUser(db, root.id, now, root.state === 'needs_review');
        break;
      case 'queued':
        requeueByUser(db, id, now, false);
        break;
      default:
        throw new ServiceError('sync_entry_not_retryable', SYNC_MESSAGES.notRetryable(entry.state), undefined, { status: 409 });
    }
  });
  deps.kick();
  return toSyncItem(db, getEntry(db, id)!);
}

/** The failed or needs-review entries at the root of a blocked entry's chain. */
function stoppedAncestors(db: Db, entry: OutboxEntry): OutboxEntry[] {
  const roots = new Map<string, OutboxEntry>();
  const seen = new Set<string>();
  const walk = (e: OutboxEntry) => {
    for (const depId of e.depends_on) {
      if (seen.has(depId)) continue;
      seen.add(depId);
      const dep = getEntry(db, depId);
      if (!dep) continue;
      if (dep.state === 'failed' || dep.state === 'needs_review') roots.set(dep.id, dep);
      else if (dep.state === 'blocked') walk(dep);
    }
  };
  walk(entry);
  return [...roots.values()];
}

const DISCARDABLE: SyncState[] = ['failed', 'blocked', 'needs_review'];

/**
 * Gives up on an entry, explicitly (the Sync screen asks first): the entry and the local
 * record it would have created are deleted, as if never entered. An entry sending a record
 * again to a new service (another service holds it) goes alone: the record stays. Refused while other
 * entries depend on it (discard those first: nothing disappears that the desk did not
 * pick), and for entries that are queued, sending or already upstream.
 */
export function discardEntry(deps: SyncActionDeps, id: string): { id: string; discarded: true } {
  const { db } = deps;
  const entry = entryOrThrow(db, id);
  if (!DISCARDABLE.includes(entry.state)) {
    throw new ServiceError('sync_entry_not_discardable', SYNC_MESSAGES.notDiscardable(entry.state), undefined, {
      status: 409,
    });
  }
  const dependents = dependentsOf(db, id);
  if (dependents.length > 0) {
    throw new ServiceError('sync_entry_has_dependents', SYNC_MESSAGES.hasDependents(dependents.map((d) => d.collection)), undefined, {
      status: 409,
    });
  }
  try {
    inTransaction(db, () => {
      deleteEntry(db, id);
      if (!heldByAService(db, entry.record_id)) deleteLocalRecord(db, entry.collection, entry.record_id);
    });
  } catch (error) {
    if (error instanceof Error && /FOREIGN KEY/i.test(error.message)) {
      throw new ServiceError('sync_record_in_use', SYNC_MESSAGES.recordInUse, undefined, {
        status: 409,
      });
    }
    throw error;
  }
  deps.kick();
  return { id, discarded: true };
}

function deleteLocalRecord(db: Db, collection: string, recordId: string): void {
  if (collection === 'photos') {
    // The file stays: photos are content-addressed, and the same bytes may be uploaded again.
    db.delete(photos).where(eq(photos.object_key, recordId)).run();
    return;
  }
  if (!isCollection(collection)) return;
  const table = TABLES[collection as Collection];
  db.delete(table).where(eq(table.id, recordId)).run();
}
