import { and, eq, lt, sql } from 'drizzle-orm';
import { groupCommitFor } from '../db/group-commit';
import type { Db } from '../db/open-database';
import { idempotency_keys } from '../db/schema';
import type { Clock } from '../support/clock';

/** What a POST with an Idempotency-Key may do (docs/decisions.md, contract decisions). */
export type IdempotencyBegin =
  | { kind: 'new' }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'conflict' }
  | { kind: 'in_progress' };

/**
 * Claims and answers share the database's group commit (`group-commit.ts`) with the creates,
 * so a burst of keyed requests costs a few durable commits, not three per request.
 */
export interface IdempotencyStore {
  /** Claims `key` in `scope` for a request with this body hash, or says why not. */
  begin(scope: string, key: string, requestHash: string): Promise<IdempotencyBegin>;
  /** Stores the first (successful) response for replay, inside the caller's transaction. */
  complete(scope: string, key: string, status: number, body: string): void;
  /** The same as `complete`, committed on its own (for answers no create transaction carries). */
  store(scope: string, key: string, status: number, body: string): Promise<void>;
  /** Gives the key back: nothing was created, so the same request may run again. */
  release(scope: string, key: string): Promise<void>;
}

export interface IdempotencyStoreOptions {
  db: Db;
  clock: Clock;
  /** How long a stored response is replayed (7 days in the sandbox). */
  ttlMs?: number;
  /**
   * A claim older than this with no response belongs to a request that died with its
   * process; it is taken over rather than answered `in_progress` for ever.
   */
  staleMs?: number;
}

export const DEFAULT_IDEMPOTENCY_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Keys and their first responses in the service's own database (`idempotency_keys`). */
export function createIdempotencyStore({ db, clock, ttlMs = DEFAULT_IDEMPOTENCY_TTL_MS, staleMs = 60_000 }: IdempotencyStoreOptions): IdempotencyStore {
  const t = idempotency_keys;
  const where = (scope: string, key: string) => and(eq(t.scope, scope), eq(t.key, key));
  let lastPurge = 0;

  function purgeExpired(now: number): void {
    // At most once a minute: the purge is housekeeping, not part of any request's answer.
    if (now - lastPurge < 60_000) return;
    lastPurge = now;
    db.delete(t).where(lt(t.created_at, new Date(now - ttlMs).toISOString())).run();
  }

  const commits = groupCommitFor(db);

  function complete(scope: string, key: string, status: number, body: string): void {
    db.update(t)
      .set({ status, response_body: body, completed_at: clock.now().toISOString() })
      .where(where(scope, key))
      .run();
  }

  return {
    begin(scope, key, requestHash) {
      const now = clock.now().getTime();
      return commits.run((): IdempotencyBegin => {
        purgeExpired(now);
        const row = db.select().from(t).where(where(scope, key)).get();
        const expired = row && Date.parse(row.created_at) < now - ttlMs;
        const abandoned = row && row.status === null && Date.parse(row.created_at) < now - staleMs;
        if (row && !expired && !abandoned) {
          if (row.request_hash !== requestHash) return { kind: 'conflict' };
          if (row.status === null || row.response_body === null) return { kind: 'in_progress' };
          return { kind: 'replay', status: row.status, body: row.response_body };
        }
        const created_at = new Date(now).toISOString();
        db.insert(t)
          .values({ scope, key, request_hash: requestHash, created_at })
          .onConflictDoUpdate({
            target: [t.scope, t.key],
            set: { request_hash: requestHash, created_at, status: null, response_body: null, completed_at: null },
          })
          .run();
        return { kind: 'new' };
      });
    },
    complete,
    store: (scope, key, status, body) => commits.run(() => complete(scope, key, status, body)),
    release: (scope, key) =>
      commits.run(() => {
        db.delete(t).where(and(where(scope, key), sql`${t.status} IS NULL`)).run();
      }),
  };
}
