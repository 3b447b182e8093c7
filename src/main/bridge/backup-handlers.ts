import type { BackupComponent } from '../backup/backup-component';
import type { HandlersFor } from './handlers';

/** Settings → Backups: the folder and schedule, back up now, and what the last backup did. */
export function backupHandlers(deps: { backups: BackupComponent }): HandlersFor<'backups.status' | 'backups.update' | 'backups.run' | 'backups.list' | 'backups.restore'> {
  return {
    'backups.status': async () => deps.backups.status(),
    'backups.update': async (change) => deps.backups.update(change),
    'backups.run': async () => deps.backups.run(),
    'backups.list': async () => deps.backups.list(),
    'backups.restore': async ({ name }) => deps.backups.restore(name),
  };
}
