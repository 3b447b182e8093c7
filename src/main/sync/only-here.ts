import type { Db } from '../db/open-database';
import type { OnlyHere } from '../../shared/bridge/desk-contract';
import { SyncState } from '../../shared/contract';

/**
 * Every state but synced, named: `state != 'synced'` cannot use the outbox's state index, so
 * it read every entry (payloads too) of a desk's whole history: ~35 ms a call at 100,000
 * entries, asked at the first screen. Named states read only the entries still waiting.
 */
const NOT_SYNCED = SyncState.options.filter((state) => state !== 'synced').map((state) => `'${state}'`).join(', ');

/**
 * What exists only on this desk (issue 29, item 6): records whose outbox entry the service
 * has not yet taken (any state but synced), and since when the oldest of them waits. Read
 * from the outbox's own rows, so it is what a lost computer would take with it.
 */
export function onlyHere(db: Db): OnlyHere {
  const row = db.$client
    .prepare(`SELECT count(DISTINCT record_id) AS records, min(created_at) AS since FROM outbox WHERE state IN (${NOT_SYNCED})`)
    .get() as { records: number; since: string | null };
  return { records: row.records, since: row.since };
}
