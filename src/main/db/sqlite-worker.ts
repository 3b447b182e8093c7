import { Worker } from 'node:worker_threads';
import { databaseKeyPragmas } from './database-cipher';
import { quickCheck } from './start-check';
import { tableCounts } from './table-counts';

/** The worker did not answer in time: it was ended, its connection with it. */
export class SqliteWorkerTimeout extends Error {
  constructor(readonly ms: number) {
    super(`The database worker did not answer within ${ms} ms.`);
    this.name = 'SqliteWorkerTimeout';
  }
}

/**
 * Runs `body` on a worker thread with its own connections, so a long read of the database
 * (a backup's copy, the start-up check) never holds the desk's thread. The script is eval'd,
 * not a file: the same code runs under vitest and tsx (TypeScript sources a worker cannot
 * load) and bundled in out/main. `body` sees `open(file)` (read-only, with the key),
 * `quickCheck`, `tableCounts` (the host's own functions, passed as their source: one copy of
 * each), `fs` and `workerData`, and assigns what it answers to `result`.
 */
export function runOnSqliteWorker<T>(input: { body: string; key: Buffer; data: Record<string, unknown>; timeoutMs?: number; what: string }): Promise<T> {
  const source = `
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
${input.body}
parentPort.postMessage(result);
`;
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(source, {
      eval: true,
      workerData: { ...input.data, keyPragmas: databaseKeyPragmas(input.key), sqliteModule: require.resolve('better-sqlite3-multiple-ciphers') },
    });
    let settled = false;
    const timer =
      input.timeoutMs === undefined
        ? null
        : setTimeout(() => {
            settled = true;
            void worker.terminate();
            reject(new SqliteWorkerTimeout(input.timeoutMs!));
          }, input.timeoutMs);
    const settle = () => {
      settled = true;
      if (timer) clearTimeout(timer);
    };
    worker.once('message', (result: T) => {
      if (settled) return;
      settle();
      resolve(result);
    });
    worker.once('error', (error) => {
      if (settled) return;
      settle();
      reject(error);
    });
    worker.once('exit', (code) => {
      if (settled) return;
      settle();
      reject(new Error(`${input.what} stopped (worker exit ${code}).`));
    });
  });
}
