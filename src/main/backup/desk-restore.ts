import fs from 'node:fs';
import path from 'node:path';
import { databaseFileState } from '../db/database-cipher';
import { quickCheck } from '../db/start-check';
import { tableCounts } from '../db/table-counts';
import {
  BackupError,
  DATABASE_IN_BACKUP,
  knownSchema,
  openWithKey,
  PHOTOS_IN_BACKUP,
  readVerifiedManifest,
  RECOVERY_IN_BACKUP,
  type BackupManifest,
  type DeskFiles,
} from './desk-backup';

/**
 * Restoring a backup into a data folder, with the desk closed. Everything is first copied
 * into `<dataDir>/.restore-staging` and checked there; only then is a READY mark written and
 * the folder's files swapped one by one, the old ones moved to `.restore-previous-<stamp>`.
 * A restore killed before READY leaves the old data as it was (the staging is dropped next
 * time); killed after, the swap is finished next time (`finishInterruptedRestore`, called by
 * the host at start and by the next restore): never half old, half new.
 */
export interface RestoreTarget extends DeskFiles {
  dataDir: string;
  /** Where the restored desk's key is written (the web host's `database.key`). */
  keyFile: string;
}

export interface RestoreDeps {
  version: string;
  migrationsDir?: string;
  now: () => Date;
  /** Between steps, and after each live file is moved aside (tests: a kill at a chosen point). */
  onStep?: (step: 'staged' | 'ready' | 'swapped' | `moved:${string}`) => void;
}

export interface RestoreInput {
  from: string;
  target: RestoreTarget;
  /** The key of the desk that made the backup (its `database.key`). */
  key: Buffer;
  /** The practice of the desk already in the target folder, if any: another practice's backup is refused. */
  targetPracticeId: string | null;
  /**
   * `next-start`: staged and marked READY only; the host's next start swaps it in (a restore
   * from Settings, the desk still running on the old files). Default: swapped now.
   */
  swap?: 'now' | 'next-start';
  /** False: no key file is written (the desk keeps the key it has: Settings restores its own backups). Default true. */
  writeKey?: boolean;
}

const STAGING = '.restore-staging';
const READY = 'READY';

/** What a restore replaces, relative to the data folder. */
function swappedNames(target: RestoreTarget): string[] {
  const rel = (file: string) => path.relative(target.dataDir, file);
  const db = rel(target.database);
  // The side files first: they go aside while the old database is still the live one.
  return [`${db}-wal`, `${db}-shm`, db, rel(target.photos), rel(target.keyFile), ...(target.recovery ? [rel(target.recovery)] : [])];
}

function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((part) => Number.parseInt(part, 10) || 0);
  const pb = b.split(/[.-]/).map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/** Refuses a backup this version must not restore; answers its manifest. */
export function checkBackup(deps: RestoreDeps, input: Pick<RestoreInput, 'from' | 'key' | 'targetPracticeId'>): BackupManifest {
  const manifest = readVerifiedManifest(input.from, input.key);
  const known = knownSchema(deps.migrationsDir);
  if (manifest.schema.migrations > known.migrations || compareVersions(manifest.coverdesk_version, deps.version) > 0) {
    throw new BackupError(
      `This backup was made by a newer Coverdesk (${manifest.coverdesk_version}, schema ${manifest.schema.last}); this is Coverdesk ${deps.version} (schema ${known.last}). ` +
        'Nothing was restored. Install Coverdesk ' + manifest.coverdesk_version + ' or later, then restore it.',
      'newer_version',
    );
  }
  if (input.targetPracticeId && input.targetPracticeId !== manifest.practice_id) {
    throw new BackupError(
      `This backup is from another practice (${manifest.practice_id}; this data folder belongs to ${input.targetPracticeId}). Nothing was restored. ` +
        "Restore one of this practice's backups, or restore into an empty data folder.",
      'other_practice',
    );
  }
  return manifest;
}

function writeDurably(file: string, data: string, mode = 0o600): void {
  const fd = fs.openSync(file, 'w', mode);
  try {
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function fsyncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Windows cannot open a folder to fsync it; its renames are journaled by NTFS.
  }
}

