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
  /**
   * For the writer, between its transactions: when the worker last found the WAL past its
   * bound, resolves once a checkpoint has left nothing behind (so the writer's next
   * transaction starts the WAL again from its beginning); otherwise at once.
   */
  catchUp(): Promise<void>;
  /** The WAL's length in frames at the worker's last checkpoint (0 before the first). */
  walFrames(): number;
  /** Ends the worker (after its checkpoint in progress) and gives the connection its automatic checkpoints back. */
  stop(): Promise<void>;
}

/**
 * The WAL's bound, in frames (about 16 MiB): four times the automatic checkpoint's threshold.
 * SQLite starts the WAL again from its beginning only when a writer begins while every frame
 * has been copied; a writer committing every few milliseconds can land inside each of the
 * worker's checkpoints on a loaded machine, and the WAL grows for as long as it does (to
 * 191 MB, left on disk at that size, while a million-record practice bootstrapped).
 */
const WAL_BOUND_FRAMES = 4_000;

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
    return sqlite.pragma('wal_checkpoint(PASSIVE)')[0];
  } catch (error) {
    // Busy (another checkpoint, a backup) is tried again at the next tick.
    if (!(error && error.code === 'SQLITE_BUSY')) throw error;
    return null;
  }
};
const tick = () => {
  const done = checkpoint();
  if (done) parentPort.postMessage({ log: done.log });
};
tick();
const timer = setInterval(tick, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message === 'catch-up') {
    // The writer waits for this answer: checkpoints until one leaves nothing behind (a desk
    // write in between adds frames; bounded, the writer goes on regardless).
    let done = null;
    for (let i = 0; i < 50 && !(done && done.checkpointed >= done.log); i++) done = checkpoint();
    parentPort.postMessage({ log: done ? done.log : -1, caughtUp: true });
    return;
  }
  clearInterval(timer);
  sqlite.close();
  parentPort.close();
});
parentPort.postMessage('ready');
`;

export function checkpointInBackground(input: { sqlite: SqliteHandle; key?: Buffer; everyMs?: number; boundFrames?: number; onError?(error: Error): void }): BackgroundCheckpoints {
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
  const bound = input.boundFrames ?? WAL_BOUND_FRAMES;
  let frames = 0;
  let pastBound = false;
  let caughtUp: (() => void) | null = null;
  let catching: Promise<void> | null = null;
  worker.on('message', (message: { log?: number; caughtUp?: boolean }) => {
    if (typeof message?.log !== 'number') return;
    if (message.log >= 0) frames = message.log;
    pastBound = frames > bound;
    if (message.caughtUp) caughtUp?.();
  });
  let ended = false;
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      ended = true;
      // A writer waiting for a worker that is gone goes on (the connection checkpoints for itself again).
      caughtUp?.();
      resolve();
    }),
  );
  let stopping: Promise<void> | null = null;
  return {
    catchUp() {
      if (!pastBound || ended) return Promise.resolve();
      catching ??= new Promise<void>((resolve) => {
        caughtUp = () => {
          caughtUp = null;
          catching = null;
          resolve();
        };
        worker.postMessage('catch-up');
      });
      return catching;
    },
    walFrames: () => frames,
    stop() {
      stopping ??= (async () => {
        ended = true;
        caughtUp?.();
        worker.postMessage('stop');
        await exited;
        restore();
      })();
      return stopping;
    },
  };
}
