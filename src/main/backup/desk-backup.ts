import Database from 'better-sqlite3-multiple-ciphers';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { applyDatabaseKey } from '../db/database-cipher';
import { findMigrationsDir, type SqliteHandle } from '../db/open-database';
import { deriveFileKey, type SealedKind } from '../db/sealed-file';
import type { Clock } from '../support/clock';
import { isDiskFull } from '../storage/disk-full';
import { copyDatabaseOnWorker, type DatabaseCopyResult } from './database-copy-worker';

/**
 * An encrypted backup of the desk (issue 29, item 3): a folder `coverdesk-backup-<stamp>`
 * holding the database (still encrypted with the desk's key), the photos as stored (each
 * already sealed) and `manifest.json`: who, which version, which schema, the record counts
 * and every file's SHA-256, sealed with an HMAC from the desk's key so an edited manifest
 * is as plain as an edited file.
 */
export interface BackupManifest {
  format: 1;
  practice_id: string;
  desk_id: string;
  coverdesk_version: string;
  /** How many migrations the database has, and the last one's name (drizzle's tag). */
  schema: { migrations: number; last: string };
  created_at: string;
  /** Rows per table in the backed-up database, as read back from the copy. */
  counts: Record<string, number>;
  /** Path inside the backup folder → SHA-256 (hex) and size. */
  files: Record<string, { sha256: string; bytes: number }>;
}

export const BACKUP_PREFIX = 'coverdesk-backup-';
export const MANIFEST = 'manifest.json';
const DATABASE_IN_BACKUP = 'coverdesk.sqlite';
const PHOTOS_IN_BACKUP = 'photos';
const RECOVERY_IN_BACKUP = 'database.key.recovery';
const MANIFEST_KIND: SealedKind = { magic: 'CDB1', info: 'coverdesk backup manifest v1', what: 'A backup manifest' };

/** A backup that was not made, or one that may not be restored. The message is for the desk. */
export class BackupError extends Error {
  constructor(
    message: string,
    readonly reason: 'folder_unavailable' | 'verify_failed' | 'other_practice' | 'newer_version' | 'tampered' | 'wrong_key' | 'not_a_backup' | 'failed',
  ) {
    super(message);
    this.name = 'BackupError';
  }
}

/** The files that make up a desk's data (the host's `hostPaths`). */
export interface DeskFiles {
  database: string;
  photos: string;
  /** The database key wrapped by the recovery code: in the backup, so a new computer opens it with the code. */
  recovery?: string;
}

export interface SchemaVersion {
  migrations: number;
  last: string;
}

/** The migrations this build knows, by count and the last one's name. */
export function knownSchema(migrationsDir = findMigrationsDir()): SchemaVersion {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  return { migrations: journal.entries.length, last: journal.entries.at(-1)?.tag ?? 'none' };
}

/** The desk's practice and desk ids (settings table), made once: a backup carries them and a restore checks them. */
export function deskIdentity(sqlite: SqliteHandle, random: () => string = () => randomBytes(10).toString('hex')): { practice_id: string; desk_id: string } {
  const read = (key: string) => {
    const row = sqlite.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as string) : null;
  };
  const ensure = (key: string, prefix: string) => {
    const found = read(key);
    if (found) return found;
    const made = `${prefix}_${random()}`;
    sqlite.prepare('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)').run(key, JSON.stringify(made));
    return read(key) ?? made;
  };
  return { practice_id: ensure('practice_id', 'prac'), desk_id: ensure('desk_id', 'desk') };
}

export function openWithKey(file: string, key: Buffer, readonly = false): SqliteHandle {
  const sqlite = new Database(file, { readonly, fileMustExist: true });
  try {
    applyDatabaseKey(sqlite, key);
    return sqlite;
  } catch (error) {
    sqlite.close();
    throw error;
  }
}

function sha256File(file: string): { sha256: string; bytes: number } {
  const bytes = fs.readFileSync(file);
  return { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.byteLength };
}

/** The same, read in chunks: a backup hashes every photo while the desk keeps answering. */
async function sha256FileAsync(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.byteLength;
  }
  return { sha256: hash.digest('hex'), bytes };
}

function manifestSeal(key: Buffer, body: string): string {
  return createHmac('sha256', deriveFileKey(key, MANIFEST_KIND)).update(body).digest('hex');
}

function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

export interface BackupDeps {
  clock: Clock;
  /** The desk's database key: the copy stays encrypted with it, and it seals the manifest. */
  key: Buffer;
  version: string;
  migrationsDir?: string;
  /** Between steps (tests: a folder that disappears mid-backup). */
  onStep?: (step: 'database' | 'photos' | 'manifest') => void;
  /** How a photo is copied into the backup (tests: one that fails as a full disk does). */
  copyFile?: (from: string, to: string) => Promise<void>;
}

