import { asc, eq, gt, sql } from 'drizzle-orm';
import { getTableName } from 'drizzle-orm';
import { inTransaction, type Db } from '../db/open-database';
import { changes, settings } from '../db/schema';
import { TABLES } from '../records/tables';
import { FEED_COLLECTIONS, ChangesParams, type ChangesPage, type FeedCollection, type ResourceOf } from '../../shared/contract';
import { ServiceError, parseOrThrow } from '../../shared/service-error';

/** Cursors carry the epoch they were minted in; expiring cursors starts a new epoch. */
const EPOCH_KEY = 'changes_epoch';

/**
 * Every create and every status change of a record the feed carries moves the record to
 * the end of `changes`, inside the statement's own transaction: SQLite triggers, so no
 * write path (creates from any caller, the clearinghouse resolving, a discovery filling a
 * card) can forget. One row per record: a reader behind sees each record once, as it is now.
 * Only the upstream's database gets them; the host's `changes` table stays empty.
 */
export function installChangeTriggers(db: Db): void {
  for (const collection of FEED_COLLECTIONS) {
    const table = getTableName(TABLES[collection]);
    const body = `DELETE FROM changes WHERE collection = '${collection}' AND record_id = NEW.id;
      INSERT INTO changes (collection, record_id) VALUES ('${collection}', NEW.id);`;
    for (const event of ['INSERT', 'UPDATE']) {
      db.$client.exec(`CREATE TRIGGER IF NOT EXISTS changes_${table}_${event.toLowerCase()} AFTER ${event} ON ${table} BEGIN ${body} END;`);
    }
  }
  // Records made before the triggers existed (a sandbox database from an older version) join the feed once.
  inTransaction(db, () => {
    for (const collection of FEED_COLLECTIONS) {
      const table = getTableName(TABLES[collection]);
      db.$client
        .prepare(`INSERT OR IGNORE INTO changes (collection, record_id) SELECT '${collection}', id FROM ${table} ORDER BY id`)
        .run();
    }
  });
}

function epoch(db: Db): number {
  const row = db.select({ value: settings.value }).from(settings).where(eq(settings.key, EPOCH_KEY)).get();
  return typeof row?.value === 'number' ? row.value : 0;
}

function lastSeq(db: Db): number {
  return db.select({ seq: sql<number | null>`max(${changes.seq})` }).from(changes).get()?.seq ?? 0;
}

const expired = () =>
  new ServiceError(
    'cursor_expired',
    'The changes feed no longer keeps that position. Start again from the beginning: read the feed without `after`.',
  );

/**
 * A page of the feed after `after` (absent: from the beginning): cursors are
 * `<epoch>.<seq>`, the row's position in the current epoch. A position the feed no longer answers, one it never minted, or
 * one beyond its end (the upstream was reset) is 410 `cursor_expired`: the reader cannot
 * know what it missed and must start again.
 */
export function readChanges(
  deps: { db: Db; present<K extends FeedCollection>(collection: K, id: string): ResourceOf<K> },
  params: ChangesParams = {},
): ChangesPage {
  const { db } = deps;
  const { after, limit } = parseOrThrow(ChangesParams, params);
  const current = epoch(db);
  let position = 0;
  if (after !== undefined) {
    const parsed = /^(\d{1,9})\.(\d{1,15})$/.exec(after);
    if (!parsed || Number(parsed[1]) !== current) throw expired();
    position = Number(parsed[2]);
    if (position > lastSeq(db)) throw expired();
  }
  const cursorAt = (seq: number) => `${current}.${seq}`;
  // One read transaction: the rows and the records they name are the same moment.
  return inTransaction(db, () => {
    const rows = db.select().from(changes).where(gt(changes.seq, position)).orderBy(asc(changes.seq)).limit(limit + 1).all();
    const has_more = rows.length > limit;
    const page = has_more ? rows.slice(0, limit) : rows;
    const data = page.map((row) => {
      const collection = row.collection as FeedCollection;
      return { collection, cursor: cursorAt(row.seq), record: deps.present(collection, row.record_id) } as ChangesPage['data'][number];
    });
    return { data, has_more, next_cursor: cursorAt(page.length ? page[page.length - 1].seq : position) };
  });
}

/**
 * Stops answering every cursor minted so far (what an upstream that lost or trimmed its
 * history does): they answer 410. The rows stay, one per record, so a reader starting
 * again from the beginning still gets every record, under cursors of the new epoch.
 */
export function expireCursors(db: Db): void {
  const next = epoch(db) + 1;
  db.insert(settings).values({ key: EPOCH_KEY, value: next }).onConflictDoUpdate({ target: settings.key, set: { value: next } }).run();
}

/** The feed's end, as a cursor (tests and the benchmark). */
export function lastChangeCursor(db: Db): string {
  return `${epoch(db)}.${lastSeq(db)}`;
}
