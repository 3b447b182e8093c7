import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import { inTransaction, type Db } from '../db/open-database';
import { outbox } from '../db/schema';
import { preparedOnce } from '../records/statements';
import { SyncState, type SyncError } from '../../shared/contract';
import { SYNC_MESSAGES } from './sync-messages';

/**
 * The sync worker's view of the outbox: which entries may go now, and every state change
 * an entry makes on its way upstream (docs/decisions.md, Local data and the outbox).
 *
 * Each change is one statement and opens no transaction of its own (only `reconcileBlocked`
 * does, to reach its fixed point atomically; inside a caller's it becomes a savepoint): the
 * caller groups them. The engine writes a round's settled outcomes, the reconcile and the
 * next claims in one transaction, one commit per round; the Sync screen's retry and discard
 * wrap theirs. Crash safety comes from order, not from a commit per change: a claim
 * (`sending`) is committed before its request goes out, and an outcome lost to a crash
 * leaves the entry `sending`, which `requeueInterrupted` sends again with the same
 * Idempotency-Key at the next start.
 */

export type OutboxEntry = typeof outbox.$inferSelect;

/** States that stop an entry's dependents from going. */
const STOPPING: SyncState[] = ['failed', 'blocked', 'needs_review'];
const STOPPING_SQL = sql.raw(STOPPING.map((s) => `'${s}'`).join(', '));

/** Every dependency synced. A dependency entry that no longer exists was synced and pruned. */
const DEPENDENCIES_SYNCED = sql`NOT EXISTS (SELECT 1 FROM json_each(${outbox.depends_on}) d JOIN outbox p ON p.id = d.value WHERE p.state <> 'synced')`;
const DEPENDENCY_STOPPED = sql`EXISTS (SELECT 1 FROM json_each(${outbox.depends_on}) d JOIN outbox p ON p.id = d.value WHERE p.state IN (${STOPPING_SQL}))`;

/**
 * Entries that may be sent now, first due first (then oldest): queued, due, every
 * dependency synced. In the order of the `outbox_state_next` index (its rowid last), so the
 * scan stops at `limit`: ordered by id, every round of a drain sorted the whole queue and
 * tested every entry's dependencies, which made a 10,000-entry drain quadratic.
 */
export function readyEntries(db: Db, now: string, limit: number): OutboxEntry[] {
  const statement = preparedOnce(db, 'sync:ready', () =>
    db
      .select()
      .from(outbox)
      .where(and(eq(outbox.state, 'queued'), lte(outbox.next_attempt_at, sql.placeholder('now')), DEPENDENCIES_SYNCED))
      .orderBy(asc(outbox.next_attempt_at), sql`${outbox}.rowid`)
      .limit(sql.placeholder('limit'))
      .prepare(),
  );
  return statement.all({ now, limit });
}

/** When the next waiting entry (dependencies synced, retry time ahead) becomes due. */
export function nextDueAt(db: Db): string | null {
  const statement = preparedOnce(db, 'sync:next-due', () =>
    db
      .select({ at: sql<string | null>`min(${outbox.next_attempt_at})` })
      .from(outbox)
      .where(and(eq(outbox.state, 'queued'), DEPENDENCIES_SYNCED))
      .prepare(),
  );
  return statement.get()?.at ?? null;
}

export function getEntry(db: Db, id: string): OutboxEntry | undefined {
  return db.select().from(outbox).where(eq(outbox.id, id)).get();
}

/**
 * Claims a queued entry for sending: `sending`, one more attempt, and the first attempt's
 * time kept for the idempotency-window rule. Returns false if it was no longer queued.
 */
export function markSending(db: Db, id: string, now: string): boolean {
  // Prepared once: a draining queue claims every entry through here.
  const statement = preparedOnce(db, 'sync:mark-sending', () =>
    db
      .update(outbox)
      .set({
        state: 'sending',
        attempts: sql`${outbox.attempts} + 1`,
        first_attempt_at: sql`coalesce(${outbox.first_attempt_at}, ${sql.placeholder('now')})`,
        updated_at: sql`${sql.placeholder('now')}`,
      })
      .where(and(eq(outbox.id, sql.placeholder('id')), eq(outbox.state, 'queued')))
      .prepare(),
  );
  return statement.run({ id, now }).changes === 1;
}