export interface BackupInput {
  files: DeskFiles;
  identity: { practice_id: string; desk_id: string };
  /** The folder the practice chose (a share, a USB disk). */
  to: string;
  /** Backups kept in that folder, newest first; older ones are removed once this one is verified. */
  keep: number;
}

export interface BackupResult {
  folder: string;
  manifest: BackupManifest;
  removed: string[];
}

function folderGone(to: string, error: unknown): BackupError {
  const code = (error as { code?: string }).code ?? 'error';
  if (isDiskFull(error)) {
    return new BackupError(
      `The backup folder ${to} is full (${code}). Nothing on this desk was changed and no backup was kept from this attempt; free some space there (remove old files, or keep fewer backups), or choose another folder, and back up again.`,
      'folder_unavailable',
    );
  }
  return new BackupError(
    `The backup folder ${to} could not be written (${code}: it is missing, disconnected or full). Nothing on this desk was changed and no backup was kept from this attempt; reconnect the folder (or choose another) and back up again.`,
    'folder_unavailable',
  );
}

/**
 * Writes a backup into `to`, in a `.partial` folder renamed into place only once verified,
 * so a half-written backup never looks like one. The database is copied with `VACUUM INTO`
 * on a worker thread's own read connection (database-copy-worker.ts): a consistent snapshot
 * while the desk keeps writing, encrypted with the same key (better-sqlite3's `backup()` refuses an encrypted source: "incompatible
 * source and target databases"). Photos follow the database, so every photo its rows name
 * is there (photos are never deleted).
 */
export async function createBackup(deps: BackupDeps, input: BackupInput): Promise<BackupResult> {
  const { to, files } = input;
  if (!Number.isInteger(input.keep) || input.keep < 1) throw new BackupError('keep must be a whole number of backups, at least 1.', 'failed');
  if (!fs.existsSync(to) || !fs.statSync(to).isDirectory()) throw folderGone(to, { code: 'ENOENT' });
  const createdAt = deps.clock.now().toISOString();
  const name = `${BACKUP_PREFIX}${createdAt.replace(/[:.]/g, '-')}`;
  const partial = path.join(to, `.${name}.partial`);
  const folder = path.join(to, name);
  try {
    fs.mkdirSync(path.join(partial, PHOTOS_IN_BACKUP), { recursive: true, mode: 0o700 });
    const databaseCopy = path.join(partial, DATABASE_IN_BACKUP);
    // On a worker thread with its own connection: VACUUM INTO on the host's thread froze the desk.
    const copied = await copyDatabaseOnWorker({ source: files.database, target: databaseCopy, key: deps.key });
    const verified = databaseCopyVerified(copied);
    deps.onStep?.('database');
    const manifestFiles: BackupManifest['files'] = { [DATABASE_IN_BACKUP]: await sha256FileAsync(databaseCopy) };
    if (fs.existsSync(files.photos)) {
      for (const photo of await fs.promises.readdir(files.photos)) {
        if (photo.endsWith('.tmp')) continue;
        const target = path.join(partial, PHOTOS_IN_BACKUP, photo);
        await (deps.copyFile ?? fs.promises.copyFile)(path.join(files.photos, photo), target);
        manifestFiles[`${PHOTOS_IN_BACKUP}/${photo}`] = await sha256FileAsync(target);
      }
    }
    deps.onStep?.('photos');
    if (files.recovery && fs.existsSync(files.recovery)) {
      const target = path.join(partial, RECOVERY_IN_BACKUP);
      await fs.promises.copyFile(files.recovery, target);
      manifestFiles[RECOVERY_IN_BACKUP] = await sha256FileAsync(target);
    }
    const manifest: BackupManifest = {
      format: 1,
      ...input.identity,
      coverdesk_version: deps.version,
      schema: knownSchema(deps.migrationsDir),
      created_at: createdAt,
      counts: verified,
      files: manifestFiles,
    };
    writeManifest(partial, manifest, deps.key);
    deps.onStep?.('manifest');
    // Verified as a restore would read it, before it counts as a backup.
    await readVerifiedManifestAsync(partial, deps.key);
    fs.renameSync(partial, folder);
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true });
    if (error instanceof BackupError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT' || code === 'ENOSPC' || code === 'EIO' || code === 'EACCES' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_FULL' || code === 'SQLITE_IOERR' || !fs.existsSync(to)) throw folderGone(to, error);
    throw error;
  }
  const removed = applyRetention(to, input.keep);
  return { folder, manifest: await readVerifiedManifestAsync(folder, deps.key), removed };
}

/** The copy opened with the key and passed SQLite's check (on the worker); answers its counts. */
function databaseCopyVerified(copied: DatabaseCopyResult): Record<string, number> {
  if (!copied.ok) {
    if (copied.stage === 'verify') throw new BackupError('The backup just written could not be opened with the desk key; it was not kept. Back up again.', 'verify_failed');
    throw Object.assign(new Error(copied.message), { code: copied.code });
  }
  if (copied.problems.length > 0) throw new BackupError(`The backup just written failed SQLite's check (${copied.problems[0]}); it was not kept. Back up again.`, 'verify_failed');
  return copied.counts;
}

