import path from 'node:path';
import { startTsWorker } from './harness';

/**
 * POSTs of `body` to `path` on a Unix socket, `concurrency` at a time on keep-alive
 * connections, for `durationMs`: rounds of equal time expose both sides to the same noise.
 */
export interface LoadJob {
  socketPath: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  concurrency: number;
  durationMs: number;
  /** Each request gets `Idempotency-Key: <prefix>-<i>`; absent: no key. */
  idempotencyKeyPrefix?: string;
}

export interface LoadResult {
  elapsedMs: number;
  /** Per request, ms; one per completed request. */
  latencies: number[];
}

export interface HttpLoad {
  run(job: LoadJob): Promise<LoadResult>;
  close(): Promise<void>;
}

/** A load generator on a worker thread: the client's work is not counted as the server's. */
export function startHttpLoad(): HttpLoad {
  const worker = startTsWorker(path.join(__dirname, 'http-load-worker.ts'));
  let pending: { resolve(result: LoadResult): void; reject(error: Error): void } | null = null;
  worker.on('message', (message: { ok: true; result: LoadResult } | { ok: false; message: string }) => {
    const p = pending;
    pending = null;
    if (message.ok) p?.resolve(message.result);
    else p?.reject(new Error(message.message));
  });
  worker.on('error', (error) => {
    pending?.reject(error);
    pending = null;
  });
  return {
    run(job) {
      if (pending) return Promise.reject(new Error('one load job at a time'));
      return new Promise((resolve, reject) => {
        pending = { resolve, reject };
        worker.postMessage(job);
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}
