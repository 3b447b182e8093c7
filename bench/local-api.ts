import Database from 'better-sqlite3-multiple-ciphers';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createHost } from '@src/main/host/create-host';
import { socketPath } from '@src/main/local-api/endpoints';
import { ensurePrivateDir } from '@src/main/support/private-path';
import { tokenPath } from '@src/main/local-api/token-file';
import { applyDatabaseKey } from '@src/main/db/database-cipher';
import { configureConnection } from '@src/main/db/open-database';
import { newDatabaseKey } from '@src/main/db/database-key';
import { systemClock } from '@src/main/support/clock';
import { createIdGenerator } from '@src/main/support/ids';
import { makeTempDir } from '@test/support/temp-dir';
import { closedPort, interleaved, median, percentile, type BenchResult, type Benchmark } from './harness';
import { startHttpLoad, type HttpLoad, type LoadJob, type LoadResult } from './http-load';
import { profileThisThread } from './thread-load';

/** Scanner software rarely sends more than a few at once; 8 keeps the server's queue non-empty. */
const CONCURRENCY = 8;
const PATIENT = JSON.stringify({ first_name: 'Bench', last_name: 'Mark', date_of_birth: '1980-01-01' });

/**
 * The raw limit: node:http on the same kind of socket (user-only folder), reading the body
 * and answering 201 with `answer`; with `work`, doing it first (a bare insert, or a place in
 * the next group commit) and answering when it says it is done.
 */
