/**
 * `npm run restore -- --from BACKUP --data-dir DIR [--key-file FILE]`: restores a backup
 * folder (one `coverdesk-backup-…`, or the folder holding them: the newest is taken) into a
 * data folder, with Coverdesk closed. FILE is the backed-up desk's `database.key` (the web
 * host's); absent, the data folder's own. The recovery code (the staff issue) is not built yet.
 * Exit 0 restored, 1 refused or failed, 2 usage.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { coverdeskVersion, listBackups, MANIFEST } from '../src/main/backup/desk-backup';
import { practiceOfFolder, restoreBackup } from '../src/main/backup/desk-restore';
import { keyFilePaths, readOrCreateKeyFile } from '../src/main/db/database-key';
import { hostPaths } from '../src/main/host/create-host';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { from: { type: 'string' }, 'data-dir': { type: 'string' }, 'key-file': { type: 'string' } } });
  const dataDir = values['data-dir'];
  if (!dataDir || !values.from) {
    console.error('Usage: npm run restore -- --from BACKUP_FOLDER --data-dir DIR [--key-file FILE]   (FILE: the database.key of the desk that made the backup)');
    return 2;
  }
  try {
    const from = fs.existsSync(path.join(values.from, MANIFEST)) ? values.from : listBackups(values.from)[0];
    if (!from) throw new Error(`No Coverdesk backup in ${values.from}: choose a folder named coverdesk-backup-… or the folder that holds them.`);
    const ownKeyFile = keyFilePaths(dataDir).plain;
    const keyFile = values['key-file'] ?? ownKeyFile;
    if (!fs.existsSync(keyFile)) throw new Error(`No key to open the backup: ${keyFile} does not exist. Give the key file of the desk that made the backup with --key-file FILE.`);
    const key = readOrCreateKeyFile({ file: keyFile, mayCreate: false });
    const paths = hostPaths(dataDir);
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const ownKey = fs.existsSync(ownKeyFile) ? readOrCreateKeyFile({ file: ownKeyFile, mayCreate: false }) : null;
    const { manifest, previous } = await restoreBackup(
      { version: coverdeskVersion(), now: () => new Date() },
      { from, target: { ...paths, dataDir, keyFile: ownKeyFile }, key, targetPracticeId: practiceOfFolder(paths.database, ownKey) },
    );
    console.log(`Restored ${path.basename(from)} (made ${manifest.created_at} by desk ${manifest.desk_id}, Coverdesk ${manifest.coverdesk_version}) into ${dataDir}.${previous ? ` The folder's previous files are kept in ${previous}.` : ''}`);
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

void main().then((code) => (process.exitCode = code));
