import fs from 'node:fs';
import type { RecoverySheet, RecoveryStatus } from '../../shared/bridge/recovery-contract';
import { toTimestamp } from '../../shared/contract';
import type { AuditLog } from '../audit/audit-log';
import { makeRecoveryCode, openWithRecoveryCode, recoveryFilePath, recoveryStatus, type RecoveryDeps } from './recovery-code';

/** The subject of the recovery code's audit entries: a name from the code, never the code. */
export const RECOVERY_AUDIT_SUBJECT = 'desk:recovery_code';

export interface DeskRecoveryDeps extends RecoveryDeps {
  dataDir: string;
  /** The open database's key: what a new code wraps. */
  key: Buffer;
  audit: Pick<AuditLog, 'append'>;
  desk: string;
  practiceName: () => string | null;
}

export interface DeskRecovery {
  status(): RecoveryStatus;
  /** The desk's first code, if it has none; null once it has one (a sheet is shown once). */
  setup(): RecoverySheet | null;
  newSheet(): RecoverySheet;
  emergencyAccess(input: { code: string }): { granted: true; at: string };
}

/** The recovery code as the running desk offers it (bridge `recovery.*`). */
export function createDeskRecovery(deps: DeskRecoveryDeps): DeskRecovery {
  const sheet = (): RecoverySheet => {
    const made = makeRecoveryCode(deps, { dataDir: deps.dataDir, key: deps.key });
    deps.audit.append('recovery_sheet', RECOVERY_AUDIT_SUBJECT);
    return { code: made.code, made_at: toTimestamp(new Date(made.made_at)), practice_name: deps.practiceName(), desk: deps.desk };
  };
  return {
    status: () => {
      const { made_at, used_at } = recoveryStatus(deps.dataDir);
      return { made_at: made_at && toTimestamp(new Date(made_at)), used_at: used_at && toTimestamp(new Date(used_at)) };
    },
    setup: () => (fs.existsSync(recoveryFilePath(deps.dataDir)) ? null : sheet()),
    newSheet: sheet,
    /**
     * Emergency access (issue 28, item 5), host side. Contract: `code` is checked (format and
     * check letters, then the KDF) against this desk's current recovery wrap; if it is right
     * and unused it is marked used, one `emergency_access` entry is audited, and
     * `{ granted: true }` is answered. Otherwise a RecoveryCodeError (mistyped, wrong, used,
     * none) and nothing is written. What the grant allows (one-time manager rights, a new PIN
     * at the next sign-in) is the sign-in's to decide; this only proves the sheet was at hand.
     */
    emergencyAccess({ code }) {
      openWithRecoveryCode(deps, { dataDir: deps.dataDir, code, consume: true });
      const entry = deps.audit.append('emergency_access', RECOVERY_AUDIT_SUBJECT);
      return { granted: true, at: entry.at };
    },
  };
}
