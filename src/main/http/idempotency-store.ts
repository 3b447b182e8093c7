import { and, eq, lt, sql } from 'drizzle-orm';
import { groupCommitFor } from '../db/group-commit';
import type { Db } from '../db/open-database';
import { idempotency_keys } from '../db/schema';
import { preparedOnce } from '../records/statements';
import type { Clock } from '../support/clock';

/** What a POST with an Idempotency-Key may do (docs/decisions.md, contract decisions). */
export type IdempotencyBegin =
  | { kind: 'new' }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'conflict' }
  | { kind: 'in_progress' };

/**
 * A claim lives in memory for as long as its request runs: only this process answers for
 * its database, and a claim that dies with its process created nothing (the answer is
 * stored in the create's own transaction), so it need not survive one. What is written is
 * the answer alone, in the create's transaction: a keyed create costs one durable commit,
 * shared with its group (`group-commit.ts`), not a second one for the claim.
 */
export interface IdempotencyStore {
  /** Claims `key` in `scope` for a request with this body hash, or says why not. */
  begin(scope: string, key: string, requestHash: string): Promise<IdempotencyBegin>;
  /** Stores the first (successful) response for replay, inside the caller's transaction. */
  complete(scope: string, key: string, status: number, body: string): void;
  /** The same as `complete`, committed on its own (for answers no create transaction carries). */
  store(scope: string, key: string, status: number, body: string): Promise<void>;
  /** Gives the claim back; a stored answer stays. */
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
  const claims = new Map<string, { requestHash: string; at: number }>();
  const claimId = (scope: string, key: string) => `${scope}\n${key}`;
  let lastPurge = 0;

  function purgeExpired(now: number): void {
    // At most once a minute: the purge is housekeeping, not part of any request's answer.
    if (now - lastPurge < 60_000) return;
    lastPurge = now;
    db.delete(t).where(lt(t.created_at, new Date(now - ttlMs).toISOString())).run();
  }

  const commits = groupCommitFor(db);
  const find = preparedOnce(db, 'idempotency:find', () =>
    db.select().from(t).where(and(eq(t.scope, sql.placeholder('scope')), eq(t.key, sql.placeholder('key')))).prepare(),
  );
  const upsert = preparedOnce(db, 'idempotency:upsert', () =>
    db
      .insert(t)
      .values({
        scope: sql.placeholder('scope'),
        key: sql.placeholder('key'),
        request_hash: sql.placeholder('request_hash'),
        status: sql.placeholder('status'),
        response_body: sql.placeholder('response_body'),
        created_at: sql.placeholder('created_at'),
        completed_at: sql.placeholder('completed_at'),
      } as never)
      .onConflictDoUpdate({
        target: [t.scope, t.key],
        set: {
          request_hash: sql`excluded.request_hash`,
          status: sql`excluded.status`,
          response_body: sql`excluded.response_body`,
          created_at: sql`excluded.created_at`,
          completed_at: sql`excluded.completed_at`,
        },
      })
      .prepare(),
  );

  function complete(scope: string, key: string, status: number, body: string): void {
    const claim = claims.get(claimId(scope, key));
    if (!claim) throw new Error('An idempotency answer was stored without a claim on its key.');
    const now = clock.now().getTime();
    purgeExpired(now);
    upsert.run({
      scope,
      key,
      request_hash: claim.requestHash,
      status,
      response_body: body,
      // The window runs from the first request, as it did when the claim was written.
      created_at: new Date(claim.at).toISOString(),
      completed_at: new Date(now).toISOString(),
    });
  }

  return {
    async begin(scope, key, requestHash) {
      const now = clock.now().getTime();
      const row = find.get({ scope, key });
      const expired = row && Date.parse(row.created_at) < now - ttlMs;
      // A row with no answer is a claim written by an earlier version; it ages out the same way.
      const abandoned = row && row.status === null && Date.parse(row.created_at) < now - staleMs;
      if (row && !expired && !abandoned) {
        if (row.request_hash !== requestHash) return { kind: 'conflict' };
        if (row.status === null || row.response_body === null) return { kind: 'in_progress' };
        return { kind: 'replay', status: row.status, body: row.response_body };
      }
      const id = claimId(scope, key);
      const claim = claims.get(id);
      // A claim this old belongs to a request that never finished (it hangs): taken over.
      if (claim && claim.at >= now - staleMs) return { kind: claim.requestHash === requestHash ? 'in_progress' : 'conflict' };
      claims.set(id, { requestHash, at: now });
      return { kind: 'new' };
    },
    complete,
    async store(scope, key, status, body) {
      await commits.run(() => complete(scope, key, status, body));
      claims.delete(claimId(scope, key));
    },
    async release(scope, key) {
      claims.delete(claimId(scope, key));
    },
  };
}
