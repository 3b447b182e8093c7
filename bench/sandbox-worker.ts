import { parentPort, workerData } from 'node:worker_threads';
import { startSandbox } from '@src/main/sandbox/start-sandbox';
import { countInFlight, profileThisThread, threadCpuMs, type InFlightSnapshot } from './thread-load';

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
  /** `--profile`: count the requests in flight and answer `'load'` with a `SandboxLoad`. */
  profile?: boolean;
}

/** The sandbox thread's CPU and its requests in flight, for `--profile`. */
export interface SandboxLoad {
  cpuMs: number;
  requests: InFlightSnapshot;
}

const data = workerData as SandboxWorkerData;
const inFlight = data.profile ? countInFlight('server') : null;
startSandbox({ apiKey: data.apiKey, dbFile: data.dbFile, latencyMs: 0 }).then(
  (sandbox) => {
    if (data.synchronous) sandbox.database.sqlite.pragma(`synchronous = ${data.synchronous}`);
    parentPort!.postMessage({ url: sandbox.url });
    let stopProfile: (() => Promise<object>) | null = null;
    parentPort!.on('message', (message: 'close' | 'load' | 'profile' | 'profile-end') => {
      if (message === 'load' && inFlight) {
        parentPort!.postMessage({ load: { cpuMs: threadCpuMs(), requests: inFlight() } satisfies SandboxLoad });
        return;
      }
      if (message === 'profile') {
        void profileThisThread().then((stop) => {
          stopProfile = stop;
          parentPort!.postMessage({ profiling: true });
        });
        return;
      }
      if (message === 'profile-end') {
        void stopProfile?.().then((profile) => parentPort!.postMessage({ profile }));
        return;
      }
      void sandbox.close().then(() => parentPort!.postMessage({ closed: true }));
    });
  },
  (error: unknown) => parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) }),
);
