import type { Db } from '../db/open-database';
import type { AuditLog } from '../security/audit-log';
import { readIdleLockSettings, saveIdleLockSettings } from '../security/idle-lock-settings';
import type { HandlersFor } from './handlers';

/** Session safety in Settings: the audit log (read, plus the UI's print/export entries) and the idle lock. */
export function auditHandlers({ audit, db }: { audit: AuditLog; db: Db }): HandlersFor<'audit.list' | 'audit.record' | 'idleLock.get' | 'idleLock.update'> {
  return {
    'audit.list': async (input) => audit.list(input),
    'audit.record': async ({ action, record_id }) => audit.append(action, record_id),
    'idleLock.get': async () => readIdleLockSettings(db),
    'idleLock.update': async (input) => saveIdleLockSettings(db, input),
  };
}