/**
 * Undoes a claim whose request never left (the worker stopped, the upstream changed or went
 * away while the entry waited in the worker's reserve): the entry is as `claimed` was read
 * before its claim, queued, its attempt not counted. Only while it is still `sending`.
 */
export function releaseClaim(db: Db, claimed: OutboxEntry): void {
  const statement = preparedOnce(db, 'sync:release-claim', () =>
    db
      .update(outbox)
      .set({
        state: 'queued',
        attempts: sql`${sql.placeholder('attempts')}`,
        first_attempt_at: sql`${sql.placeholder('firstAttemptAt')}`,
        updated_at: sql`${sql.placeholder('updatedAt')}`,
      })
      .where(and(eq(outbox.id, sql.placeholder('id')), eq(outbox.state, 'sending')))
      .prepare(),
  );
  statement.run({ id: claimed.id, attempts: claimed.attempts, firstAttemptAt: claimed.first_attempt_at, updatedAt: claimed.updated_at });
}

export function markSynced(db: Db, id: string, remoteId: string, now: string): void {
  const statement = preparedOnce(db, 'sync:mark-synced', () =>
    db
      .update(outbox)
      .set({ state: 'synced', remote_id: sql`${sql.placeholder('remoteId')}`, last_error: null, next_attempt_at: null, updated_at: sql`${sql.placeholder('now')}` })
      .where(eq(outbox.id, sql.placeholder('id')))
      .prepare(),
  );
  statement.run({ id, remoteId, now });
}

/** Back in the queue after a transient failure, due at `nextAttemptAt`. */
export function markRetry(db: Db, id: string, now: string, nextAttemptAt: string, error: SyncError): void {
  db.update(outbox).set({ state: 'queued', next_attempt_at: nextAttemptAt, last_error: error, updated_at: now }).where(eq(outbox.id, id)).run();
}

/**
 * Back in the queue untouched by the attempt: the credentials were refused, not the entry.
 * The attempt is not counted, so a long pause does not lengthen its backoff.
 */
export function markPaused(db: Db, id: string, now: string, error: SyncError): void {
  db.update(outbox)
    .set({ state: 'queued', attempts: sql`max(${outbox.attempts} - 1, 0)`, next_attempt_at: now, last_error: error, updated_at: now })
    .where(eq(outbox.id, id))
    .run();
}

export function markStopped(db: Db, id: string, state: 'failed' | 'needs_review', now: string, error: SyncError): void {
  db.update(outbox).set({ state, last_error: error, next_attempt_at: null, updated_at: now }).where(eq(outbox.id, id)).run();
}

/** After a crash: entries that were being sent go again, with the same Idempotency-Key. */
export function requeueInterrupted(db: Db, now: string): number {
  return db.update(outbox).set({ state: 'queued', next_attempt_at: now, updated_at: now }).where(eq(outbox.state, 'sending')).run().changes;
}

/** Coming back online: entries that waited only because the network was down go at once. */
export function makeUnreachableDue(db: Db, now: string): number {
  return db
    .update(outbox)
    .set({ next_attempt_at: now })
    .where(and(eq(outbox.state, 'queued'), sql`json_extract(${outbox.last_error}, '$.status') = 0`, sql`${outbox.next_attempt_at} > ${now}`))
    .run().changes;
}

/** Every queued entry due now, e.g. after new credentials. */
export function makeAllDue(db: Db, now: string): number {
  return db.update(outbox).set({ next_attempt_at: now }).where(and(eq(outbox.state, 'queued'), sql`${outbox.next_attempt_at} > ${now}`)).run().changes;
}

/** Whether any entry is failed, blocked or needs review: only then can an entry need blocking or unblocking. */
export function anyStopped(db: Db): boolean {
  return (
    preparedOnce(db, 'sync:any-stopped', () => db.select({ id: outbox.id }).from(outbox).where(inArray(outbox.state, STOPPING)).limit(1).prepare()).get() !==
    undefined
  );
}

/**
 * Keeps `blocked` true to the dependencies: an entry is blocked exactly while something it
 * depends on is failed, blocked or needs review. Runs to a fixed point, so a retry or a
 * discard unblocks whole chains and a failure blocks them. Returns the entries it changed.
 */
