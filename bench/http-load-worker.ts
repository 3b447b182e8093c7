import http from 'node:http';
import { parentPort } from 'node:worker_threads';
import type { LoadJob, LoadResult } from './http-load';

/**
 * The client side of an HTTP benchmark, on its own thread (its own event loop, the
 * machine's other core), so the server's figures are not the client's. One keep-alive
 * agent per socket, kept across jobs, so warm-up also warms the connections.
 */
const agents = new Map<string, http.Agent>();

function agentFor(socketPath: string, concurrency: number): http.Agent {
  const key = `${socketPath}#${concurrency}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    agents.set(key, agent);
  }
  return agent;
}

function post(agent: http.Agent, job: LoadJob, i: number): Promise<number> {
  const headers: Record<string, string> = { ...job.headers, host: 'localhost', 'content-length': String(Buffer.byteLength(job.body)) };
  if (job.idempotencyKeyPrefix) headers['idempotency-key'] = `${job.idempotencyKeyPrefix}-${i}`;
  return new Promise((resolve, reject) => {
    const request = http.request({ socketPath: job.socketPath, agent, method: 'POST', path: job.path, headers }, (response) => {
      // Read the whole body: a client that ignores it would not be a client.
      response.on('data', () => undefined);
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(job.body);
  });
}

async function run(job: LoadJob): Promise<LoadResult> {
  const agent = agentFor(job.socketPath, job.concurrency);
  const latencies: number[] = [];
  let next = 0;
  let wrongStatus: number | null = null;
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(job.durationMs * 1e6));
  const lane = async () => {
    while (process.hrtime.bigint() < deadline && wrongStatus === null) {
      const t0 = process.hrtime.bigint();
      const status = await post(agent, job, next++);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (status !== 201) wrongStatus = status;
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, lane));
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (wrongStatus !== null) throw new Error(`${job.path} answered ${wrongStatus}, not 201`);
  return { elapsedMs, latencies };
}

parentPort!.on('message', (job: LoadJob) => {
  run(job).then(
    (result) => parentPort!.postMessage({ ok: true, result }),
    (error: unknown) => parentPort!.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
