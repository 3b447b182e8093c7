import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '@src/main/host/create-host';
import { seededRandom } from '@src/main/sandbox/fault-injection';
import { startSandbox, type Sandbox } from '@src/main/sandbox/start-sandbox';
import { createDayOfVisits, isCheckable } from '@test/support/batch/day-of-visits';
import { bundleChild } from '@test/support/bundle-child';
import { makeTempDir } from '@test/support/temp-dir';
import { expectExactlyOnce, SANDBOX_KEY } from '@test/support/sync/sync-harness';

/**
 * The batch's crash test, in the style of sync's: a child process runs the host, its sync
 * worker and the batch runner against the sandbox in this process; we SIGKILL it at seeded
 * random moments in the middle of a day's batch and start it again. Afterwards every
 * eligible appointment was checked exactly once, locally and upstream.
 */
const RUNS = 12;
const SEED = 20261616;
const DAY = '2026-12-03';
const VISITS = 60;

let childFile: string;
let sandbox: Sandbox;
const temp = makeTempDir('coverdesk-batch-crash-');

beforeAll(async () => {
  childFile = await bundleChild(path.resolve(__dirname, '../../../support/batch/batch-crash-child.ts'), 'coverdesk-batch');
  sandbox = await startSandbox({ port: 0, apiKey: SANDBOX_KEY, delayMs: 60, faults: { rates: { lost: 0.05, '500': 0.05 }, seed: SEED } });
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  temp.cleanup();
});

function startChild(env: Record<string, string>): { process: ChildProcess; ready: Promise<void>; exited: Promise<number | null>; output: () => string } {
  const child = spawn(process.execPath, [childFile], {
    env: { ...process.env, CRASH_DATA_DIR: temp.dir, CRASH_UPSTREAM_URL: sandbox.url, CRASH_API_KEY: SANDBOX_KEY, CRASH_DATE: DAY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', () => out.includes('ready') && resolve());
    void exited.then((code) => reject(new Error(`child exited (${code}) before it was ready: ${out.slice(-2000)}`)));
  });
  ready.catch(() => {});
  return { process: child, ready, exited, output: () => out };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function jobCounts(dataDir: string) {
  const host = createHost({ dataDir, localApi: false, hotFolder: false });
  try {
    return host.database.sqlite.prepare("SELECT sum(state = 'done') AS done, sum(state = 'queued') AS queued FROM batch_jobs").get() as { done: number; queued: number };
  } finally {
    void host.close();
  }
}

describe('batch crash test', () => {
  it(`checks each eligible appointment exactly once through ${RUNS} SIGKILLs in the middle of the batch`, async () => {
    const random = seededRandom(SEED);
    // The day and its batch, planned by the desk (the host not started: nothing runs yet).
    const desk = createHost({ dataDir: temp.dir, localApi: false, hotFolder: false });
    const visits = await createDayOfVisits(desk, DAY, VISITS);
    const planned = await desk.bridge['appointments.checkDay']({ date: DAY });
    await desk.close();
    const eligible = visits.filter((v) => isCheckable(v.kind));
    expect(planned.checks).toBe(eligible.length);

    let killedMidBatch = 0;
    for (let run = 0; run < RUNS; run++) {
      const child = startChild({ CRASH_SEED: String(run + 1) });
      await child.ready;
      await sleep(20 + random() * 150);
      child.process.kill('SIGKILL');
      await child.exited;
      const { done, queued } = jobCounts(temp.dir);
      if (done > 0 && queued > 0) killedMidBatch += 1;
    }

    const last = startChild({ CRASH_SEED: '9999', CRASH_DRAIN: '1' });
    const code = await Promise.race([last.exited, sleep(60_000).then(() => 'timeout' as const)]);
    if (code !== 0) {
      last.process.kill('SIGKILL');
      throw new Error(`the draining run did not finish (${code}): ${last.output().slice(-3000)}`);
    }

    const host = createHost({ dataDir: temp.dir, localApi: false, hotFolder: false });
    try {
      const sqlite = host.database.sqlite;
      expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      const perCard = new Map(
        (sqlite.prepare('SELECT insurance_card_id AS card, count(*) AS n FROM electronic_eligibility_checks GROUP BY insurance_card_id').all() as { card: string; n: number }[]).map((r) => [r.card, r.n]),
      );
      for (const visit of visits) expect(perCard.get(visit.card_id ?? '') ?? 0, `${visit.kind} ${visit.appointment_id}`).toBe(isCheckable(visit.kind) ? 1 : 0);
      const jobs = sqlite.prepare('SELECT state, count(*) AS n FROM batch_jobs GROUP BY state ORDER BY state').all();
      expect(jobs).toEqual([
        { state: 'done', n: eligible.length },
        { state: 'skipped', n: visits.length - eligible.length },
      ]);
      // And upstream: every check (and its card and patient) there once, none twice.
      expectExactlyOnce(host.database.db, sandbox.database.db);
      console.log(`batch crash test: ${RUNS} kills, ${killedMidBatch} with the batch part-done, ${eligible.length} checks`);
      expect(killedMidBatch).toBeGreaterThan(0);
    } finally {
      await host.close();
    }
  }, 180_000);
});
