import type PlainDatabase from 'better-sqlite3';
import Database from 'better-sqlite3-multiple-ciphers';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import fs from 'node:fs';
import path from 'node:path';
import { applyDatabaseKey, encryptPlaintextDatabase } from './database-cipher';
import { isDiskFull } from '../storage/disk-full';
import * as schema from './schema';

// Drizzle types its client as better-sqlite3's; the cipher build is the same API plus key/rekey.
export type Db = BetterSQLite3Database<typeof schema> & { $client: PlainDatabase.Database };
export type SqliteHandle = Database.Database;

export interface OpenedDatabase {
  db: Db;
  sqlite: SqliteHandle;
  close(): void;
}

/** A database written by a newer Coverdesk: opening it could lose what that version wrote. */
export class DatabaseFromFutureError extends Error {
  constructor(
    readonly file: string,
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `This database (${path.basename(file)}) was written by a newer version of Coverdesk ` +
        `(schema version ${found}; this version knows up to ${known}). It was not opened or changed. ` +
        'Install the newer version of Coverdesk to use it.',
    );
    this.name = 'DatabaseFromFutureError';
  }
}

/**
 * Finds drizzle/ by walking up from this module: the same code runs from src/ under tsx
 * and vitest, from out/main when bundled, and from inside the packaged app's asar.
 */
export function findMigrationsDir(start = __dirname): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'drizzle');
    if (fs.existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`No drizzle/ migrations folder above ${start}`);
  }
}

export interface OpenDatabaseOptions {
  file: string;
  migrationsDir?: string;
  /**
   * 32 random bytes: the file (and its WAL) are encrypted, and a plaintext file from before
   * is encrypted in place first. Absent: plaintext (the sandbox's own store holds no PHI).
   */
  key?: Buffer;
  /** How the copy before an upgrade is written (tests: one that fails as a full disk does). */
  copyFile?: (from: string, to: string) => void;
}

/** The disk had no room for the copy taken before an upgrade: nothing was migrated, the file is as it was. */
export class NoRoomToUpgradeError extends Error {
  constructor(
    readonly file: string,
    readonly bytesNeeded: number,
    cause: unknown,
  ) {
    super(
      `The disk is full: Coverdesk needs about ${Math.ceil(bytesNeeded / 1_000_000)} MB free to upgrade its database (${path.basename(file)}), for the copy it takes first. ` +
        'Nothing was changed. Free some space on this computer, then open Coverdesk again.',
      { cause },
    );
    this.name = 'NoRoomToUpgradeError';
  }
}

/** A migration failed: the file was put back as it was before the run, from the copy taken first. */
export class MigrationFailedError extends Error {
  constructor(
    readonly file: string,
    readonly from: string,
    readonly to: string,
    readonly copy: string,
    cause: unknown,
  ) {
    super(
      `Upgrading this database (${path.basename(file)}) from schema ${from} to ${to} failed, so it was put back exactly as it was before the upgrade ` +
        `(the copy taken first is kept as ${path.basename(copy)}). Nothing was lost. ` +
        // A full disk is the desk's to fix; anything else is a fault for support.
        (isDiskFull(cause)
          ? 'The disk is full: free some space on this computer, then open Coverdesk again to finish the upgrade.'
          : 'Keep using the previous version of Coverdesk and report this to support.'),
      { cause },
    );
    this.name = 'MigrationFailedError';
  }
}

/** The copy of the closed database taken before a migration run (the last run's only). */
export function preMigrationCopyOf(file: string): string {
  return `${file}.before-upgrade`;
}

