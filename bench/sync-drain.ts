import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EventLoopUtilization } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import { createHost } from '@src/main/host/create-host';
import { DEFAULT_SYNC_POLICY } from '@src/main/sync/sync-engine';
import type { CallContext } from '@src/shared/contract';
import { makeTempDir } from '@test/support/temp-dir';
import { createUpstreamTransport } from '@src/main/http/upstream-transport';
import { median, startTsWorker, type BenchResult, type Benchmark } from './harness';
import type { SandboxLoad, SandboxWorkerData } from './sandbox-worker';
import { countInFlight, meanInFlight, profileThisThread, threadCpuMs, type InFlightSnapshot } from './thread-load';

const DESK: CallContext = { source: 'dashboard' };
/** People registered so far in this process: the next one's number. */
let peopleSoFar = 0;
/**
 * A different person each time, as at a real desk: the desk also pulls what the practice
 * registered (the bare loop's patients among them) and looks each one up for duplicates,
 * which 10,000 namesakes born the same day would turn into a benchmark of that instead.
 * Numbered across rounds and sides, not by the place in a round: with the place, every
 * round's bare loops registered the same 5,000 people again, and the desk's drain paid
 * for recording thousands of possible duplicates that the bare loops never pay for.
 */
function patient(side: string): { first_name: string; last_name: string; date_of_birth: string } {
  const n = peopleSoFar++;
  const day = new Date(Date.UTC(1930, 0, 1) + (n % 25_000) * 86_400_000).toISOString().slice(0, 10);
  return { first_name: `Bench${side}${n}`, last_name: `Mark${n}`, date_of_birth: day };
}
const CARD = { member_id: 'XGH123456789', group_number: 'G1' };
/** The product's setting: the bare loop keeps as many requests in flight as the worker's window may grow to. */
const CONCURRENCY = DEFAULT_SYNC_POLICY.maxConcurrency;

export interface Upstream {
  url: string;
  apiKey: string;
  close(): Promise<void>;
  /** Started with `profile`: the sandbox thread's CPU, event-loop use and requests in flight now. */
  load?(): Promise<SandboxLoad & { elu: EventLoopUtilization }>;
  /** Started with `profile`: a CPU profile of the sandbox's thread until the returned function is called. */
  profile?(): Promise<() => Promise<object>>;
}

export async function startSandboxWorker(dbFile: string, synchronous?: SandboxWorkerData['synchronous'], profile = false): Promise<Upstream> {
  const apiKey = randomBytes(32).toString('hex');
  const worker: Worker = startTsWorker(path.join(__dirname, 'sandbox-worker.ts'), { apiKey, dbFile, synchronous, profile } satisfies SandboxWorkerData);
  const message = await new Promise<{ url?: string; error?: string }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  if (!message.url) throw new Error(`sandbox did not start: ${message.error}`);
  return {
    url: message.url,
    apiKey,
    ...(profile
      ? {
        async load() {
          const answer = new Promise<{ load: SandboxLoad }>((resolve) => worker.once('message', resolve));
          worker.postMessage('load');
          return { ...(await answer).load, elu: worker.performance.eventLoopUtilization() };
        },
        async profile() {
          await new Promise((resolve) => {
            worker.once('message', resolve);
            worker.postMessage('profile');
          });
          return async () => {
            const answer = new Promise<{ profile: object }>((resolve) => worker.once('message', resolve));
            worker.postMessage('profile-end');
            return (await answer).profile;
          };
        },
      }
      : {}),
    async close() {
      const closed = new Promise((resolve) => worker.once('message', resolve));
      worker.postMessage('close');
      await closed;
      await worker.terminate();
    },
  };
}

/** `--profile`: marks the start of a drain; the returned function prints where its time went. */
type LoadProbe = (label: string) => Promise<(ops: number) => Promise<void>>;

