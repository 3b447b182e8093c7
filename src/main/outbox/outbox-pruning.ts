import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import type { Db } from '../db/open-database';
import { outbox } from '../db/schema';
import type { Clock } from '../support/clock';

/**
 * How long a synced entry is kept: the Sync screen's history shows the last week, and past
 * the upstream's idempotency window an entry is no use for a resend either.
 */
export const SYNCED_ENTRY_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * The newest synced entries are kept whatever their age: the Sync screen lists up to this
 * many, and "last synced" is read from the newest.
 */
export const SYNCED_ENTRIES_KEPT = 1000;
/** Small batches, each its own short transaction, so a desk never waits behind a prune. */
export const PRUNE_BATCH_SIZE = 500;

export interface PruneDeps {
  db: Db;
  clock: Clock;
}

export interface PruneOptions {
  maxAgeMs?: number;
  batchSize?: number;
  keepNewest?: number;
  /** Called between batches; the sync component yields to the event loop there. */
  between?: () => Promise<void>;
}

/**
 * Deletes synced entries older than the history keeps (and beyond the newest kept). Safe for what depends on them: a
 * dependency with no entry counts as synced (the claim query joins entries that exist), and
 * the record itself keeps its upstream id in `remote_id`, which is what rewrites a later
 * entry's references. Answers how many entries went.
 */
export async function pruneSyncedEntries(deps: PruneDeps, options: PruneOptions = {}): Promise<number> {
  const batchSize = options.batchSize ?? PRUNE_BATCH_SIZE;
  const cutoff = new Date(deps.clock.now().getTime() - (options.maxAgeMs ?? SYNCED_ENTRY_MAX_AGE_MS)).toISOString();
  // Ids are ULIDs, so "older than the newest N" is "id below the Nth newest".
  const keepNewest = options.keepNewest ?? SYNCED_ENTRIES_KEPT;
  const keepFrom =
    keepNewest > 0
      ? deps.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.state, 'synced')).orderBy(desc(outbox.id)).limit(1).offset(keepNewest - 1).get()?.id
      : undefined;
  if (keepNewest > 0 && keepFrom === undefined) return 0;
  let pruned = 0;
  for (;;) {
    const removed = deps.db.transaction(() => {
      const ids = deps.db
        .select({ id: outbox.id })
        .from(outbox)
        .where(and(eq(outbox.state, 'synced'), lt(outbox.updated_at, cutoff), keepFrom === undefined ? undefined : lt(outbox.id, keepFrom)))
        .limit(batchSize)
        .all()
        .map((row) => row.id);
      if (ids.length > 0) deps.db.delete(outbox).where(inArray(outbox.id, ids)).run();
      return ids.length;
    });
    pruned += removed;
    if (removed < batchSize) return pruned;
    await options.between?.();
  }
}
