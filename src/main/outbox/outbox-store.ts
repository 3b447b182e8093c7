import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/open-database';
import { outbox } from '../db/schema';
import type { Clock } from '../support/clock';
import type { IdGenerator } from '../support/ids';
import { insertRow, preparedOnce } from '../records/statements';
import { ID_PREFIX, type SyncInfo } from '../../shared/contract';

/** What travels upstream: a collection (or `photos`) and the request as the desk made it. */
export type OutboxCollection = string;

export interface EnqueueInput {
  collection: OutboxCollection;
  record_id: string;
  payload: Record<string, unknown>;
  /** Local record ids (or photo keys) the payload refers to; their entries go first. */
  refs: string[];
}

export interface OutboxDeps {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
}

/**
 * Adds the entry that will carry a record upstream. Call it inside the transaction that
 * writes the record (docs/decisions.md, local data and the outbox): a record never exists without its way upstream.
 */
export function enqueue(deps: OutboxDeps, input: EnqueueInput): string {
  const id = deps.ids.next(ID_PREFIX.outbox_entry);
  const now = deps.clock.now().toISOString();
  const entriesOf = entriesForRecord(deps.db);
  const depends_on = input.refs.flatMap((ref) => entriesOf(ref));
  insertRow(deps.db, 'outbox', outbox)({
      id,
      collection: input.collection,
      record_id: input.record_id,
      payload: input.payload,
      depends_on,
      state: 'queued',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
  });
  return id;
}

/** `sync` for each record: its outbox entry's state, or synced where it came from upstream. */
export function syncInfoFor(db: Db, records: { id: string; remote_id: string | null }[]): Map<string, SyncInfo> {
  const entries = records.length
    ? db
        .select()
        .from(outbox)
        .where(
          inArray(
            outbox.record_id,
            records.map((r) => r.id),
          ),
        )
        .all()
    : [];
  const byRecord = new Map(entries.map((e) => [e.record_id, e]));
  return new Map(
    records.map((record) => {
      const entry = byRecord.get(record.id);
      const info: SyncInfo = entry
        ? { state: entry.state, remote_id: record.remote_id ?? entry.remote_id, error: entry.last_error }
        : { state: 'synced', remote_id: record.remote_id, error: null };
      return [record.id, info];
    }),
  );
}

/** The ids of the entries that carry a record (or photo) upstream. */
function entriesForRecord(db: Db): (recordId: string) => string[] {
  const statement = preparedOnce(db, 'outbox:by-record', () =>
    db.select({ id: outbox.id }).from(outbox).where(eq(outbox.record_id, sql.placeholder('record_id'))).prepare(),
  );
  return (record_id) => statement.all({ record_id }).map((r) => r.id);
}
