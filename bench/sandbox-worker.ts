import { parentPort, workerData } from 'node:worker_threads';
import { startSandbox } from '@src/main/sandbox/start-sandbox';

/**
 * The sandbox upstream on its own thread: an upstream is never in the desk's process, and
 * here its work does not share an event loop with the sync worker or the bare loop it serves.
 */
export interface SandboxWorkerData {
  apiKey: string;
  dbFile: string;
  /**
   * `NORMAL`: the sandbox's commits skip fsync, a stand-in for an upstream faster than this
   * machine's disk, to show the sync worker's own ceiling. Absent: the sandbox as shipped.
   */
  synchronous?: 'NORMAL';
}

const data = workerData as SandboxWorkerData;
startSandbox({ apiKey: data.apiKey, dbFile: data.dbFile, latencyMs: 0 }).then(
  (sandbox) => {
    if (data.synchronous) sandbox.database.sqlite.pragma(`synchronous = ${data.synchronous}`);
    parentPort!.postMessage({ url: sandbox.url });
    parentPort!.once('message', () => {
      void sandbox.close().then(() => parentPort!.postMessage({ closed: true }));
    });
  },
  (error: unknown) => parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) }),
);
