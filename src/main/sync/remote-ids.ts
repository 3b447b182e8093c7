import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/open-database';
import { remote_ids } from '../db/schema';
import { preparedOnce } from '../records/statements';
import type { UpstreamTarget } from './sync-policy';

/**
 * An upstream's id for a record means something only to the service that issued it (issue
 * 26): each is kept under the service's key, so a switch of service (sandbox → real, one
 * real service → another, and back) knows what the service it talks to now already holds.
 */

/** The key a service's ids and feed cursor are kept under: its address; the embedded sandbox's port changes per run, its data does not. */
export function upstreamKey(target: Pick<UpstreamTarget, 'mode' | 'url'>): string {
  return target.mode === 'sandbox' ? 'sandbox' : (target.url ?? '').replace(/\/+$/, '');
}

/** `remoteId` is what `upstream` calls the local record (or photo) `recordId`. */
export function noteRemoteId(db: Db, upstream: string, recordId: string, remoteId: string): void {
  preparedOnce(db, 'remote-ids:note', () =>
    db
      .insert(remote_ids)
      .values({ upstream: sql.placeholder('upstream'), record_id: sql.placeholder('recordId'), remote_id: sql.placeholder('remoteId') })
      .onConflictDoUpdate({ target: [remote_ids.upstream, remote_ids.record_id], set: { remote_id: sql`excluded.remote_id` } })
      .prepare(),
  ).run({ upstream, recordId, remoteId });
}

/** What `upstream` calls a local record (or photo), or null: it has not received it. */
export function remoteIdAt(db: Db, upstream: string, recordId: string): string | null {
  return (
    preparedOnce(db, 'remote-ids:at', () =>
      db
        .select({ remote_id: remote_ids.remote_id })
        .from(remote_ids)
        .where(and(eq(remote_ids.upstream, sql.placeholder('upstream')), eq(remote_ids.record_id, sql.placeholder('recordId'))))
        .prepare(),
    ).get({ upstream, recordId })?.remote_id ?? null
  );
}

/** The local record `upstream` calls `remoteId`, if this desk knows it under that service. */
export function localIdAt(db: Db, upstream: string, remoteId: string): string | null {
  return (
    preparedOnce(db, 'remote-ids:local', () =>
      db
        .select({ record_id: remote_ids.record_id })
        .from(remote_ids)
        .where(and(eq(remote_ids.upstream, sql.placeholder('upstream')), eq(remote_ids.remote_id, sql.placeholder('remoteId'))))
        .prepare(),
    ).get({ upstream, remoteId })?.record_id ?? null
  );
}

/** Whether some service (any) holds the record: an entry for it now is a sending again. */
export function heldByAService(db: Db, recordId: string): boolean {
  return (
    preparedOnce(db, 'remote-ids:any', () =>
      db.select({ one: sql`1` }).from(remote_ids).where(eq(remote_ids.record_id, sql.placeholder('recordId'))).limit(1).prepare(),
    ).get({ recordId }) !== undefined
  );
}

const TABLES_WITH_REMOTE_ID = ['patients', 'photos', 'insurance_cards', 'extractions', 'electronic_eligibility_discoveries', 'electronic_eligibility_checks'];

/**
 * A database from before ids were kept per service has remote ids and no keys for them:
 * they are taken to be the ids of the service sync talks to first after the upgrade (the
 * only one that can be asked). Runs once: afterwards every id is noted with its service.
 */
export function adoptUnkeyedRemoteIds(db: Db, upstream: string): number {
  if (db.select({ one: sql`1` }).from(remote_ids).limit(1).get()) return 0;
  let adopted = 0;
  for (const table of TABLES_WITH_REMOTE_ID) {
    const id = table === 'photos' ? 'object_key' : 'id';
    adopted += db.$client
      .prepare(`INSERT OR IGNORE INTO remote_ids (upstream, record_id, remote_id) SELECT ?, "${id}", remote_id FROM "${table}" WHERE remote_id IS NOT NULL`)
      .run(upstream).changes;
  }
  return adopted;
}
