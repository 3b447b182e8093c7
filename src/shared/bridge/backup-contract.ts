import { z } from 'zod';
import { Timestamp } from '../contract';

/**
 * Settings → Backups (issue 29): where the desk's encrypted backups go, how often, how many
 * are kept, and what the last one did. The backup itself is `src/main/backup/`.
 */
export const BackupSettings = z.object({
  /** An absolute path to a folder this computer can write to (a share, a USB disk); null: none chosen. */
  folder: z.string().nullable(),
  /** Every N hours while the desk runs; 0: only on demand. */
  every_hours: z.number().int().min(0).max(168),
  /** Backups kept in the folder; older ones are removed once a new one is verified. */
  keep: z.number().int().min(1).max(100),
});
export type BackupSettings = z.infer<typeof BackupSettings>;

export const BackupSettingsUpdate = z.strictObject({
  folder: z.string().trim().min(1).max(1000).nullable().optional(),
  every_hours: z.number().int().min(0).max(168).optional(),
  keep: z.number().int().min(1).max(100).optional(),
});
export type BackupSettingsUpdate = z.infer<typeof BackupSettingsUpdate>;

export const BackupStatus = z.object({
  settings: BackupSettings,
  /** The newest backup that was written and verified. */
  last_verified: z.object({ at: Timestamp, folder: z.string(), records: z.number().int() }).nullable(),
  /** The last attempt that failed, if it came after the last verified one. */
  last_failure: z.object({ at: Timestamp, message: z.string() }).nullable(),
  running: z.boolean(),
  /** When the schedule makes the next one (null: no schedule or no folder). */
  next_at: Timestamp.nullable(),
});
export type BackupStatus = z.infer<typeof BackupStatus>;

/** A backup in the chosen folder that this desk's key opens (its manifest's seal checked; its files are checked at restore). */
export const BackupListing = z.object({
  /** The backup's folder name inside the chosen folder (`coverdesk-backup-<time>`). */
  name: z.string(),
  created_at: Timestamp,
  coverdesk_version: z.string(),
  records: z.number().int(),
});
export type BackupListing = z.infer<typeof BackupListing>;

export const BackupRestoreInput = z.strictObject({
  /** One of `backups.list`'s names: a folder name, never a path. */
  name: z
    .string()
    .regex(/^coverdesk-backup-[A-Za-z0-9_.-]+$/, 'name must be the name of a backup in the backup folder (coverdesk-backup-…), not a path.'),
});
export type BackupRestoreInput = z.infer<typeof BackupRestoreInput>;

export const BackupRestored = z.object({
  restored: z.string(),
  /** Where this desk's data before the restore is kept, inside the data folder. */
  kept_aside_as: z.string(),
});
export type BackupRestored = z.infer<typeof BackupRestored>;
