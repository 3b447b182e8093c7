import fs from 'node:fs';
import path from 'node:path';
import type { BackupListing, BackupRestored, BackupSettings, BackupSettingsUpdate, BackupStatus } from '../../shared/bridge/backup-contract';
import { ServiceError, validationFailed } from '../../shared/service-error';
import type { SqliteHandle } from '../db/open-database';
import type { Clock } from '../support/clock';
import type { HostComponent } from '../support/host-component';
import type { HostLog } from '../support/host-log';
import { BackupError, createBackup, deskIdentity, listBackups, readBackupManifestSeal, type DeskFiles } from './desk-backup';
import { restoreBackup } from './desk-restore';

/**
 * Settings → Backups: the chosen folder, the schedule (every N hours while the desk runs) and
 * the last outcome, in the settings table; the scheduled and on-demand backups, one at a time.
 */
export interface BackupComponent extends HostComponent {
  status(): BackupStatus;
  update(change: BackupSettingsUpdate): BackupStatus;
  /** Backs up now; a failure is recorded (and shown) rather than thrown. */
  run(): Promise<BackupStatus>;
  /** The backups in the chosen folder that this desk's key opens, newest first. */
  list(): BackupListing[];
  /**
   * Checks and stages one of them for the next start (the desk keeps running on its files
   * until then), then calls `onRestoreStaged`. Refused with the reason, nothing changed.
   */
  restore(name: string): Promise<BackupRestored>;
}

export interface BackupComponentDeps {
  sqlite: SqliteHandle;
  files: DeskFiles;
  clock: Clock;
  key: Buffer;
  version: string;
  log: HostLog['write'];
  /** How often the schedule looks whether a backup is due (tests: tens of milliseconds). */
  checkEveryMs?: number;
  /** The data folder a restore is staged in, and where a restore would write a key (Settings' never does). */
  dataDir: string;
  keyFile: string;
  /** A restore is staged: no write may reach the old files again, and the host must restart to swap it in. */
  onRestoreStaged(): void;
}

const DEFAULTS: BackupSettings = { folder: null, every_hours: 24, keep: 7 };
const CHECK_EVERY_MS = 60_000;
type Outcome = { last_verified: BackupStatus['last_verified']; last_failure: BackupStatus['last_failure']; last_attempt_at: string | null };

