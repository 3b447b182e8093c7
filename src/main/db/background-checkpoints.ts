import { Worker } from 'node:worker_threads';
import { databaseKeyPragmas } from './database-cipher';
import type { SqliteHandle } from './open-database';

/**
 * WAL checkpoints taken off the desk's thread while a bulk writer runs (a new desk's
 * bootstrap). SQLite checkpoints in the commit that crosses `wal_autocheckpoint` (1,000
 * pages): that commit copies the WAL into the file and waits for two fsyncs, on the thread
 * the desk's own creates wait for. A bootstrap page dirties about 70 pages (the birth-date
 * index is spread over the whole table), so every 14th page paid it: 40% of the pages'
 * commit time and 100+ ms pauses. Here the connection's automatic checkpoints are off and a
 * worker thread with its own connection checkpoints (PASSIVE: never blocks the writer) every
 * `everyMs`, in parallel with the next pages' work. The WAL stays bounded by what the
 * writer adds in `everyMs`.
 */
export interface BackgroundCheckpoints {
  /** Ends the worker (after its checkpoint in progress) and gives the connection its automatic checkpoints back. */
  stop(): Promise<void>;
}

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqliteModule);
const sqlite = new Database(workerData.file, { fileMustExist: true });
for (const pragma of workerData.keyPragmas) sqlite.pragma(pragma);
// The key is checked before anything else: a wrong one fails here, not in a checkpoint.
sqlite.prepare('SELECT count(*) FROM sqlite_master').get();
sqlite.pragma('busy_timeout = 1000');
const checkpoint = () => {
  try {
    sqlite.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    // Busy (another checkpoint, a backup) is tried again at the next tick.
    if (!(error && error.code === 'SQLITE_BUSY')) throw error;
  }
};
checkpoint();
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  sqlite.close();
  parentPort.close();
});
parentPort.postMessage('ready');
`;

export function checkpointInBackground(input: { sqlite: SqliteHandle; key?: Buffer; everyMs?: number; onError?(error: Error): void }): BackgroundCheckpoints {
  const { sqlite } = input;
  const automatic = sqlite.pragma('wal_autocheckpoint', { simple: true }) as number;
  const restore = () => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${automatic}`);
  };
  sqlite.pragma('wal_autocheckpoint = 0');
  const worker = new Worker(SOURCE, {
    eval: true,
    workerData: {
      file: sqlite.name,
      everyMs: input.everyMs ?? 100,
      keyPragmas: input.key ? databaseKeyPragmas(input.key) : [],
      sqliteModule: require.resolve('better-sqlite3-multiple-ciphers'),
    },
  });
  // A worker that could not open the file or failed a checkpoint: the connection checkpoints
  // for itself again at once, so the WAL never grows without bound.
  worker.once('error', (error) => {
    restore();
    input.onError?.(error);
  });
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let stopping: Promise<void> | null = null;
  return {
    stop() {
      stopping ??= (async () => {
        worker.postMessage('stop');
        await exited;
        restore();
      })();
      return stopping;
    },
  };
}
