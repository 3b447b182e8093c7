import Database from 'better-sqlite3-multiple-ciphers';
import fs from 'node:fs';
import type { AuditVerification } from '../../shared/bridge/security-contract';
import { applyDatabaseKey, databaseFileState } from '../db/database-cipher';
import { DatabaseKeyError, readOrCreateKeyFile } from '../db/database-key';
import { auditChainKey, verifyAuditChain } from './audit-chain';

/**
 * `npm run audit:verify`: the chain of a data folder's database, checked from outside the
 * app. Opened read-only with its key, as the host opens it, and never migrated: checking
 * evidence must not change it.
 */
export function verifyDatabaseFile(paths: { database: string; keyFile: string; wrappedKeyFile: string }): AuditVerification {
  if (databaseFileState(paths.database) === 'missing') throw new DatabaseKeyError(`There is no Coverdesk database at ${paths.database}. Nothing was checked.`);
  if (!fs.existsSync(paths.keyFile) && fs.existsSync(paths.wrappedKeyFile)) {
    throw new DatabaseKeyError(
      `This data folder belongs to the desktop app: its key (${paths.wrappedKeyFile}) is wrapped by the operating system's key store, which only the app can open. ` +
        'Use Verify on the Audit screen instead. Nothing was checked.',
    );
  }
  const key = readOrCreateKeyFile({ file: paths.keyFile, mayCreate: false });
  const sqlite = new Database(paths.database, { readonly: true, fileMustExist: true });
  try {
    applyDatabaseKey(sqlite, key);
    const columns = sqlite.prepare("SELECT name FROM pragma_table_info('audit_log')").all() as { name: string }[];
    if (!columns.some((c) => c.name === 'hash')) {
      throw new DatabaseKeyError('This database was written by a Coverdesk from before the audit chain: start Coverdesk once (it seals the existing entries), then check again. Nothing was checked.');
    }
    return verifyAuditChain(sqlite, auditChainKey(key));
  } finally {
    sqlite.close();
  }
}
