/**
 * `npm run audit:verify -- --data-dir DIR`: checks the audit log's chain of seals in a data
 * folder (the web host's or a test's: the key file beside the database) and prints "Intact"
 * with the number of entries, or the first entry changed, removed or inserted. Exit 0 intact,
 * 1 not intact, 2 could not check.
 */
import { parseArgs } from 'node:util';
import { verifyDatabaseFile } from '../src/main/audit/verify-database-file';
import { keyFilePaths } from '../src/main/db/database-key';
import { hostPaths } from '../src/main/host/create-host';

function main(): number {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' } } });
  const dataDir = values['data-dir'];
  if (!dataDir) {
    console.error('Usage: npm run audit:verify -- --data-dir DIR   (the folder that holds coverdesk.sqlite and database.key)');
    return 2;
  }
  try {
    const keys = keyFilePaths(dataDir);
    const result = verifyDatabaseFile({ database: hostPaths(dataDir).database, keyFile: keys.plain, wrappedKeyFile: keys.wrapped });
    (result.intact ? console.log : console.error)(result.message);
    return result.intact ? 0 : 1;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
}

process.exitCode = main();