/** Requests by route between two snapshots, most first. */
function routesBetween(from: InFlightSnapshot, to: InFlightSnapshot): string {
  return Object.entries(to.byRoute)
    .map(([route, n]) => [route, n - (from.byRoute[route] ?? 0)] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([route, n]) => `${route} ${n}`)
    .join(', ');
}

const share = (elu: EventLoopUtilization) => elu.active / Math.max(1e-9, elu.active + elu.idle);

/**
 * Per drain: CPU an operation on the desk's thread (the host, or the bare loop's client),
 * the sandbox's thread and the whole process (the rest: GC and libuv threads); each
 * thread's share of wall time, busy (its event loop not idle, a commit's fsync counted) and
 * on a core; and the requests in flight, as the client and as the sandbox see them, with
 * the time a request spends in each (Little's law: in flight over throughput).
 */
function createLoadProbe(upstream: Upstream): LoadProbe {
  const client = countInFlight('client');
  const processCpuMs = () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  const mark = async () => ({
    at: performance.now(),
    main: threadCpuMs(),
    process: processCpuMs(),
    mainElu: performance.eventLoopUtilization(),
    client: client(),
    sandbox: await upstream.load!(),
  });
  return async (label) => {
    // `COVERDESK_BENCH_DRAIN_CPU_PROFILE=1`: every drain of ours is also CPU-profiled on both
    // threads (each one's files replace the last's); the profiler's own cost is in its figures.
    const cpuProfiles = label === 'ours' && process.env.COVERDESK_BENCH_DRAIN_CPU_PROFILE === '1';
    const profiles = cpuProfiles ? await Promise.all([profileThisThread(), upstream.profile!()]) : null;
    const from = await mark();
    return async (ops) => {
      const to = await mark();
      if (profiles) {
        const [desk, sandbox] = await Promise.all(profiles.map((stop) => stop()));
        for (const [name, profile] of [['desk', desk], ['sandbox', sandbox]] as const) {
          const file = path.join(os.tmpdir(), `sync-drain-${name}.cpuprofile`);
          fs.writeFileSync(file, JSON.stringify(profile));
          process.stderr.write(`    ${label}: ${name} thread's CPU profile in ${file}\n`);
        }
      }
      const wallMs = to.at - from.at;
      const perOp = (ms: number) => ((ms * 1000) / ops).toFixed(0);
      const sandboxCpu = to.sandbox.cpuMs - from.sandbox.cpuMs;
      const mainCpu = to.main - from.main;
      const processCpu = to.process - from.process;
      const clientMean = meanInFlight(from.client, to.client);
      const serverMean = meanInFlight(from.sandbox.requests, to.sandbox.requests);
      const perSecond = ops / (wallMs / 1000);
      const sandboxElu = performance.eventLoopUtilization(to.sandbox.elu, from.sandbox.elu);
      process.stderr.write(
        `    ${label}: ${perSecond.toFixed(0)} ops/s; CPU µs/op desk ${perOp(mainCpu)}, sandbox ${perOp(sandboxCpu)}, rest ${perOp(processCpu - mainCpu - sandboxCpu)}; ` +
          `on a core desk ${((mainCpu / wallMs) * 100).toFixed(0)} %, sandbox ${((sandboxCpu / wallMs) * 100).toFixed(0)} %, process ${((processCpu / wallMs) * 100).toFixed(0)} %; ` +
          `loop busy desk ${(share(performance.eventLoopUtilization(to.mainElu, from.mainElu)) * 100).toFixed(0)} %, sandbox ${(share(sandboxElu) * 100).toFixed(0)} %; ` +
          `in flight client ${clientMean.toFixed(1)} (${((clientMean / perSecond) * 1000).toFixed(2)} ms each), sandbox ${serverMean.toFixed(1)} (${((serverMean / perSecond) * 1000).toFixed(2)} ms each); ` +
          `the sandbox served ${routesBetween(from.sandbox.requests, to.sandbox.requests)}\n`,
      );
    };
  };
}

