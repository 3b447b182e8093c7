/**
 * `npm run restore -- --from BACKUP --data-dir DIR [--key-file FILE | --recovery-code CODE]`:
 * restores a backup folder (one `coverdesk-backup-…`, or the folder holding them: the newest
 * is taken) into a data folder, with Coverdesk closed. FILE is the backed-up desk's
 * `database.key` (the web host's); CODE is the desk's recovery code, which opens the key the
 * backup carries wrapped (the desktop app's key, kept by the old computer's key store, cannot
 * travel otherwise); neither: the data folder's own key file. A code that opens the key is
 * used up: the restored desk asks for a new recovery sheet.
 * Exit 0 restored, 1 refused or failed, 2 usage.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { coverdeskVersion, listBackups, MANIFEST } from '../src/main/backup/desk-backup';
import { practiceOfFolder, restoreBackup } from '../src/main/backup/desk-restore';
import { keyFilePaths, readOrCreateKeyFile } from '../src/main/db/database-key';
import { hostPaths } from '../src/main/host/create-host';
import { openWithRecoveryCode, RecoveryCodeError, recoveryFilePath } from '../src/main/security/recovery-code';

const clock = { now: () => new Date() };

/** The key the backup carries wrapped by the recovery code; the backup itself is never written. */
function keyFromRecoveryCode(from: string, code: string): Buffer {
  if (!fs.existsSync(recoveryFilePath(from))) {
    throw new Error(`This backup carries no recovery-code key (${path.basename(from)} was made before the desk had a recovery sheet). Nothing was restored. Give the old desk's key file with --key-file FILE instead.`);
  }
  return openWithRecoveryCode({ clock }, { dataDir: from, code, consume: false });
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { from: { type: 'string' }, 'data-dir': { type: 'string' }, 'key-file': { type: 'string' }, 'recovery-code': { type: 'string' } } });
  const dataDir = values['data-dir'];
  if (!dataDir || !values.from || (values['key-file'] && values['recovery-code'])) {
    console.error(
      'Usage: npm run restore -- --from BACKUP_FOLDER --data-dir DIR [--key-file FILE | --recovery-code CODE]   (FILE: the database.key of the desk that made the backup; CODE: its recovery sheet\'s code)',
    );
    return 2;
  }
  try {
    const from = fs.existsSync(path.join(values.from, MANIFEST)) ? values.from : listBackups(values.from)[0];
    if (!from) throw new Error(`No Coverdesk backup in ${values.from}: choose a folder named coverdesk-backup-… or the folder that holds them.`);
    const ownKeyFile = keyFilePaths(dataDir).plain;
    const code = values['recovery-code'];
    const keyFile = values['key-file'] ?? ownKeyFile;
    if (!code && !fs.existsSync(keyFile)) throw new Error(`No key to open the backup: ${keyFile} does not exist. Give the key file of the desk that made the backup with --key-file FILE, or its recovery code with --recovery-code CODE.`);
    const key = code ? keyFromRecoveryCode(from, code) : readOrCreateKeyFile({ file: keyFile, mayCreate: false });
    const paths = hostPaths(dataDir);
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const ownKey = fs.existsSync(ownKeyFile) ? readOrCreateKeyFile({ file: ownKeyFile, mayCreate: false }) : null;
    const { manifest, previous } = await restoreBackup(
      { version: coverdeskVersion(), now: () => new Date() },
      { from, target: { ...paths, dataDir, keyFile: ownKeyFile }, key, targetPracticeId: practiceOfFolder(paths.database, ownKey) },
    );
    // The code has been typed on this computer: used up, as any use of it is.
    if (code) openWithRecoveryCode({ clock }, { dataDir, code, consume: true });
    console.log(`Restored ${path.basename(from)} (made ${manifest.created_at} by desk ${manifest.desk_id}, Coverdesk ${manifest.coverdesk_version}) into ${dataDir}.${previous ? ` The folder's previous files are kept in ${previous}.` : ''}`);
    if (code) console.log('The recovery code is now used: print a new recovery sheet in Settings when Coverdesk starts.');
    return 0;
  } catch (error) {
    if (error instanceof RecoveryCodeError && error.reason !== 'mistyped') console.error(`${error.message.replace(/ Nothing was changed\.$/, '')} Nothing was restored.`);
    else console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

void main().then((code) => (process.exitCode = code));
