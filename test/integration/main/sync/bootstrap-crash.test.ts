import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '@src/main/host/create-host';
import { seededRandom } from '@src/main/sandbox/fault-injection';
import { startSandbox, type Sandbox } from '@src/main/sandbox/start-sandbox';
import { bundleChild } from '@test/support/bundle-child';
import { makeTempDir } from '@test/support/temp-dir';
import { seedPracticeFile } from '@test/support/sync/practice-seed';
import { SANDBOX_KEY } from '@test/support/sync/sync-harness';
import { startReadyChild } from '@test/support/sync/child-process';

/**
 * Issue 17's bootstrap crash test: a new desk joins a practice of RECORDS records; a child
 * process runs the desk and we SIGKILL it at seeded random moments while it bootstraps,
 * start it again, and again. Afterwards the desk holds exactly the upstream's records, each
 * once, each audited as received once; the database is intact. (The 100,000-record figure
 * is `npm run bench -- --only practice_pull`; this is sized to run well under a minute.)
 */
const RECORDS = 12_000;
const KILLS = 8;
const SEED = 17_2026;

let childFile: string;

let sandbox: Sandbox;
const temp = makeTempDir('coverdesk-bootstrap-crash-');
const deskDir = path.join(temp.dir, 'desk');

beforeAll(async () => {
  childFile = await bundleChild(path.resolve(__dirname, '../../../support/sync/bootstrap-child.ts'), 'coverdesk-sync');
  const dbFile = path.join(temp.dir, 'practice', 'sandbox.sqlite');
  seedPracticeFile(dbFile, RECORDS);
  sandbox = await startSandbox({ port: 0, apiKey: SANDBOX_KEY, dbFile });
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  temp.cleanup();
});

function startChild(env: Record<string, string> = {}) {
  const child = startReadyChild(childFile, { BOOT_DATA_DIR: deskDir, BOOT_UPSTREAM_URL: sandbox.url, BOOT_API_KEY: SANDBOX_KEY, ...env });
  /** The last `received N` it printed. */
  const received = () => Number([...child.stdout().matchAll(/received (\d+)/g)].pop()?.[1] ?? 0);
  return { ...child, received };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('bootstrap crash test', () => {
  it(`a desk SIGKILLed ${KILLS} times while bootstrapping ${RECORDS} records ends with exactly the upstream's records`, async () => {
    const random = seededRandom(SEED);
    const progress: number[] = [];
    const started = Date.now();
    for (let run = 0; run < KILLS; run++) {
      const child = startChild();
      await child.ready;
      // Killed at seeded points spread over the bootstrap, wherever the page it is on has got to.
      const step = RECORDS / (KILLS + 2);
      const target = (run + 1) * step + random() * step * 0.5;
      const deadline = Date.now() + 10_000;
      while (child.received() < target && Date.now() < deadline) await sleep(5 + random() * 10);
      child.process.kill('SIGKILL');
      await child.exited;
      progress.push(child.received());
    }
    // Killed mid-bootstrap, and resumed: each run started where the last committed page ended.
    expect(progress[0]).toBeGreaterThan(0);
    expect([...progress].sort((x, y) => x - y)).toEqual(progress);
    expect(progress.every((received) => received < RECORDS)).toBe(true);

    const last = startChild({ BOOT_FINISH: '1' });
    const code = await Promise.race([last.exited, sleep(45_000).then(() => 'timeout' as const)]);
    if (code !== 0) {
      last.process.kill('SIGKILL');
      throw new Error(`the last run did not catch up (${code}): ${(await last.output).slice(-3000)}`);
    }

    const host = createHost({ dataDir: deskDir, localApi: false, hotFolder: false });
    try {
      expect(host.database.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      for (const table of ['patients', 'insurance_cards']) {
        const upstreamIds = (sandbox.database.sqlite.prepare(`SELECT id FROM ${table} ORDER BY id`).all() as { id: string }[]).map((r) => r.id);
        const local = host.database.sqlite.prepare(`SELECT remote_id FROM ${table} ORDER BY remote_id`).all() as { remote_id: string }[];
        expect(local.map((r) => r.remote_id)).toEqual(upstreamIds);
      }
      // Every card under its own patient's local copy.
      const misplaced = host.database.sqlite
        .prepare('SELECT count(*) AS n FROM insurance_cards c JOIN patients p ON p.id = c.patient_id WHERE substr(c.member_id, 5) <> substr(p.last_name, 8)')
        .get() as { n: number };
      expect(misplaced.n).toBe(0);
      const received = host.database.sqlite.prepare("SELECT count(*) AS n, count(DISTINCT record_id) AS distinct_ids FROM audit_log WHERE action = 'receive'").get() as { n: number; distinct_ids: number };
      expect(received).toEqual({ n: RECORDS, distinct_ids: RECORDS });
      expect(host.database.sqlite.prepare('SELECT count(*) AS n FROM outbox').get()).toEqual({ n: 0 });
      console.log(`bootstrap crash test: ${KILLS} kills at ${progress.join(', ')} records received, ${RECORDS} records, ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } finally {
      await host.close();
    }
  }, 120_000);
});
