import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseFromFutureError, findMigrationsDir, inTransaction, inTransactionWithoutFsync, openDatabase } from '@src/main/db/open-database';
import { makeTempDir } from '@test/support/temp-dir';

const temps: { cleanup(): void }[] = [];
function tempFile() {
  const temp = makeTempDir();
  temps.push(temp);
  return path.join(temp.dir, 'db.sqlite');
}
afterEach(() => temps.splice(0).forEach((t) => t.cleanup()));

const migrationCount = JSON.parse(fs.readFileSync(path.join(findMigrationsDir(), 'meta', '_journal.json'), 'utf8')).entries.length;

describe('openDatabase', () => {
  it('applies the migrations, turns on WAL and foreign keys, and records the schema version', () => {
    const file = tempFile();
    const { sqlite, close } = openDatabase({ file });
    expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(sqlite.pragma('user_version', { simple: true })).toBe(migrationCount);
    const tables = (sqlite.prepare("SELECT name FROM sqlite_master WHERE type='table'").all() as { name: string }[]).map((t) => t.name);
    expect(tables).toEqual(expect.arrayContaining(['patients', 'insurance_cards', 'outbox', 'electronic_eligibility_checks']));
    expect(() => sqlite.prepare("INSERT INTO insurance_cards (id, patient_id, source, insurance_carrier_ids, created_at) VALUES ('ic_1', 'pat_missing', 'api', '[]', 'x')").run()).toThrow(/FOREIGN KEY/);
    close();
  });

  it('opens its own database again without migrating twice', () => {
    const file = tempFile();
    openDatabase({ file }).close();
    const again = openDatabase({ file });
    expect((again.sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }).n).toBe(migrationCount);
    again.close();
  });

  it('refuses a database written by a newer version, without changing it', () => {
    const file = tempFile();
    openDatabase({ file }).close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${migrationCount + 1}`);
    raw.close();
    const before = fs.readFileSync(file);
    expect(() => openDatabase({ file })).toThrow(DatabaseFromFutureError);
    expect(() => openDatabase({ file })).toThrow(/newer version of Coverdesk .*not opened or changed/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('refuses a database with a migration this version has never heard of', () => {
    const file = tempFile();
    openDatabase({ file }).close();
    const raw = new Database(file);
    raw.prepare("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('from-the-future', 1)").run();
    raw.close();
    expect(() => openDatabase({ file })).toThrow(DatabaseFromFutureError);
  });

  it('commits bookkeeping without fsync, then restores FULL; inside an open transaction it is a savepoint of it', () => {
    const { db, sqlite, close } = openDatabase({ file: tempFile() });
    const insert = (id: string) => () => sqlite.prepare("INSERT INTO patients (id, first_name, last_name, date_of_birth, created_at) VALUES (?, 'A', 'B', '1980-01-01', 'x')").run(id);
    inTransactionWithoutFsync(db, insert('pat_1'));
    expect(sqlite.pragma('synchronous', { simple: true })).toBe(2);
    sqlite.exec('BEGIN');
    inTransactionWithoutFsync(db, insert('pat_2'));
    sqlite.exec('ROLLBACK');
    expect((sqlite.prepare('SELECT id FROM patients').all() as { id: string }[]).map((r) => r.id)).toEqual(['pat_1']);
    expect(sqlite.pragma('synchronous', { simple: true })).toBe(2);
    close();
  });

  it('builds its transaction once per connection, not for every write (about 20 µs each on a create path)', () => {
    const { db, sqlite, close } = openDatabase({ file: tempFile() });
    const insert = sqlite.prepare("INSERT INTO patients (id, first_name, last_name, date_of_birth, created_at) VALUES (?, 'A', 'B', '1980-01-01', 'x')");
    inTransaction(db, () => insert.run('pat_0'));
    inTransactionWithoutFsync(db, () => insert.run('pat_00'));
    // Counted on the connection itself (better-sqlite3's methods, not ours).
    let built = 0;
    const { transaction } = sqlite;
    Object.assign(sqlite, { transaction: (...args: Parameters<typeof transaction>) => (built++, transaction.apply(sqlite, args)) });
    for (let i = 1; i <= 20; i++) {
      inTransaction(db, () => inTransaction(db, () => insert.run(`pat_${i}`)));
      inTransactionWithoutFsync(db, () => insert.run(`pat_${i}x`));
    }
    expect(built).toBe(0);
    expect((sqlite.prepare('SELECT count(*) AS n FROM patients').get() as { n: number }).n).toBe(42);
    expect(sqlite.pragma('synchronous', { simple: true })).toBe(2);
    close();
  });

  it('gives the disk back after a big write: the WAL is cut to its limit when it starts again', () => {
    const file = tempFile();
    const { sqlite, close } = openDatabase({ file });
    const limit = sqlite.pragma('journal_size_limit', { simple: true }) as number;
    expect(limit).toBeGreaterThan(0);
    // One transaction larger than the limit (a bootstrap's, a long drain's behind a reader):
    // its commit crosses the automatic checkpoint, which copies it all into the file.
    sqlite.exec('CREATE TABLE bulk (b BLOB)');
    const insert = sqlite.prepare('INSERT INTO bulk (b) VALUES (randomblob(?))');
    sqlite.transaction(() => {
      for (let written = 0; written < limit * 1.5; written += 64 * 1024) insert.run(64 * 1024);
    })();
    expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(limit);
    // The next write starts the WAL again from its beginning, and cuts the file to the limit.
    sqlite.pragma('wal_checkpoint(PASSIVE)');
    sqlite.exec("INSERT INTO bulk (b) VALUES ('small')");
    expect(fs.statSync(`${file}-wal`).size).toBeLessThanOrEqual(limit);
    close();
  });
});
