import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '@src/main/host/create-host';
import { seededRandom } from '@src/main/sandbox/fault-injection';
import { startSandbox, type Sandbox } from '@src/main/sandbox/start-sandbox';
import { bundleChild } from '@test/support/bundle-child';
import { makeTempDir } from '@test/support/temp-dir';
import { createVisit, expectExactlyOnce, SANDBOX_KEY } from '@test/support/sync/sync-harness';
import { startReadyChild, type ReadyChild } from '@test/support/sync/child-process';

/**
 * The crash test (issue 4): a child process runs the host and its sync worker against the
 * sandbox in this process; we SIGKILL it at seeded random moments, make new visits while
 * it is down, and start it again, over and over. Afterwards the database is intact, every
 * operation the desk made is upstream exactly once, and the outbox is empty.
 */
const RUNS = 50;
const SEED = 20261123;

let childFile: string;

let sandbox: Sandbox;
const temp = makeTempDir('coverdesk-crash-');

beforeAll(async () => {
  childFile = await bundleChild(path.resolve(__dirname, '../../../support/sync/crash-child.ts'), 'coverdesk-sync');
  sandbox = await startSandbox({ port: 0, apiKey: SANDBOX_KEY, delayMs: 30, faults: { rates: { lost: 0.05, '500': 0.05 }, seed: SEED } });
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  temp.cleanup();
});

function startChild(env: Record<string, string>): ReadyChild {
  return startReadyChild(childFile, { CRASH_DATA_DIR: temp.dir, CRASH_UPSTREAM_URL: sandbox.url, CRASH_API_KEY: SANDBOX_KEY, ...env });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('crash test', () => {
  it(`survives ${RUNS} SIGKILLs at random moments: integrity ok, every operation exactly once upstream, outbox drained`, async () => {
    const random = seededRandom(SEED);
    const stats = { runs: 0, killedBeforeReady: 0, killedWhileSending: 0, visitsBetweenRuns: 0, visitsInChild: 0 };
    const started = Date.now();

    for (let run = 0; run < RUNS; run++) {
      // New work while the child is down, made by the desk (the same host code, not started).
      const between = createHost({ dataDir: temp.dir, localApi: false, hotFolder: false });
      const visits = 1 + Math.floor(random() * 2);
      for (let v = 0; v < visits; v++) await createVisit(between, run * 10 + v, { discovery: v === 0 && run % 3 === 0, extraction: run % 7 === 0 });
      stats.visitsBetweenRuns += visits;
      const leftSending = between.database.sqlite.prepare("SELECT count(*) AS n FROM outbox WHERE state = 'sending'").get() as { n: number };
      if (leftSending.n > 0) stats.killedWhileSending += 1;
      await between.close();

      const createInChild = run % 4 === 0 ? 1 : 0;
      stats.visitsInChild += createInChild;
      const child = startChild({ CRASH_SEED: String(run + 1), CRASH_CREATE: String(createInChild) });
      // Mostly mid-sync; sometimes during start-up itself (opening, migrating, recovering).
      if (run > 0 && random() < 0.2) {
        await sleep(random() * 200);
        stats.killedBeforeReady += 1;
      } else {
        await child.ready;
        await sleep(random() * 200);
      }
      child.process.kill('SIGKILL');
      await child.exited;
      stats.runs += 1;
    }

    // One last, undisturbed run drains everything.
    const last = startChild({ CRASH_SEED: '9999', CRASH_DRAIN: '1' });
    const code = await Promise.race([last.exited, sleep(60_000).then(() => 'timeout' as const)]);
    if (code !== 0) {
      last.process.kill('SIGKILL');
      throw new Error(`the draining run did not finish (${code}): ${(await last.output).slice(-3000)}`);
    }

    const host = createHost({ dataDir: temp.dir, localApi: false, hotFolder: false });
    try {
      expect(host.database.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(sandbox.database.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      const open = host.database.sqlite.prepare("SELECT state, count(*) AS n FROM outbox WHERE state <> 'synced' GROUP BY state").all();
      expect(open).toEqual([]);
      expectExactlyOnce(host.database.db, sandbox.database.db);
      const totals = host.database.sqlite.prepare('SELECT (SELECT count(*) FROM outbox) AS entries, (SELECT count(*) FROM patients) AS patients').get() as {
        entries: number;
        patients: number;
      };
      // Visits begun in the child may have been cut short by a kill; those between runs all exist.
      expect(totals.patients).toBeGreaterThanOrEqual(stats.visitsBetweenRuns);
      // Measured, not asserted beyond "it happened": printed for the report.
      console.log(
        `crash test: ${stats.runs} kills (${stats.killedBeforeReady} during start-up, ${stats.killedWhileSending} with entries left sending), ` +
          `${totals.patients} visits, ${totals.entries} outbox entries, ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      expect(stats.killedWhileSending).toBeGreaterThan(0);
    } finally {
      await host.close();
    }
  }, 180_000);
});