/**
 * `pairs` patients, each with a card that depends on it: 2 × pairs queued outbox entries,
 * through the host service with the host's sync not started. Not timed, so the fixture
 * skips waiting for the disk; the drain itself runs with the host's own pragmas.
 */
async function enqueue(dataDir: string, pairs: number): Promise<void> {
  const host = createHost({ dataDir, localApi: false, hotFolder: false });
  host.database.sqlite.pragma('synchronous = OFF');
  try {
    for (let i = 0; i < pairs; i++) {
      const registered = await host.service.create('patients', patient('Desk'), DESK);
      await host.service.create('insurance_cards', { ...CARD, patient_id: registered.id }, DESK);
    }
  } finally {
    await host.close();
  }
}

/**
 * The host's sync worker, pointed at the upstream (as `--upstream URL --api-key KEY` would),
 * from `host.start()` until the desk's sync status shows nothing queued or sending.
 */
async function drainWithWorker(dataDir: string, upstream: Upstream, count: number, probe?: LoadProbe): Promise<number> {
  let failure: string | null = null;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const host = createHost({
    dataDir,
    localApi: false,
    hotFolder: false,
    upstream: { url: upstream.url, apiKey: upstream.apiKey },
    sync: {
      log: (event, fields) => {
        // A retry waits its backoff: the figure would measure the backoff, not the drain.
        if (event === 'sync.send_failed' || event === 'sync.job_error') {
          failure = `${event} ${String(fields.code ?? fields.error)}`;
          finish();
        }
      },
    },
  });
  try {
    let synced = 0;
    host.events.on('sync.status', (status) => {
      synced = status.counts.synced;
      if (status.counts.queued + status.counts.sending === 0) finish();
    });
    const before = (await host.bridge['sync.status']({})).counts.synced;
    const profiled = await probe?.('ours');
    const started = process.hrtime.bigint();
    await host.start();
    await done;
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    await profiled?.(count);
    if (failure) throw new Error(`sync drain: ${failure}`);
    if (synced - before !== count) throw new Error(`sync drain: ${synced - before} of ${count} entries synced`);
    return (count * 1000) / elapsedMs;
  } finally {
    await host.close();
  }
}

/**
 * The raw limit: the same POSTs (same bodies, headers and a fresh Idempotency-Key each),
 * a patient then its card with the id the sandbox gave, `CONCURRENCY` lanes: plain fetch
 * (the limit), or bare node:http with kept-alive connections (the transport the
 * worker itself uses: the higher bar, a side figure).
 */