export function createBackupComponent(deps: BackupComponentDeps): BackupComponent {
  const { sqlite } = deps;
  let running: Promise<BackupStatus> | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;

  const readJson = <T>(key: string): T | null => {
    const row = sqlite.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : null;
  };
  const writeJson = (key: string, value: unknown) =>
    sqlite.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, JSON.stringify(value));
  const settings = (): BackupSettings => ({ ...DEFAULTS, ...readJson<Partial<BackupSettings>>('backup_settings') });
  const outcome = (): Outcome => ({ last_verified: null, last_failure: null, last_attempt_at: null, ...readJson<Partial<Outcome>>('backup_status') });

  const nextAt = (): string | null => {
    const s = settings();
    if (!s.folder || s.every_hours === 0) return null;
    const last = outcome().last_attempt_at;
    const due = last ? new Date(Date.parse(last) + s.every_hours * 3_600_000) : deps.clock.now();
    return due.toISOString();
  };

  const status = (): BackupStatus => {
    const { last_verified, last_failure } = outcome();
    return { settings: settings(), last_verified, last_failure, running: running !== null, next_at: nextAt() };
  };

  async function backUp(): Promise<void> {
    const s = settings();
    const at = deps.clock.now().toISOString();
    const before = outcome();
    try {
      if (!s.folder) throw new BackupError('No backup folder is chosen: choose one in Settings → Backups.', 'folder_unavailable');
      const made = await createBackup(
        { clock: deps.clock, key: deps.key, version: deps.version },
        { files: deps.files, identity: deskIdentity(sqlite), to: s.folder, keep: s.keep },
      );
      const records = Object.values(made.manifest.counts).reduce((a, b) => a + b, 0);
      writeJson('backup_status', { ...before, last_attempt_at: at, last_verified: { at: made.manifest.created_at, folder: made.folder, records }, last_failure: null });
      deps.log('backup.verified', { files: Object.keys(made.manifest.files).length, removed: made.removed.length });
    } catch (error) {
      const message = error instanceof BackupError ? error.message : `The backup failed (${(error as { code?: string }).code ?? 'error'}); nothing on this desk was changed. Try again, or choose another folder.`;
      writeJson('backup_status', { ...before, last_attempt_at: at, last_failure: { at, message } });
      // The reason code only: the message names a folder, never a record, but logs carry ids and codes.
      deps.log('backup.failed', { reason: error instanceof BackupError ? error.reason : 'failed' });
    }
  }

  // One at a time: a second "Back up now" while one runs waits for it. The status is read after `running` is cleared.
  const run = (): Promise<BackupStatus> => {
    running ??= backUp().finally(() => (running = null)).then(() => status());
    return running;
  };

  let restoreStaged = false;
  const refuseName = (code: string, message: string) => validationFailed([{ path: 'name', code, message }]);

  async function restore(name: string): Promise<BackupRestored> {
    const folder = settings().folder;
    if (!folder) throw refuseName('no_folder', 'No backup folder is chosen: choose the folder that holds the backups in Settings → Backups, then pick one.');
    const from = path.join(folder, name);
    if (!listBackups(folder).includes(from)) throw refuseName('not_found', `${name} is not a backup in ${folder}: pick one from the list.`);
    // Staged once: a second one would be swapped in under the running desk by the first's bookkeeping.
    if (restoreStaged) throw new ServiceError('service_unavailable', 'A backup is already restored and waits for Coverdesk to restart: close Coverdesk and open it again.');
    // A backup under way finishes first: it reads the files the restore will put aside.
    await running;
    let previous: string | null;
    try {
      ({ previous } = await restoreBackup(
        { version: deps.version, now: () => deps.clock.now() },
        {
          from,
          target: { ...deps.files, dataDir: deps.dataDir, keyFile: deps.keyFile },
          key: deps.key,
          targetPracticeId: deskIdentity(sqlite).practice_id,
          swap: 'next-start',
          writeKey: false,
        },
      ));
    } catch (error) {
      if (error instanceof BackupError) throw refuseName(error.reason, error.message);
      throw new ServiceError('internal_error', `The backup could not be restored (${(error as { code?: string }).code ?? 'error'}); nothing on this desk was changed. Try again, or restore another backup.`);
    }
    restoreStaged = true;
    deps.log('backup.restore_staged', {});
    deps.onRestoreStaged();
    return { restored: name, kept_aside_as: path.basename(previous!) };
  }

  return {
    name: 'backups',
    status,
    run,
    restore,
    list() {
      const folder = settings().folder;
      if (!folder) return [];
      return listBackups(folder).flatMap((backup) => {
        try {
          const manifest = readBackupManifestSeal(backup, deps.key);
          const records = Object.values(manifest.counts).reduce((a, b) => a + b, 0);
          return [{ name: path.basename(backup), created_at: manifest.created_at, coverdesk_version: manifest.coverdesk_version, records }];
        } catch {
          // Another desk's key, or a changed manifest: not this desk's to restore.
          return [];
        }
      });
    },
    update(change) {
      const next = { ...settings() };
      if (change.folder !== undefined) {
        if (change.folder !== null) {
          const folder = change.folder;
          const problem = !path.isAbsolute(folder)
            ? 'folder must be a full path (for example D:\\Backups or /Volumes/USB/Coverdesk).'
            : !fs.existsSync(folder) || !fs.statSync(folder).isDirectory()
              ? `folder ${folder} does not exist or is not a folder: connect the disk or share, or create the folder, then choose it again.`
              : null;
          if (problem) throw validationFailed([{ path: 'folder', code: 'invalid_folder', message: problem }]);
        }
        next.folder = change.folder;
      }
      if (change.every_hours !== undefined) next.every_hours = change.every_hours;
      if (change.keep !== undefined) next.keep = change.keep;
      writeJson('backup_settings', next);
      return status();
    },
    async start() {
      timer = setInterval(() => {
        const due = nextAt();
        if (due && Date.parse(due) <= deps.clock.now().getTime()) void run();
      }, deps.checkEveryMs ?? CHECK_EVERY_MS);
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
