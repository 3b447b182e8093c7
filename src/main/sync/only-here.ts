import type { Db } from '../db/open-database';
import type { OnlyHere } from '../../shared/bridge/desk-contract';
import { WAITING_STATES_SQL } from '../outbox/waiting-states';

/**
 * What exists only on this desk (issue 29, item 6): records whose outbox entry the service
 * has not yet taken (any state but synced), and since when the oldest of them waits. Read
 * from the outbox's own rows, so it is what a lost computer would take with it.
 */
export function onlyHere(db: Db): OnlyHere {
  const row = db.$client
    .prepare(`SELECT count(DISTINCT record_id) AS records, min(created_at) AS since FROM outbox WHERE state IN (${WAITING_STATES_SQL})`)
    .get() as { records: number; since: string | null };
  return { records: row.records, since: row.since };
}
