import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findMigrationsDir, openDatabase, type OpenedDatabase } from '@src/main/db/open-database';
import { newDatabaseKey } from '@src/main/db/database-key';
import { enqueue } from '@src/main/outbox/outbox-store';
import { pruneSyncedEntries } from '@src/main/outbox/outbox-pruning';
import { systemClock } from '@src/main/support/clock';
import { createIdGenerator } from '@src/main/support/ids';
import {
  deleteEntry,
  markPaused,
  markSending,
  markStopped,
  markSynced,
  reconcileBlocked,
  requeueByUser,
  requeueInterrupted,
  stateCounts,
} from '@src/main/sync/outbox-queue';
import { SyncState } from '@src/shared/contract';
import { makeTempDir } from '@test/support/temp-dir';

/**
 * The sync status's counts are kept by triggers (migration 0017), not counted: they must agree
 * with the entries after every kind of change, from any connection (another process, another
 * desk on the same file), across a restart, and on a file that had entries before the migration.
 */
const temps: { cleanup(): void }[] = [];
const opened: OpenedDatabase[] = [];
afterEach(() => {
  opened.splice(0).forEach((d) => d.close());
  temps.splice(0).forEach((t) => t.cleanup());
});

const COUNTS_MIGRATION = '0017_outbox_state_counts';
const ERROR = { code: 'upstream_unreachable', message: 'test' };

/** The entries per state counted the slow way, every state present. */
function recount(db: OpenedDatabase): Record<SyncState, number> {
  const counts = Object.fromEntries(SyncState.options.map((s) => [s, 0])) as Record<SyncState, number>;
  const rows = db.sqlite.prepare('SELECT state, count(*) AS n FROM outbox GROUP BY state').all() as { state: SyncState; n: number }[];
  for (const { state, n } of rows) counts[state] = n;
  return counts;
}

function desk(migrationsDir?: string) {
  const temp = makeTempDir('coverdesk-counts-');
  temps.push(temp);
  const file = path.join(temp.dir, 'coverdesk.sqlite');
  const key = newDatabaseKey();
  const open = (dir?: string) => {
    const db = openDatabase({ file, key, ...(dir ? { migrationsDir: dir } : {}) });
    opened.push(db);
    return db;
  };
  return { open, first: open(migrationsDir) };
}

function add(db: OpenedDatabase, count: number, refs: string[] = []): string[] {
  const deps = { db: db.db, ids: createIdGenerator(systemClock), clock: systemClock };
  return Array.from({ length: count }, (_, i) => enqueue(deps, { collection: 'patients', record_id: `pat_${i}_${Math.random()}`, payload: {}, refs }));
}

/** drizzle/ as a build before the counts table had it. */
function migrationsBeforeCounts(): string {
  const temp = makeTempDir('coverdesk-migrations-');
  temps.push(temp);
  const dir = path.join(temp.dir, 'drizzle');
  fs.cpSync(findMigrationsDir(), dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === COUNTS_MIGRATION));
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

describe('the outbox counts kept for the sync status', () => {
  it('follow every state change an entry makes, and its deletion', () => {
    const { first: db } = desk();
    // A row for every state from the start, so the table's row count never changes with the entries.
    expect(db.sqlite.prepare('SELECT count(*) AS n FROM outbox_state_counts').get()).toEqual({ n: SyncState.options.length });
    const now = new Date().toISOString();
    const [a, b, c, d, e] = add(db, 5);
    expect(stateCounts(db.db)).toEqual({ ...recount(db), queued: 5 });
    markSending(db.db, a, now);
    markSending(db.db, b, now);
    markSending(db.db, c, now);
    expect(stateCounts(db.db)).toMatchObject({ queued: 2, sending: 3 });
    markSynced(db.db, a, 'pat_up', now);
    markStopped(db.db, b, 'failed', now, ERROR);
    markStopped(db.db, c, 'needs_review', now, ERROR);
    markPaused(db.db, d, now, ERROR);
    // A dependent of a failed entry is blocked, and queued again once its dependency is retried.
    const [dependent] = add(db, 1, ['pat_ignored']);
    db.sqlite.prepare('UPDATE outbox SET depends_on = ? WHERE id = ?').run(JSON.stringify([b]), dependent);
    reconcileBlocked(db.db, now);
    expect(stateCounts(db.db)).toEqual(recount(db));
    expect(stateCounts(db.db).blocked).toBe(1);
    requeueByUser(db.db, b, now, false);
    reconcileBlocked(db.db, now);
    expect(stateCounts(db.db)).toEqual(recount(db));
    expect(stateCounts(db.db).blocked).toBe(0);
    markSending(db.db, e, now);
    expect(requeueInterrupted(db.db, now)).toBe(1);
    deleteEntry(db.db, c);
    // An update that leaves the state as it was changes no count.
    db.sqlite.prepare("UPDATE outbox SET state = 'queued', attempts = attempts + 1 WHERE state = 'queued'").run();
    expect(stateCounts(db.db)).toEqual(recount(db));
    expect(Object.values(stateCounts(db.db)).reduce((x, y) => x + y, 0)).toBe(5);
  });

  it('agree when another connection to the same file (another process, another desk) changes the outbox, and after a restart', async () => {
    const { open, first } = desk();
    const other = open();
    const mine = add(first, 4);
    const theirs = add(other, 3);
    const now = new Date().toISOString();
    markSending(other.db, mine[0], now);
    markSynced(other.db, mine[0], 'pat_a', now);
    markSynced(first.db, theirs[0], 'pat_b', now);
    markStopped(other.db, theirs[1], 'failed', now, ERROR);
    expect(stateCounts(first.db)).toEqual(recount(first));
    expect(stateCounts(other.db)).toEqual(recount(first));
    expect(stateCounts(first.db)).toMatchObject({ queued: 4, synced: 2, failed: 1 });

    // Pruning synced entries (old enough, none kept) takes them off the count.
    const later = { now: () => new Date(Date.now() + 30 * 24 * 60 * 60 * 1000) };
    expect(await pruneSyncedEntries({ db: other.db, clock: later }, { batchSize: 1, keepNewest: 0 })).toBe(2);
    expect(stateCounts(first.db)).toEqual({ ...recount(first), synced: 0 });

    const counts = stateCounts(first.db);
    first.close();
    other.close();
    opened.splice(0);
    expect(stateCounts(open().db)).toEqual(counts);
  });

  it('start from the entries a file already had when the migration adds them', () => {
    const { open, first: older } = desk(migrationsBeforeCounts());
    const [a, b] = add(older, 6);
    const now = new Date().toISOString();
    markSending(older.db, a, now);
    markSynced(older.db, a, 'pat_a', now);
    markStopped(older.db, b, 'failed', now, ERROR);
    const expected = recount(older);
    older.close();
    opened.splice(0);
    const upgraded = open();
    expect(stateCounts(upgraded.db)).toEqual(expected);
    expect(expected).toMatchObject({ queued: 4, synced: 1, failed: 1 });
  });
});