function writeManifest(folder: string, manifest: BackupManifest, key: Buffer): void {
  const body = JSON.stringify(manifest);
  const file = path.join(folder, MANIFEST);
  fs.writeFileSync(file, JSON.stringify({ manifest, hmac: manifestSeal(key, body) }, null, 2), { mode: 0o600 });
  fsyncFile(file);
}

/** The manifest, if its seal is the desk key's and every file still has its hash. */
export function readVerifiedManifest(folder: string, key: Buffer): BackupManifest {
  const manifest = readSealedManifest(folder, key);
  checkFiles(folder, manifest, Object.fromEntries(Object.keys(manifest.files).map((name) => [name, hashIfPresent(folder, name, sha256File)])));
  return manifest;
}

/** The manifest if its seal is the desk key's, without hashing the files (a listing; a restore checks them). */
export function readBackupManifestSeal(folder: string, key: Buffer): BackupManifest {
  return readSealedManifest(folder, key);
}

/** The same, hashing in chunks: how the backup verifies what it just wrote while the desk works. */
async function readVerifiedManifestAsync(folder: string, key: Buffer): Promise<BackupManifest> {
  const manifest = readSealedManifest(folder, key);
  const found: Record<string, { sha256: string } | null> = {};
  for (const name of Object.keys(manifest.files)) found[name] = await hashIfPresent(folder, name, sha256FileAsync);
  checkFiles(folder, manifest, found);
  return manifest;
}

function hashIfPresent<T>(folder: string, name: string, hash: (file: string) => T): T | null {
  const inBackup = path.join(folder, name);
  return fs.existsSync(inBackup) ? hash(inBackup) : null;
}

function readSealedManifest(folder: string, key: Buffer): BackupManifest {
  const file = path.join(folder, MANIFEST);
  if (!fs.existsSync(file)) throw new BackupError(`${folder} is not a Coverdesk backup (it has no ${MANIFEST}). Choose the folder named ${BACKUP_PREFIX}… that a backup made.`, 'not_a_backup');
  let parsed: { manifest: BackupManifest; hmac: string };
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { manifest: BackupManifest; hmac: string };
  } catch {
    throw new BackupError(`The backup's ${MANIFEST} is not readable: the backup was changed or damaged. Restore another backup.`, 'tampered');
  }
  const expected = Buffer.from(manifestSeal(key, JSON.stringify(parsed.manifest)), 'hex');
  const given = Buffer.from(typeof parsed.hmac === 'string' ? parsed.hmac : '', 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new BackupError(
      "The backup's manifest does not match the key given: either the key is not this practice's desk key (give the old desk's key file), or the backup was changed. Nothing was restored.",
      'wrong_key',
    );
  }
  return parsed.manifest;
}

/** Every file has its hash (`found`: name → what was read, null when missing) and nothing was added. */
function checkFiles(folder: string, manifest: BackupManifest, found: Record<string, { sha256: string } | null>): void {
  for (const [name, expectedFile] of Object.entries(manifest.files)) {
    const read = found[name];
    if (!read || read.sha256 !== expectedFile.sha256) {
      throw new BackupError(`The backup was changed after it was made: ${name} ${read ? 'does not match its hash' : 'is missing'}. Nothing was restored; restore another backup.`, 'tampered');
    }
  }
  const present = listFiles(folder).filter((name) => name !== MANIFEST && !(name in manifest.files));
  if (present.length > 0) throw new BackupError(`The backup was changed after it was made: ${present[0]} was added. Nothing was restored; restore another backup.`, 'tampered');
}

function listFiles(folder: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) for (const inner of listFiles(path.join(folder, entry.name))) out.push(`${entry.name}/${inner}`);
    else out.push(entry.name);
  }
  return out;
}

/** The backups in `to`, newest first (the names sort by time). */
export function listBackups(to: string): string[] {
  if (!fs.existsSync(to)) return [];
  return fs
    .readdirSync(to)
    .filter((name) => name.startsWith(BACKUP_PREFIX) && fs.existsSync(path.join(to, name, MANIFEST)))
    .sort()
    .reverse()
    .map((name) => path.join(to, name));
}

function applyRetention(to: string, keep: number): string[] {
  const removed = listBackups(to).slice(keep);
  for (const old of removed) fs.rmSync(old, { recursive: true, force: true });
  return removed;
}

export { DATABASE_IN_BACKUP, PHOTOS_IN_BACKUP, RECOVERY_IN_BACKUP };

/** This build's version: package.json above this module (src/ under tsx, out/main bundled, the packaged app's asar). */
export function coverdeskVersion(start = __dirname): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      const pkg = JSON.parse(fs.readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'coverdesk' && pkg.version) return pkg.version;
    }
    if (path.dirname(dir) === dir) return '0.0.0';
  }
}
