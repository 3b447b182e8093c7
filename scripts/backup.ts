/**
 * `npm run backup -- --data-dir DIR --to FOLDER [--keep K]`: an encrypted, verified backup of
 * a data folder (the web host's or a test's: `database.key` beside the database) into FOLDER.
 * Prints the backup's folder and counts; exit 0 done, 1 refused or failed, 2 usage.
 */
import { parseArgs } from 'node:util';
import { createBackup, coverdeskVersion, deskIdentity } from '../src/main/backup/desk-backup';
import { keyFilePaths, readOrCreateKeyFile } from '../src/main/db/database-key';
import { openDatabase } from '../src/main/db/open-database';
import { hostPaths } from '../src/main/host/create-host';
import { systemClock } from '../src/main/support/clock';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, to: { type: 'string' }, keep: { type: 'string', default: '7' } } });
  const dataDir = values['data-dir'];
  const keep = Number(values.keep);
  if (!dataDir || !values.to || !Number.isInteger(keep) || keep < 1) {
    console.error('Usage: npm run backup -- --data-dir DIR --to FOLDER [--keep K]   (K: backups kept in FOLDER, a whole number ≥ 1; default 7)');
    return 2;
  }
  try {
    const key = readOrCreateKeyFile({ file: keyFilePaths(dataDir).plain, mayCreate: false });
    const paths = hostPaths(dataDir);
    const opened = openDatabase({ file: paths.database, key });
    try {
      const identity = deskIdentity(opened.sqlite);
      const result = await createBackup({ clock: systemClock, key, version: coverdeskVersion() }, { files: paths, identity, to: values.to, keep });
      const records = Object.values(result.manifest.counts).reduce((a, b) => a + b, 0);
      console.log(`Backup verified: ${result.folder} (${records} rows, ${Object.keys(result.manifest.files).length} files)${result.removed.length ? `; removed ${result.removed.length} older` : ''}`);
      return 0;
    } finally {
      opened.close();
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

void main().then((code) => (process.exitCode = code));