async function drainBare(upstream: Upstream, pairs: number, round: string, client: 'fetch' | 'http', probe?: LoadProbe): Promise<number> {
  let next = 0;
  const transport = createUpstreamTransport(upstream.url, 15_000);
  const post = async (collection: string, body: unknown, key: string): Promise<{ id: string }> => {
    const headers = { Authorization: `Bearer ${upstream.apiKey}`, Accept: 'application/json', 'Content-Type': 'application/json', 'Idempotency-Key': key };
    if (client === 'http') {
      const answer = await transport({ method: 'POST', path: `/v1/${collection}`, headers, body: JSON.stringify(body) });
      if (answer.status !== 201) throw new Error(`bare drain: ${collection} answered ${answer.status}`);
      return JSON.parse(answer.body.toString('utf8')) as { id: string };
    }
    const response = await fetch(`${upstream.url}/v1/${collection}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const answer = (await response.json()) as { id: string };
    if (response.status !== 201) throw new Error(`bare drain: ${collection} answered ${response.status}`);
    return answer;
  };
  const lane = async () => {
    while (next < pairs) {
      const i = next++;
      const registered = await post('patients', patient('Bare'), `${round}-p${i}`);
      await post('insurance_cards', { ...CARD, patient_id: registered.id }, `${round}-c${i}`);
    }
  };
  const profiled = await probe?.(`${client} loop`);
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  await profiled?.(pairs * 2);
  return (pairs * 2 * 1000) / elapsedMs;
}

/**
 * Warm-up on a tenth (JIT, connections, the engine's first reference refresh), then rounds
 * whose order rotates, so no side always runs first on a disk that has just been written.
 */
async function measureDrain(
  dataDir: string,
  upstream: Upstream,
  count: number,
  rounds: number,
  profile: boolean,
): Promise<{ value: number; fetchLoop: number; httpLoop: number }> {
  let round = 0;
  const probe = profile ? createLoadProbe(upstream) : undefined;
  const sides = {
    ours: async (n: number) => {
      await enqueue(dataDir, n / 2);
      return drainWithWorker(dataDir, upstream, n, probe);
    },
    fetchLoop: (n: number) => drainBare(upstream, n / 2, `bench-${round++}`, 'fetch', probe),
    httpLoop: (n: number) => drainBare(upstream, n / 2, `bench-${round++}`, 'http', probe),
  };
  const names = Object.keys(sides) as (keyof typeof sides)[];
  for (const name of names) await sides[name](count / 10);
  const measured = { ours: [] as number[], fetchLoop: [] as number[], httpLoop: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    for (let j = 0; j < names.length; j++) {
      const name = names[(i + j) % names.length];
      measured[name].push(await sides[name](count));
    }
  }
  return { value: median(measured.ours), fetchLoop: median(measured.fetchLoop), httpLoop: median(measured.httpLoop) };
}

/**
 * 10,000 queued operations (patients and their cards, each card waiting for its patient)
 * drained by the sync worker to the sandbox over loopback with no added latency, against
 * a bare fetch loop of the same POSTs with the same concurrency to the same sandbox (and,
 * as a side figure, a bare node:http loop: the worker's own transport with nothing else). A second
 * figure runs the same against the sandbox with fsync off: an upstream faster than this
 * disk, to show where the worker itself tops out (full run only).
 */
export const syncDrain: Benchmark = async ({ quick, profile = false }) => {
  // Quick: a smaller queue and no fast-upstream figure, or the drain alone would eat the two minutes.
  // `COVERDESK_BENCH_DRAIN_ENTRIES`: another queue length (with --quick, a shorter look at the shipped sandbox alone).
  const count = Number(process.env.COVERDESK_BENCH_DRAIN_ENTRIES) || (quick ? 200 : 10_000);
  const rounds = quick ? 2 : 3;
  const variants = [
    { name: 'sync_drain.throughput', synchronous: undefined, goal: true, rounds },
    // Two rounds: a side figure, and each 10,000-entry drain is long on a busy disk.
    ...(quick ? [] : [{ name: 'sync_drain.throughput_fast_upstream', synchronous: 'NORMAL' as const, goal: false, rounds: 2 }]),
  ];
  const results: BenchResult[] = [];
  for (const variant of variants) {
    const temp = makeTempDir('coverdesk-bench-');
    const dataDir = path.join(temp.dir, 'host');
    let upstream: Upstream | undefined;
    try {
      upstream = await startSandboxWorker(path.join(temp.dir, 'sandbox', 'sandbox.sqlite'), variant.synchronous, profile);
      process.stderr.write(`  ${variant.name}: ${count} operations, ${variant.rounds} rounds each\n`);
      const { value, fetchLoop, httpLoop } = await measureDrain(dataDir, upstream, count, variant.rounds, profile);
      results.push({
        name: variant.name,
        value,
        unit: 'ops/s',
        baseline: fetchLoop,
        ratio: value / fetchLoop,
        ...(variant.goal ? { goal: '≥ 1000 ops/s, ratio ≥ 0.8', met: value >= 1000 && value / fetchLoop >= 0.8 } : {}),
      });
      results.push({ name: `${variant.name}_vs_http_loop`, value, unit: 'ops/s', baseline: httpLoop, ratio: value / httpLoop });
    } finally {
      await upstream?.close();
      temp.cleanup();
    }
  }
  return results;
};
