import { Worker } from 'node:worker_threads';
import { databaseKeyPragmas } from '../db/database-cipher';
import { quickCheck } from '../db/start-check';
import { tableCounts } from '../db/table-counts';

/**
 * The backup's database copy (`VACUUM INTO`) and its check run on a worker thread with its own
 * read-only connection: on the host's thread the desk stopped answering for ~13 s at 100,000
 * records. A read connection sees a consistent snapshot in WAL mode (the WAL's frames included)
 * while the desk keeps writing on its own.
 *
 * The worker is an eval'd script rather than a file: the same code runs under vitest and tsx
 * (TypeScript sources a worker cannot load) and bundled in out/main. The check and the counts
 * are the host's own functions, passed as their source so there is one copy of each.
 */
const workerSource = () => `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const Database = require(workerData.sqliteModule);
const quickCheck = ${quickCheck.toString()};
const tableCounts = ${tableCounts.toString()};
function open(file) {
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  try {
    for (const pragma of workerData.keyPragmas) sqlite.pragma(pragma);
    sqlite.prepare('SELECT count(*) FROM sqlite_master').get();
    return sqlite;
  } catch (error) {
    sqlite.close();
    throw error;
  }
}
const failure = (stage, error) => ({ ok: false, stage, code: (error && error.code) || 'error', message: error instanceof Error ? error.message : String(error) });
let result;
try {
  const source = open(workerData.source);
  try {
    source.prepare('VACUUM INTO ?').run(workerData.target);
  } finally {
    source.close();
  }
  const fd = fs.openSync(workerData.target, 'r');
  try { fs.fsyncSync(fd); } finally { fs.closeSync(fd); }
  let copy;
  try {
    copy = open(workerData.target);
  } catch (error) {
    result = failure('verify', error);
  }
  if (copy) {
    try {
      result = { ok: true, problems: quickCheck(copy), counts: tableCounts(copy) };
    } finally {
      copy.close();
    }
  }
} catch (error) {
  result = failure('copy', error);
}
parentPort.postMessage(result);
`;

export type DatabaseCopyResult =
  | { ok: true; problems: string[]; counts: Record<string, number> }
  | { ok: false; stage: 'copy' | 'verify'; code: string; message: string };

/** Copies `source` (encrypted with `key`) to `target` with the same key, on a worker thread; answers the copy's check and counts. */
export function copyDatabaseOnWorker(input: { source: string; target: string; key: Buffer }): Promise<DatabaseCopyResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerSource(), {
      eval: true,
      workerData: { source: input.source, target: input.target, keyPragmas: databaseKeyPragmas(input.key), sqliteModule: require.resolve('better-sqlite3-multiple-ciphers') },
    });
    let settled = false;
    worker.once('message', (result: DatabaseCopyResult) => {
      settled = true;
      resolve(result);
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`The backup's database copy stopped (worker exit ${code}).`));
    });
  });
}