export function reconcileBlocked(db: Db, now: string, stopped?: boolean): string[] {
  return inTransaction(db, () => {
    // The usual case, nothing stopped: nothing to block or unblock, and no scan of the
    // whole queue on every create (an index lookup instead). `stopped`: the caller has just
    // asked, with nothing written since.
    if (!(stopped ?? anyStopped(db))) return [];
    const changed: string[] = [];
    for (;;) {
      const unblock = db
        .select({ id: outbox.id })
        .from(outbox)
        .where(and(eq(outbox.state, 'blocked'), sql`NOT ${DEPENDENCY_STOPPED}`))
        .all()
        .map((r) => r.id);
      if (unblock.length) {
        db.update(outbox).set({ state: 'queued', last_error: null, next_attempt_at: now, updated_at: now }).where(inArray(outbox.id, unblock)).run();
      }
      const block = db
        .select({
          id: outbox.id,
          // Qualified by hand: in a select list Drizzle writes a bare column name, which
          // inside this subquery would name p's own depends_on.
          blocker: sql<string>`(SELECT p.collection || ' ' || p.record_id FROM json_each("outbox"."depends_on") d JOIN outbox p ON p.id = d.value WHERE p.state IN (${STOPPING_SQL}) LIMIT 1)`,
        })
        .from(outbox)
        .where(and(eq(outbox.state, 'queued'), DEPENDENCY_STOPPED))
        .all();
      for (const { id, blocker } of block) {
        const error: SyncError = { code: 'blocked_by_dependency', message: SYNC_MESSAGES.blockedBy(blocker) };
        db.update(outbox).set({ state: 'blocked', last_error: error, next_attempt_at: null, updated_at: now }).where(eq(outbox.id, id)).run();
      }
      changed.push(...unblock, ...block.map((b) => b.id));
      if (unblock.length === 0 && block.length === 0) return changed;
    }
  });
}

/**
 * Entries per state, from `outbox_state_counts`, which triggers on the outbox keep in every
 * writer's own transaction (migration 0017): a few rows read, not a GROUP BY over an outbox
 * that grows with the desk (12 µs a create of a busy local API at 160,000 entries). The table
 * is SQL only (WITHOUT ROWID and triggers, which Drizzle's schema cannot say), so read raw.
 */
export function stateCounts(db: Db): Record<SyncState, number> {
  const counts = Object.fromEntries(SyncState.options.map((s) => [s, 0])) as Record<SyncState, number>;
  const rows = preparedOnce(db, 'sync:counts', () => db.$client.prepare('SELECT state, n FROM outbox_state_counts')).all() as { state: string; n: number }[];
  for (const { state, n } of rows) if (state in counts) counts[state as SyncState] = n;
  return counts;
}

/** The newest time an entry reached the upstream, for "last sync" after a restart. */
export function lastSyncedAt(db: Db): string | null {
  // Named: the planner takes outbox_state_next and reads every synced entry, a tenth of a
  // second of the start on a desk of 100,000 records; the partial index answers at once.
  const row = db.$client.prepare("SELECT max(updated_at) AS at FROM outbox INDEXED BY outbox_synced_at WHERE state = 'synced'").get() as { at: string | null } | undefined;
  return row?.at ?? null;
}

export function listEntries(db: Db, states: SyncState[], limit: number): OutboxEntry[] {
  return db.select().from(outbox).where(inArray(outbox.state, states)).orderBy(desc(outbox.id)).limit(limit).all();
}

/** Entries that name `id` among their dependencies. */
export function dependentsOf(db: Db, id: string): OutboxEntry[] {
  return db
    .select()
    .from(outbox)
    .where(sql`EXISTS (SELECT 1 FROM json_each(${outbox.depends_on}) d WHERE d.value = ${id})`)
    .orderBy(asc(outbox.id))
    .all();
}

export function deleteEntry(db: Db, id: string): void {
  db.delete(outbox).where(eq(outbox.id, id)).run();
}

/** The user asked to try again: due now, a fresh backoff and (for needs review) a fresh window. */
export function requeueByUser(db: Db, id: string, now: string, freshWindow: boolean): void {
  db.update(outbox)
    .set({
      state: 'queued',
      attempts: 0,
      next_attempt_at: now,
      last_error: null,
      updated_at: now,
      ...(freshWindow ? { first_attempt_at: null } : {}),
    })
    .where(eq(outbox.id, id))
    .run();
}
