import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '@src/main/db/open-database';
import { createIdempotencyStore } from '@src/main/http/idempotency-store';
import { manualClock } from '@test/support/manual-clock';
import { makeTempDir } from '@test/support/temp-dir';

let opened: { db: OpenedDatabase; cleanup(): void } | undefined;
afterEach(() => {
  opened?.db.close();
  opened?.cleanup();
  opened = undefined;
});

function open(): OpenedDatabase {
  const temp = makeTempDir();
  const db = openDatabase({ file: path.join(temp.dir, 'db.sqlite') });
  opened = { db, cleanup: temp.cleanup };
  return db;
}

const keys = (db: OpenedDatabase) => (db.sqlite.prepare('SELECT key FROM idempotency_keys ORDER BY key').all() as { key: string }[]).map((r) => r.key);

describe('idempotency store', () => {
  it('drops answers past their time, at most once a minute, and a dropped key starts afresh', async () => {
    const db = open();
    const clock = manualClock();
    const store = createIdempotencyStore({ db: db.db, clock, ttlMs: 10_000 });
    const answer = async (key: string) => {
      expect(await store.begin('scope', key, 'hash')).toEqual({ kind: 'new' });
      await store.store('scope', key, 201, `{"key":"${key}"}`);
      await store.release('scope', key);
    };
    await answer('a');
    clock.advance(30_000);
    // Expired, but the purge ran a moment ago (with the first answer): not yet.
    await answer('b');
    expect(keys(db)).toEqual(['a', 'b']);
    expect(await store.begin('scope', 'b', 'hash')).toEqual({ kind: 'replay', status: 201, body: '{"key":"b"}' });
    clock.advance(31_000);
    await answer('c');
    expect(keys(db)).toEqual(['c']);
    // The same key once its answer is gone is a new request.
    expect(await store.begin('scope', 'a', 'hash')).toEqual({ kind: 'new' });
  });

  it('finds expired answers through an index, not by reading every stored answer', () => {
    const db = open();
    const plan = db.sqlite.prepare('EXPLAIN QUERY PLAN DELETE FROM idempotency_keys WHERE created_at < ?').all('2026-01-01') as { detail: string }[];
    expect(plan.map((row) => row.detail).join('\n')).toMatch(/USING (COVERING )?INDEX idempotency_keys_created_at/);
  });
});
