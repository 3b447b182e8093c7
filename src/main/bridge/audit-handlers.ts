import type { Db } from '../db/open-database';
import type { AuditLog } from '../audit/audit-log';
import { exportAuditRows, searchAuditRows } from '../audit/audit-rows';
import type { Clock } from '../support/clock';
import { readIdleLockSettings, saveIdleLockSettings } from '../security/idle-lock-settings';
import type { HandlersFor } from './handlers';

/** Session safety in Settings: the audit log (read, plus the UI's print/export entries) and the idle lock. */
export function auditHandlers({
  audit,
  db,
  clock,
}: {
  audit: AuditLog;
  db: Db;
  clock: Clock;
}): HandlersFor<'audit.list' | 'audit.record' | 'audit.search' | 'audit.export' | 'audit.verify' | 'idleLock.get' | 'idleLock.update'> {
  return {
    'audit.search': async (input) => searchAuditRows({ db }, input),
    'audit.export': async (filter) => exportAuditRows({ db, clock }, filter),
    'audit.list': async (input) => audit.list(input),
    'audit.record': async ({ action, record_id }) => audit.append(action, record_id),
    'audit.verify': async () => audit.verify(),
    'idleLock.get': async () => readIdleLockSettings(db),
    'idleLock.update': async (input) => saveIdleLockSettings(db, input),
  };
}