export async function restoreBackup(deps: RestoreDeps, input: RestoreInput): Promise<{ manifest: BackupManifest; previous: string | null }> {
  finishInterruptedRestore(input.target);
  const manifest = checkBackup(deps, input);
  const { target } = input;
  const staging = path.join(target.dataDir, STAGING);
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true, mode: 0o700 });
  const staged = (file: string) => path.join(staging, path.relative(target.dataDir, file));
  fs.copyFileSync(path.join(input.from, DATABASE_IN_BACKUP), staged(target.database));
  fs.mkdirSync(staged(target.photos), { recursive: true, mode: 0o700 });
  const photosFrom = path.join(input.from, PHOTOS_IN_BACKUP);
  if (fs.existsSync(photosFrom)) for (const photo of fs.readdirSync(photosFrom)) fs.copyFileSync(path.join(photosFrom, photo), path.join(staged(target.photos), photo));
  const recoveryFrom = path.join(input.from, RECOVERY_IN_BACKUP);
  if (target.recovery && fs.existsSync(recoveryFrom)) fs.copyFileSync(recoveryFrom, staged(target.recovery));
  if (input.writeKey !== false) {
    fs.mkdirSync(path.dirname(staged(target.keyFile)), { recursive: true, mode: 0o700 });
    writeDurably(staged(target.keyFile), `${input.key.toString('hex')}\n`);
  }
  // The staged copy is checked as the backup was: opens with the key, SQLite's check, the same counts.
  const copy = openWithKey(staged(target.database), input.key, true);
  try {
    const problems = quickCheck(copy);
    const counts = tableCounts(copy);
    const differs = Object.keys(manifest.counts).find((table) => counts[table] !== manifest.counts[table]);
    if (problems.length > 0 || differs) {
      throw new BackupError(`The restored copy did not check out (${problems[0] ?? `${differs}: ${counts[differs!]} rows, the backup says ${manifest.counts[differs!]}`}). Nothing was restored.`, 'verify_failed');
    }
  } finally {
    copy.close();
  }
  fsyncDir(staging);
  deps.onStep?.('staged');
  const previousName = `.restore-previous-${deps.now().toISOString().replace(/[:.]/g, '-')}`;
  writeDurably(path.join(staging, READY), JSON.stringify({ previous: previousName }));
  fsyncDir(staging);
  deps.onStep?.('ready');
  if (input.swap === 'next-start') return { manifest, previous: path.join(target.dataDir, previousName) };
  const previous = finishInterruptedRestore(target, (name) => deps.onStep?.(`moved:${name}`));
  deps.onStep?.('swapped');
  return { manifest, previous };
}

/**
 * Finishes or drops a restore that was stopped: staging without READY is dropped (the old
 * data was never touched); with READY each file still staged replaces the live one, the live
 * one moved aside first. Idempotent: a kill inside it is finished by the next call.
 * Answers the folder the old files were moved to, if a swap was finished.
 */
export function finishInterruptedRestore(target: RestoreTarget, onMoved?: (name: string) => void): string | null {
  const staging = path.join(target.dataDir, STAGING);
  if (!fs.existsSync(staging)) return null;
  const ready = path.join(staging, READY);
  if (!fs.existsSync(ready)) {
    fs.rmSync(staging, { recursive: true, force: true });
    return null;
  }
  const { previous: previousName } = JSON.parse(fs.readFileSync(ready, 'utf8')) as { previous: string };
  const previous = path.join(target.dataDir, previousName);
  fs.mkdirSync(previous, { recursive: true, mode: 0o700 });
  const stagedDatabase = path.join(staging, path.relative(target.dataDir, target.database));
  for (const name of swappedNames(target)) {
    const live = path.join(target.dataDir, name);
    const kept = path.join(previous, name);
    const fromStaging = path.join(staging, name);
    // The old database's WAL and shared memory belong to the old file: aside while it is still the live one.
    const sideFile = name.endsWith('-wal') || name.endsWith('-shm');
    const moveAside = sideFile ? fs.existsSync(stagedDatabase) : fs.existsSync(fromStaging);
    // Moved aside once: a second pass (after a kill) finds the staged one already in place.
    if (moveAside && fs.existsSync(live)) {
      fs.mkdirSync(path.dirname(kept), { recursive: true });
      fs.renameSync(live, fs.existsSync(kept) ? `${kept}.${Date.now()}` : kept);
      onMoved?.(name);
    }
    if (!sideFile && fs.existsSync(fromStaging)) fs.renameSync(fromStaging, live);
  }
  fsyncDir(target.dataDir);
  fs.rmSync(staging, { recursive: true, force: true });
  return previous;
}

/** The practice of the desk already in the folder (read with its own key), or null for an empty folder. */
export function practiceOfFolder(database: string, key: Buffer | null): string | null {
  if (databaseFileState(database) === 'missing') return null;
  if (!key) return null;
  const sqlite = openWithKey(database, key, true);
  try {
    const hasSettings = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'settings'").get();
    if (!hasSettings) return null;
    const row = sqlite.prepare("SELECT value FROM settings WHERE key = 'practice_id'").get() as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as string) : null;
  } finally {
    sqlite.close();
  }
}