export function openDatabase({ file, migrationsDir = findMigrationsDir(), key, copyFile = fs.copyFileSync }: OpenDatabaseOptions): OpenedDatabase {
  const migrations = readMigrationFiles({ migrationsFolder: migrationsDir });
  if (key) encryptPlaintextDatabase(file, key);
  const existed = fs.existsSync(file) && fs.statSync(file).size > 0;
  let sqlite = new Database(file);
  try {
    if (key) applyDatabaseKey(sqlite, key);
    refuseFutureSchema(sqlite, file, migrations);
    const applied = appliedMigrations(sqlite);
    const pending = existed && applied < migrations.length;
    let copy: string | null = null;
    if (pending) {
      // A plain copy of the closed file: everything the WAL held is in it first.
      sqlite.close();
      copy = copyBeforeUpgrade(file, copyFile);
      sqlite = new Database(file);
      if (key) applyDatabaseKey(sqlite, key);
    }
    configureConnection(sqlite);
    const db = drizzle({ client: sqlite, schema });
    try {
      migrate(db, { migrationsFolder: migrationsDir });
    } catch (error) {
      if (!copy) throw error;
      sqlite.close();
      putBack(file, copy);
      const names = migrationNames(migrationsDir);
      throw new MigrationFailedError(file, names[applied - 1] ?? 'none', names[migrations.length - 1] ?? 'none', copy, error);
    }
    sqlite.pragma(`user_version = ${migrations.length}`);
    return { db, sqlite, close: () => sqlite.close() };
  } catch (error) {
    if (sqlite.open) sqlite.close();
    throw error;
  }
}

function appliedMigrations(sqlite: SqliteHandle): number {
  const hasJournal = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  return hasJournal ? (sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }).n : 0;
}

function migrationNames(migrationsDir: string): string[] {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  return journal.entries.map((entry) => entry.tag);
}

function copyBeforeUpgrade(file: string, copyFile: (from: string, to: string) => void): string {
  const copy = preMigrationCopyOf(file);
  try {
    // Closed by the last connection, the WAL is checkpointed and gone; one left (a crash) goes with the copy.
    copyFile(file, `${copy}.tmp`);
    if (fs.existsSync(`${file}-wal`)) copyFile(`${file}-wal`, `${copy}-wal.tmp`);
    else fs.rmSync(`${copy}-wal`, { force: true });
  } catch (error) {
    // A half-written copy would only take the space the desk needs: gone, and the last good copy kept.
    fs.rmSync(`${copy}.tmp`, { force: true });
    fs.rmSync(`${copy}-wal.tmp`, { force: true });
    if (isDiskFull(error)) {
      const walBytes = fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0;
      throw new NoRoomToUpgradeError(file, fs.statSync(file).size + walBytes, error);
    }
    throw error;
  }
  if (fs.existsSync(`${copy}-wal.tmp`)) fs.renameSync(`${copy}-wal.tmp`, `${copy}-wal`);
  fs.renameSync(`${copy}.tmp`, copy);
  return copy;
}

function putBack(file: string, copy: string): void {
  fs.rmSync(`${file}-shm`, { force: true });
  fs.copyFileSync(copy, file);
  if (fs.existsSync(`${copy}-wal`)) fs.copyFileSync(`${copy}-wal`, `${file}-wal`);
  else fs.rmSync(`${file}-wal`, { force: true });
}

/**
 * How every Coverdesk connection runs; the benchmarks' bare connections use it too, so
 * their limit is measured under the same rules.
 */
export function configureConnection(sqlite: SqliteHandle): void {
  sqlite.pragma('journal_mode = WAL');
  // FULL: a commit the desk was told about survives a power cut, not only an app crash.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Savepoints (every create in a group commit has one) and big statements journal the
  // pages they change in a temp file once past 64 KiB, which SQLite3 Multiple Ciphers
  // writes unencrypted to the system's temp folder (/var/tmp, $TMPDIR, %TEMP%; unlinked,
  // still on disk): rows in plaintext outside the encrypted file. In memory it is also 2
  // system calls a page cheaper.
  sqlite.pragma('temp_store = MEMORY');
  // Without a limit the WAL file keeps the size of the largest transaction or checkpoint
  // backlog it ever held (a bootstrap's, a long drain's behind a reader): hundreds of MB
  // left on disk. SQLite cuts it to this when it next starts the WAL from its beginning.
  // The bootstrap's own bound (about 16 MiB, background-checkpoints.ts) is the most the desk
  // lets it reach by design, and ordinary use (checkpoints every 1,000 pages) stays under it.
  sqlite.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
}

