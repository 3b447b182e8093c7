import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createHost } from '../src/main/host/create-host';
import { socketPath } from '../src/main/local-api/endpoints';
import { ensurePrivateDir } from '../src/main/local-api/private-path';
import { tokenPath } from '../src/main/local-api/token-file';
import { makeTempDir } from '../test/support/temp-dir';
import { closedPort, interleaved, median, percentile, type BenchResult, type Benchmark } from './harness';
import { startHttpLoad, type LoadJob, type LoadResult } from './http-load';

/** Scanner software rarely sends more than a few at once; 8 keeps the server's queue non-empty. */
const CONCURRENCY = 8;
const PATIENT = JSON.stringify({ first_name: 'Bench', last_name: 'Mark', date_of_birth: '1980-01-01' });

/** The raw limit: node:http on the same kind of socket (user-only folder), reading the body and answering 201 with `answer`. */
async function startBareServer(dir: string, answer: string): Promise<{ socketPath: string; close(): Promise<void> }> {
  ensurePrivateDir(dir);
  const target = path.join(dir, 'bare.sock');
  const server = http.createServer((request, response) => {
    request.on('data', () => undefined);
    request.on('end', () => {
      response.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      response.end(answer);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(target, resolve);
  });
  return {
    socketPath: target,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Patient creates over the local API's real Unix socket (token check, JSON parsing,
 * validation, the record and its outbox entry in one transaction, the answer), from a
 * client on another thread, against a bare node:http server on the same kind of socket
 * answering 201 with a body of the same size: the limit the HTTP stack itself sets.
 */
export const localApi: Benchmark = async ({ quick }) => {
  const perRound = quick ? 200 : 2000;
  const rounds = quick ? 3 : 10;
  const temp = makeTempDir('coverdesk-bench-');
  // Offline: the sync worker would otherwise send every create to the embedded sandbox in this process.
  const offline = { url: `http://127.0.0.1:${await closedPort()}`, apiKey: 'bench-offline' };
  const host = createHost({ dataDir: path.join(temp.dir, 'host'), localApi: {}, hotFolder: false, upstream: offline });
  const load = startHttpLoad();
  let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
  try {
    await host.start();
    const token = fs.readFileSync(tokenPath(host.dataDir), 'utf8').trim();
    const ourSocket = socketPath(host.dataDir);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    // The bare server answers with the bytes ours answers, so both move the same amount.
    const sample = await host.service.create('patients', JSON.parse(PATIENT), { source: 'api' });
    bare = await startBareServer(path.join(temp.dir, 'bare'), JSON.stringify(sample));

    const results: BenchResult[] = [];
    let round = 0;
    for (const variant of [
      { name: 'local_api.create_patient', keyed: false, goal: true },
      { name: 'local_api.create_patient_idempotent', keyed: true, goal: false },
    ]) {
      const job = (socket: string): LoadJob => ({
        socketPath: socket,
        path: '/v1/patients',
        headers,
        body: PATIENT,
        concurrency: CONCURRENCY,
        count: perRound,
        idempotencyKeyPrefix: variant.keyed ? `bench-${round++}` : undefined,
      });
      const measured = await interleaved<LoadResult>(
        rounds,
        2,
        () => load.run(job(ourSocket)),
        () => load.run(job(bare!.socketPath)),
      );
      const opsPerSec = (r: LoadResult) => (r.latencies.length * 1000) / r.elapsedMs;
      const ours = median(measured.ours.map(opsPerSec));
      const raw = median(measured.raw.map(opsPerSec));
      const oursLatency = measured.ours.flatMap((r) => r.latencies);
      const rawLatency = measured.raw.flatMap((r) => r.latencies);
      results.push(
        {
          name: `${variant.name}.throughput`,
          value: ours,
          unit: 'ops/s',
          baseline: raw,
          ratio: ours / raw,
          ...(variant.goal ? { goal: 'ratio ≥ 0.5', met: ours / raw >= 0.5 } : {}),
        },
        { name: `${variant.name}.p99`, value: percentile(oursLatency, 99), unit: 'ms', baseline: percentile(rawLatency, 99), ratio: percentile(rawLatency, 99) / percentile(oursLatency, 99) },
      );
    }
    return results;
  } finally {
    await load.close();
    await bare?.close();
    await host.close();
    temp.cleanup();
  }
};
