import Database from 'better-sqlite3-multiple-ciphers';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyDatabaseKey, databaseFileState, WrongDatabaseKeyError } from './database-cipher';
import type { SqliteHandle } from './open-database';

/** What the start-up check found wrong with a database file, and what became of it. */
export interface DamagedDatabase {
  /** The damaged file, renamed beside with a timestamp; its WAL and shared memory beside it. */
  keptAs: string;
  /** What SQLite's check said (no record data: it names pages and tables). */
  problems: string[];
  /** Records not yet sent, queued again: their outbox entries read back, or made again from the record when only it could be read. */
  recoveredEntries: number;
  /** Rows of every table read back. */
  recoveredRows: number;
  /** Outbox entries that could not be read, by id where the id itself was readable, else by row number. */
  unreadableEntries: string[];
  /** Per table, how many rows could not be read. */
  unreadableRows: Record<string, number>;
  /** Records whose outbox entry was read back but whose own row was not, by id. */
  missingRecords?: string[];
  /** One paragraph for the desk, the log and the command line. */
  message: string;
}

const SIDE_FILES = ['-wal', '-shm'];
/** Copied first: what exists only on this desk. */
const FIRST = ['outbox'];
/** Not copied: the new database has its own, and an empty pull state makes the practice feed come again. */
const SKIPPED = new Set(['__drizzle_migrations', 'sqlite_sequence', 'pull_state']);

/**
 * `PRAGMA quick_check`: every page's structure, without the index-against-table
 * comparison of `integrity_check`, so it stays bounded on a large file. Returns the
 * problems; none means the file may be opened for work.
 */
export function quickCheck(sqlite: SqliteHandle): string[] {
  try {
    const rows = sqlite.pragma('quick_check(20)') as { quick_check: string }[];
    const problems = rows.map((row) => row.quick_check).filter((line) => line !== 'ok');
    return problems;
  } catch (error) {
    return [`${(error as { code?: string }).code ?? 'error'}: ${error instanceof Error ? error.message : String(error)}`];
  }
}

function open(file: string, key: Buffer | undefined): SqliteHandle {
  const sqlite = new Database(file);
  try {
    if (key) applyDatabaseKey(sqlite, key);
    return sqlite;
  } catch (error) {
    sqlite.close();
    throw error;
  }
}

/** Where the host notes damage its background check found, for the next start to act on. */
export function damageMarkerOf(file: string): string {
  return `${file}.damage-found`;
}

/**
 * Notes that the background check found `file` damaged (docs/decisions.md, Storage): the
 * file cannot be set aside while the host has it open, so the next start does it, even after
 * a kill. Written durably; only page and table names, never record data.
 */
export function markDamaged(file: string, problems: string[]): void {
  const marker = damageMarkerOf(file);
  const fd = fs.openSync(`${marker}.tmp`, 'w', 0o600);
  try {
    fs.writeSync(fd, JSON.stringify({ problems }));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(`${marker}.tmp`, marker);
}

/**
 * Before the host opens `file` for work. SQLite's check itself runs after the desk is up, on a
 * worker thread (`checkDatabaseOnWorker`): a file it found damaged has a marker, and is set
 * aside here. A file that cannot even be opened is damaged too. Null: open it. Otherwise the
 * file was closed and renamed beside with a timestamp (never changed or deleted): the caller
 * opens a fresh file, then calls `recover` to copy in what can still be read.
 */
export function checkDatabaseAtStart(options: { file: string; key?: Buffer; now: Date }): { keptAs: string; problems: string[] } | null {
  const { file, key } = options;
  const marker = damageMarkerOf(file);
  if (!fs.existsSync(file) || fs.statSync(file).size === 0) {
    fs.rmSync(marker, { force: true });
    return null;
  }
  let problems: string[] = [];
  if (fs.existsSync(marker)) {
    try {
      problems = (JSON.parse(fs.readFileSync(marker, 'utf8')) as { problems: string[] }).problems;
    } catch {
      problems = ['the check found damage (its notes could not be read)'];
    }
  } else {
    try {
      // A plaintext file from before encryption is opened as it is; openDatabase encrypts it next.
      open(file, databaseFileState(file) === 'encrypted' ? key : undefined).close();
    } catch (error) {
      // A key that does not fit is not damage: the file must stay where it is (database-cipher.ts).
      if (error instanceof WrongDatabaseKeyError) throw error;
      problems = [`${(error as { code?: string }).code ?? 'error'}: the file could not be opened`];
    }
  }
  if (problems.length === 0) return null;
  const stamp = options.now.toISOString().replace(/[:.]/g, '-');
  const keptAs = `${file}.damaged-${stamp}`;
  // The WAL goes with its file (renamed, not copied): committed data in it stays with the pages it belongs to.
  for (const suffix of SIDE_FILES) if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, keptAs + suffix);
  fs.renameSync(file, keptAs);
  fs.rmSync(marker, { force: true });
  return { keptAs, problems };
}