/** The WAL file's size kept on disk once a checkpoint has emptied it. */
const JOURNAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;

function refuseFutureSchema(sqlite: SqliteHandle, file: string, migrations: { hash: string }[]): void {
  const found = sqlite.pragma('user_version', { simple: true }) as number;
  if (found > migrations.length) throw new DatabaseFromFutureError(file, found, migrations.length);
  // Belt and braces: a migration we have never heard of means a newer (or foreign) schema.
  const hasJournal = sqlite
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'")
    .get();
  if (!hasJournal) return;
  const known = new Set(migrations.map((m) => m.hash));
  const applied = sqlite.prepare('SELECT hash FROM __drizzle_migrations').all() as { hash: string }[];
  const unknown = applied.filter((row) => !known.has(row.hash));
  if (unknown.length > 0) throw new DatabaseFromFutureError(file, applied.length, migrations.length);
}

type TransactionRunner = <T>(fn: () => T) => T;
const runners = new WeakMap<object, TransactionRunner>();

/**
 * Runs the work it is handed in one transaction of this connection (a savepoint when one is
 * open). One per connection: better-sqlite3's `transaction(fn)` builds four wrappers for
 * every function it is given, about 20 µs each time, more than a create's own inserts; the
 * one built here is handed each piece of work instead.
 */
export function transactionRunner(sqlite: Pick<SqliteHandle, 'transaction'>): TransactionRunner {
  let runner = runners.get(sqlite);
  if (!runner) {
    const run = sqlite.transaction((fn: () => unknown) => fn());
    runner = <T>(fn: () => T) => run(fn) as T;
    runners.set(sqlite, runner);
  }
  return runner;
}

/**
 * Runs `fn` in one SQLite transaction (nested calls become savepoints). better-sqlite3's
 * own transaction wrapper, not Drizzle's: the same BEGIN/COMMIT at a tenth of the cost on
 * the create path. Queries inside may use `db` freely: it is the same connection.
 */
export function inTransaction<T>(db: Db, fn: () => T): T {
  return transactionRunner(db.$client)(fn);
}

type Connection = Db['$client'];
const synchronousPragmas = new WeakMap<object, { normal: { run(): unknown }; full: { run(): unknown } }>();

/** `pragma()` prepares its statement on every call; the sync worker switches twice a round. */
function synchronousPragmasOf(sqlite: Connection) {
  let pragmas = synchronousPragmas.get(sqlite);
  if (!pragmas) {
    pragmas = { normal: sqlite.prepare('PRAGMA synchronous = NORMAL'), full: sqlite.prepare('PRAGMA synchronous = FULL') };
    synchronousPragmas.set(sqlite, pragmas);
  }
  return pragmas;
}

/**
 * A transaction whose COMMIT does not wait for the disk (WAL with `synchronous = NORMAL`):
 * it survives the app crashing, not a power cut. Only for writes that are safe to lose and
 * redo, such as the sync worker's claims and outcomes (a lost one sends the entry again with
 * the same Idempotency-Key, which the upstream replays). The next FULL commit on the
 * connection makes it durable too: the WAL is written in order.
 */
export function inTransactionWithoutFsync<T>(db: Db, fn: () => T): T {
  const sqlite = db.$client;
  // Inside someone's open transaction (a bulk import that awaits between its writes) this is
  // a savepoint of theirs, committed as they commit: SQLite refuses a safety change there.
  if (sqlite.inTransaction) return transactionRunner(sqlite)(fn);
  const pragmas = synchronousPragmasOf(sqlite);
  pragmas.normal.run();
  try {
    return transactionRunner(sqlite)(fn);
  } finally {
    pragmas.full.run();
  }
}
