import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkpointInBackground } from '@src/main/db/background-checkpoints';
import { openDatabase, type OpenedDatabase } from '@src/main/db/open-database';
import { makeTempDir } from '@test/support/temp-dir';
import { waitFor } from '@test/support/sync/sync-harness';

/** A real encrypted database file, its checkpoints taken by a worker thread's own connection. */
describe('checkpoints in the background', () => {
  let opened: OpenedDatabase | undefined;
  let temp: ReturnType<typeof makeTempDir> | undefined;
  afterEach(() => {
    if (opened?.sqlite.open) opened.close();
    temp?.cleanup();
    opened = temp = undefined;
  });

  /** An encrypted database file with one table to fill. */
  function openBulkDatabase() {
    temp = makeTempDir('coverdesk-checkpoints-');
    const file = path.join(temp.dir, 'desk.sqlite');
    const key = randomBytes(32);
    opened = openDatabase({ file, key });
    opened.sqlite.exec('CREATE TABLE bulk (id INTEGER PRIMARY KEY, body TEXT)');
    return { file, key, sqlite: opened.sqlite };
  }

  it('turns the connection\'s own checkpoints off, copies the WAL into the file from the worker, and gives them back when stopped', async () => {
    const { file, key, sqlite } = openBulkDatabase();
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const before = fs.statSync(file).size;
    const automatic = sqlite.pragma('wal_autocheckpoint', { simple: true });

    const background = checkpointInBackground({ sqlite, key, everyMs: 20 });
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    // About 2,000 pages: past the automatic threshold, which would have checkpointed on this thread.
    const insert = sqlite.prepare('INSERT INTO bulk (body) VALUES (?)');
    for (let page = 0; page < 20; page++) sqlite.transaction(() => {
      for (let i = 0; i < 100; i++) insert.run(randomBytes(1500).toString('hex'));
    })();
    // Only a checkpoint writes the main file; this connection no longer takes any.
    await waitFor('the worker to checkpoint the WAL into the file', () => fs.statSync(file).size > before + 4_000_000, 10_000);

    await background.stop();
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(automatic);
    expect(sqlite.prepare('SELECT count(*) AS n FROM bulk').get()).toEqual({ n: 2000 });
    sqlite.close();
    // Everything committed is in the file, readable with the key by a new connection.
    opened = openDatabase({ file, key });
    expect(opened.sqlite.prepare('SELECT count(*) AS n FROM bulk').get()).toEqual({ n: 2000 });
  });

  it('holds a writer that asks, once the WAL is past its bound, until a checkpoint has left nothing behind', async () => {
    const { key, sqlite } = openBulkDatabase();
    const background = checkpointInBackground({ sqlite, key, everyMs: 20, boundFrames: 50 });
    const insert = sqlite.prepare('INSERT INTO bulk (body) VALUES (?)');
    const write = () => sqlite.transaction(() => {
      for (let i = 0; i < 100; i++) insert.run(randomBytes(1500).toString('hex'));
    })();
    for (let page = 0; page < 10; page++) write();
    // Nothing writes while the worker looks, so the WAL it reports cannot have started again.
    await waitFor('the worker to find the WAL past its bound', () => background.walFrames() > 50, 10_000);
    // More frames, written just now: no checkpoint has copied them yet.
    write();
    await background.catchUp();
    // Everything was copied when the next write began, so it started the WAL again from its
    // beginning: the WAL holds that one row's few pages, not the thousand before them.
    insert.run('one more');
    const [state] = sqlite.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
    expect(state.log).toBeGreaterThan(0);
    expect(state.log).toBeLessThan(10);
    await background.stop();
    // Under the bound, or stopped: a writer is not held.
    await background.catchUp();
    expect(sqlite.prepare('SELECT count(*) AS n FROM bulk').get()).toEqual({ n: 1101 });
  });

  it('gives the connection its own checkpoints back when the worker cannot open the file', async () => {
    temp = makeTempDir('coverdesk-checkpoints-');
    const file = path.join(temp.dir, 'desk.sqlite');
    opened = openDatabase({ file, key: randomBytes(32) });
    const failures: Error[] = [];
    // The wrong key: the worker fails at its first read.
    const background = checkpointInBackground({ sqlite: opened.sqlite, key: randomBytes(32), onError: (error) => failures.push(error) });
    await waitFor('the worker to fail', () => failures.length > 0, 10_000);
    expect(opened.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await background.stop();
    expect(opened.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });
});