/** The rowids of `table` that can be read, walking past damaged pages one row at a time. */
function readRows(damaged: SqliteHandle, table: string): { rows: Record<string, unknown>[]; unreadable: number[] } {
  const rows: Record<string, unknown>[] = [];
  const unreadable: number[] = [];
  let max: number;
  try {
    max = ((damaged.prepare(`SELECT max(rowid) AS m FROM "${table}"`).get() as { m: number | null }).m ?? 0) as number;
  } catch {
    return { rows, unreadable: [-1] };
  }
  const after = damaged.prepare(`SELECT rowid AS __rowid, * FROM "${table}" WHERE rowid > ? ORDER BY rowid`);
  const one = damaged.prepare(`SELECT rowid AS __rowid, * FROM "${table}" WHERE rowid = ?`);
  let last = 0;
  while (last < max) {
    try {
      for (const row of after.iterate(last) as Iterable<Record<string, unknown>>) {
        rows.push(row);
        last = row.__rowid as number;
      }
      break;
    } catch {
      // The scan hit a damaged page: the next row alone, then the scan again after it.
      last += 1;
      try {
        const row = one.get(last) as Record<string, unknown> | undefined;
        if (row) rows.push(row);
      } catch {
        unreadable.push(last);
      }
    }
  }
  return { rows, unreadable };
}

/**
 * Copies what can be read from the damaged file (a copy of it: the kept file is never
 * opened for writing) into the fresh database: the outbox first, then every table, row by
 * row. Rows the new database already has (seed data) stay as they are.
 */
export function recoverInto(fresh: SqliteHandle, damagedFile: string, key: Buffer | undefined): Omit<DamagedDatabase, 'keptAs' | 'problems' | 'message'> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'coverdesk-recover-'));
  const copy = path.join(scratch, 'damaged.sqlite');
  fs.copyFileSync(damagedFile, copy);
  if (fs.existsSync(`${damagedFile}-wal`)) fs.copyFileSync(`${damagedFile}-wal`, `${copy}-wal`);
  const result = { recoveredEntries: 0, recoveredRows: 0, unreadableEntries: [] as string[], unreadableRows: {} as Record<string, number> };
  let damaged: SqliteHandle | null = null;
  try {
    damaged = open(copy, databaseFileState(copy) === 'encrypted' ? key : undefined);
    let tables: string[];
    try {
      tables = (damaged.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
    } catch {
      tables = [];
      result.unreadableRows.sqlite_master = 1;
    }
    const freshTables = new Set((fresh.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name));
    const ordered = [...FIRST.filter((t) => tables.includes(t)), ...tables.filter((t) => !FIRST.includes(t))].filter((t) => freshTables.has(t) && !SKIPPED.has(t));
    fresh.pragma('foreign_keys = OFF');
    try {
      for (const table of ordered) {
        const columns = new Set((fresh.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name));
        const { rows, unreadable } = readRows(damaged, table);
        const copied = fresh.transaction(() => {
          let n = 0;
          for (const row of rows) {
            const names = Object.keys(row).filter((name) => columns.has(name));
            const insert = fresh.prepare(`INSERT OR IGNORE INTO "${table}" (${names.map((c) => `"${c}"`).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`);
            n += insert.run(...names.map((name) => row[name])).changes;
          }
          return n;
        })();
        result.recoveredRows += copied;
        if (table === 'outbox') {
          result.recoveredEntries = rows.filter((row) => row.state !== 'synced').length;
          result.unreadableEntries = unreadable.map((rowid) => `outbox row ${rowid}`);
        }
        if (unreadable.length > 0) result.unreadableRows[table] = unreadable.length;
      }
    } finally {
      fresh.pragma('foreign_keys = ON');
    }
  } catch (error) {
    result.unreadableRows['(file)'] = 1;
    void error;
  } finally {
    damaged?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return result;
}

export function damagedMessage(report: Omit<DamagedDatabase, 'message'>): string {
  const lost = Object.entries(report.unreadableRows);
  return (
    `Coverdesk's database was found damaged (${report.problems.length} problem${report.problems.length === 1 ? '' : 's'} found by its check) and was set aside: nothing more was written to it. ` +
    `It is kept, unchanged, as ${path.basename(report.keptAs)}. A new database was started: ${report.recoveredEntries} record${report.recoveredEntries === 1 ? '' : 's'} not yet sent ` +
    `and ${report.recoveredRows} rows in all were read back, and the rest comes again from the practice. ` +
    (lost.length === 0
      ? 'Nothing unreadable was found.'
      : `Could not be read: ${lost.map(([table, n]) => `${n} in ${table}`).join(', ')}${report.unreadableEntries.length ? ` (${report.unreadableEntries.join(', ')})` : ''}. Keep the damaged file for support.`)
  );
}

/** Records an outbox entry names (by collection = table) that the fresh database does not hold. */
export function recordsWithoutRow(fresh: SqliteHandle): string[] {
  const entries = fresh.prepare('SELECT DISTINCT collection, record_id FROM outbox ORDER BY record_id').all() as { collection: string; record_id: string }[];
  const tables = new Map<string, boolean>();
  const missing: string[] = [];
  for (const { collection, record_id } of entries) {
    if (!tables.has(collection)) {
      const columns = fresh.prepare(`SELECT name FROM pragma_table_info(?)`).all(collection) as { name: string }[];
      tables.set(collection, columns.some((c) => c.name === 'id'));
    }
    if (!tables.get(collection)) continue;
    if (!fresh.prepare(`SELECT 1 FROM "${collection}" WHERE id = ?`).get(record_id)) missing.push(record_id);
  }
  return missing;
}