async function startBareServer(dir: string, answer: string, work?: (done: () => void) => void): Promise<{ socketPath: string; close(): Promise<void> }> {
  ensurePrivateDir(dir);
  const target = path.join(dir, 'bare.sock');
  const server = http.createServer((request, response) => {
    request.on('data', () => undefined);
    request.on('end', () => {
      const reply = () => {
        response.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
        response.end(answer);
      };
      if (work) work(reply);
      else reply();
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

/** How many groups a committer has made and how many creates they held (`--profile`). */
interface GroupCount {
  groups: number;
  creates: number;
}

/**
 * Group commit as simply as it can be done: the requests whose bodies have arrived by the
 * next turn of the event loop are stored in one transaction, and each is answered after
 * that commit. No validation, no auth, no sync worker: the fair limit for a durable create.
 */
function groupCommit(insertMany: (count: number) => void, count: GroupCount): (done: () => void) => void {
  let waiting: (() => void)[] = [];
  const flush = () => {
    const group = waiting;
    waiting = [];
    insertMany(group.length);
    count.groups += 1;
    count.creates += group.length;
    for (const done of group) done();
  };
  return (done) => {
    waiting.push(done);
    if (waiting.length === 1) setImmediate(flush);
  };
}

/**
 * The second raw limit: the same patient row, outbox entry and audit entry a create writes, inserted by
 * bare better-sqlite3 in one transaction into the host's database (same pragmas, the
 * cipher build with the same key): what any create must pay for a durable write. Its ids
 * are made as ours are (time-ordered ULIDs): ids of another shape would land in the middle
 * of the id indexes, split pages there and make our own next round write more pages.
 */
function bareInsert(file: string, key: Buffer): { insert(): void; insertMany(count: number): void; close(): void } {
  const db = new Database(file);
  applyDatabaseKey(db, key);
  configureConnection(db);
  const ids = createIdGenerator(systemClock);
  const patient = db.prepare("INSERT INTO patients (id, first_name, last_name, date_of_birth, created_at) VALUES (?, 'Bench', 'Mark', '1980-01-01', ?)");
  const outbox = db.prepare(
    "INSERT INTO outbox (id, collection, record_id, payload, depends_on, state, attempts, next_attempt_at, created_at, updated_at) VALUES (?, 'patients', ?, ?, '[]', 'queued', 0, ?, ?, ?)",
  );
  const audit = db.prepare("INSERT INTO audit_log (at, actor, action, record_id) VALUES (?, 'bench (local API)', 'create', ?)");
  const one = () => {
    const id = ids.next('pat');
    const t = new Date().toISOString();
    patient.run(id, t);
    outbox.run(ids.next('obx'), id, PATIENT, t, t, t);
    audit.run(t, id);
  };
  const insert = db.transaction(one);
  const insertMany = db.transaction((count: number) => {
    for (let i = 0; i < count; i += 1) one();
  });
  return { insert: () => insert(), insertMany: (count) => insertMany(count), close: () => db.close() };
}

/** The create's durable write made for each request alone, answered after its commit. */
function perRequest(insert: () => void): (done: () => void) => void {
  return (done) => {
    insert();
    done();
  };
}

type Busy<T> = T & { busyMs: number; cpuMs: number | null };

/**
 * CPU time of this process's main thread, ms (Linux: /proc, 10 ms ticks; null elsewhere).
 * Not waiting for the disk: what our code can change, apart from the fsync both sides wait for.
 */
function mainThreadCpuMs(): number | null {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/** `run`'s result with the time this thread's event loop was busy meanwhile, and its CPU time (the server's side: the load is on its own thread). */
async function busy<T extends object>(run: () => Promise<T>): Promise<Busy<T>> {
  const before = performance.eventLoopUtilization();
  const cpuBefore = mainThreadCpuMs();
  const result = await run();
  const cpuAfter = mainThreadCpuMs();
  return { ...result, busyMs: performance.eventLoopUtilization(before).active, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
}

/**
 * The raw limit a variant is held to: a server that stores nothing, one that makes the
 * create's durable write per request, or one that makes it with group commit. The goal is a
 * ratio floor against it (none: a side figure).
 */
type Variant = { name: string; keyed: boolean; baseline: 'bare' | 'insert' | 'group_commit'; goal: number | null };

/** One variant on a fresh host (an empty outbox), so no variant inherits another's queue. */
async function measureVariant(load: HttpLoad, variant: Variant, rounds: number, roundMs: number, profile: boolean): Promise<BenchResult[]> {
  const temp = makeTempDir('coverdesk-bench-');
  // Offline: the sync worker would otherwise send every create to the embedded sandbox in this
  // process. It still runs, as on a desk, and sees every create.
  const offline = { url: `http://127.0.0.1:${await closedPort()}`, apiKey: 'bench-offline' };
  const key = newDatabaseKey();
  const host = createHost({ dataDir: path.join(temp.dir, 'host'), localApi: {}, hotFolder: false, upstream: offline, encryptionKey: key });
  let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
  let inserts: ReturnType<typeof bareInsert> | undefined;
  try {
    await host.start();
    const token = fs.readFileSync(tokenPath(host.dataDir), 'utf8').trim();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    // The bare server answers with the bytes ours answers, so both move the same amount.
    const sample = await host.service.create('patients', JSON.parse(PATIENT), { source: 'api' });
    if (variant.baseline !== 'bare') inserts = bareInsert(host.database.sqlite.name, key);
    const groups: GroupCount = { groups: 0, creates: 0 };
    const store = inserts && variant.baseline === 'insert' ? perRequest(inserts.insert) : inserts ? groupCommit(inserts.insertMany, groups) : undefined;
    bare = await startBareServer(path.join(temp.dir, 'bare'), JSON.stringify(sample), store);
    let round = 0;
    const job = (socket: string): LoadJob => ({
      socketPath: socket,
      path: '/v1/patients',
      headers,
      body: PATIENT,
      concurrency: CONCURRENCY,
      durationMs: roundMs,
      idempotencyKeyPrefix: variant.keyed ? `bench-${round++}` : undefined,
    });
    const ourSocket = socketPath(host.dataDir);
    const bareSocket = bare.socketPath;
    const measured = await interleaved<Busy<LoadResult>>(
      rounds,
      2,
      () => busy(() => load.run(job(ourSocket))),
      () => busy(() => load.run(job(bareSocket))),
    );
    if (profile && variant.baseline === 'group_commit') {
      process.stderr.write(`  ${variant.name}: the bare committer's groups held ${(groups.creates / groups.groups).toFixed(2)} creates on average (${groups.groups} groups)\n`);
      // One more round each with the server thread's CPU profiled: what ours does that the bare server does not.
      for (const [side, socket] of [['ours', ourSocket], ['bare', bareSocket]] as const) {
        const stop = await profileThisThread();
        const served = await load.run(job(socket));
        const file = path.join(os.tmpdir(), `local-api-${side}.cpuprofile`);
        fs.writeFileSync(file, JSON.stringify(await stop()));
        process.stderr.write(`  ${variant.name}: ${side === 'ours' ? 'our' : "the bare server's"} thread, ${served.latencies.length} creates, CPU profile in ${file}\n`);
      }
    }
    const opsPerSec = (r: LoadResult) => (r.latencies.length * 1000) / r.elapsedMs;
    // The server's thread busy per request (µs): steadier than throughput on a shared machine,
    // and what the ratio comes down to once the one thread is the bottleneck.
    const busyPerRequest = (r: Busy<LoadResult>) => (r.busyMs * 1000) / r.latencies.length;
    const oursBusy = median(measured.ours.map(busyPerRequest));
    const rawBusy = median(measured.raw.map(busyPerRequest));
    const cpuPerRequest = (r: Busy<LoadResult>) => ((r.cpuMs ?? NaN) * 1000) / r.latencies.length;
    const oursCpu = median(measured.ours.map(cpuPerRequest));
    const rawCpu = median(measured.raw.map(cpuPerRequest));
    const ours = median(measured.ours.map(opsPerSec));
    const raw = median(measured.raw.map(opsPerSec));
    const oursP99 = percentile(measured.ours.flatMap((r) => r.latencies), 99);
    const rawP99 = percentile(measured.raw.flatMap((r) => r.latencies), 99);
    return [
      { name: `${variant.name}.throughput`, value: ours, unit: 'ops/s', baseline: raw, ratio: ours / raw, ...(variant.goal !== null ? { goal: `ratio ≥ ${variant.goal}`, met: ours / raw >= variant.goal } : {}) },
      { name: `${variant.name}.p99`, value: oursP99, unit: 'ms', baseline: rawP99, ratio: rawP99 / oursP99 },
      { name: `${variant.name}.busy_per_request`, value: oursBusy, unit: 'µs', baseline: rawBusy, ratio: rawBusy / oursBusy },
      ...(Number.isNaN(oursCpu) ? [] : [{ name: `${variant.name}.cpu_per_request`, value: oursCpu, unit: 'µs', baseline: rawCpu, ratio: rawCpu / oursCpu }]),
    ];
  } finally {
    await bare?.close();
    inserts?.close();
    await host.close();
    temp.cleanup();
  }
}

/**
 * Patient creates over the local API's real Unix socket (token check, JSON parsing,
 * validation, the record and its outbox entry in one transaction, the answer), from a
 * client on another thread, against a bare node:http server on the same kind of socket
 * answering 201 with a body of the same size: the limit the HTTP stack itself sets. The
 * same with an Idempotency-Key on each create; against a bare server that also makes the
 * create's durable write per request (bare insert); and against one that makes it with group
 * commit, the fair limit for anything that stores a create durably (docs/decisions.md says
 * why the server that stores nothing is not a limit: its rate is an HTTP stack's alone).
 * Rounds are of equal time, alternating, after two warm-up rounds each. `--profile`: the bare
 * committer's group size, and a CPU profile of one more round on each server's thread.
 */
export const localApi: Benchmark = async ({ quick, profile }) => {
  const roundMs = quick ? 400 : 2000;
  const rounds = quick ? 3 : 10;
  const load = startHttpLoad();
  try {
    const variants: Variant[] = [
      // Against a server that stores nothing: a side figure (the HTTP stack's own rate, not a limit for a durable create).
      { name: 'local_api.create_patient', keyed: false, baseline: 'bare', goal: null },
      { name: 'local_api.create_patient_idempotent', keyed: true, baseline: 'bare', goal: null },
      // Against a server making one durable insert per request: group commit should beat it by half again.
      { name: 'local_api.create_patient_vs_insert', keyed: false, baseline: 'insert', goal: 1.5 },
      // Against the same durable work done the best known way (group commit): the fair limit.
      { name: 'local_api.create_patient_vs_group_commit', keyed: false, baseline: 'group_commit', goal: 0.8 },
    ];
    // `LOCAL_API_VARIANTS=vs_group_commit,vs_insert`: only the variants whose names end so (tuning one figure).
    const picked = process.env.LOCAL_API_VARIANTS?.split(',');
    const results: BenchResult[] = [];
    for (const variant of variants.filter((v) => !picked || picked.some((p) => v.name.endsWith(p)))) results.push(...(await measureVariant(load, variant, rounds, roundMs, profile === true)));
    return results;
  } finally {
    await load.close();
  }
};
