import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '@src/main/host/create-host';
import { socketPath } from '@src/main/local-api/endpoints';
import { tokenPath } from '@src/main/local-api/token-file';
import { seededRandom } from '@src/main/sandbox/fault-injection';
import { bundleChild } from '@test/support/bundle-child';
import { freePort } from '@test/support/sync/sync-harness';
import { startReadyChild } from '@test/support/sync/child-process';
import { makeTempDir } from '@test/support/temp-dir';

/**
 * The local API killed mid-group-commit: a child process serves creates (each with its
 * Idempotency-Key) from 8 clients at once, so a commit is nearly always in flight, and is
 * SIGKILLed at seeded random moments, over and over on the same data folder. After each
 * kill every create is whole (record, outbox entry, audit entry, key's answer) or absent,
 * every create that was answered is there, and the file and the audit chain are intact.
 */
const RUNS = 6;
const LANES = 8;
const SEED = 20261127;

let childFile: string;
const temp = makeTempDir('coverdesk-api-crash-');

beforeAll(async () => {
  childFile = await bundleChild(path.resolve(__dirname, '../../../support/local-api/group-commit-crash-child.ts'), 'coverdesk-local-api-crash');
}, 60_000);

afterAll(() => temp.cleanup());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answered {
  key: string;
  id: string;
}

/** Lanes that each POST creates one after another until the server goes; answered creates are recorded. */
function loadUntilKilled(socket: string, token: string, run: number): { answered: Answered[]; done: Promise<void> } {
  const answered: Answered[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: LANES });
  let alive = true;
  const post = (key: string, body: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(
        { socketPath: socket, agent, method: 'POST', path: '/v1/patients', headers: { host: 'localhost', authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key, 'content-length': Buffer.byteLength(body) } },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  const lane = async (lane: number) => {
    for (let i = 0; alive; i++) {
      const key = `crash-${run}-${lane}-${i}`;
      try {
        const answer = await post(key, JSON.stringify({ first_name: `Crash${run}x${lane}x${i}`, last_name: 'Test', date_of_birth: '1980-01-01' }));
        if (answer.status !== 201) throw new Error(`answered ${answer.status}: ${answer.text}`);
        answered.push({ key, id: (JSON.parse(answer.text) as { id: string }).id });
      } catch (error) {
        // The server was killed: this request may or may not have been stored, and was not answered.
        if ((error as NodeJS.ErrnoException).code && alive) alive = false;
        else if (!(error as NodeJS.ErrnoException).code) throw error;
      }
    }
  };
  const done = Promise.all(Array.from({ length: LANES }, (_, i) => lane(i))).then(() => agent.destroy());
  return { answered, done };
}

describe('local API crash during group commits', () => {
  it(`after ${RUNS} SIGKILLs mid-load: every create whole or absent, every answered create stored, file and audit chain intact`, async () => {
    const random = seededRandom(SEED);
    const upstream = `http://127.0.0.1:${await freePort()}`;
    const answeredAll: Answered[] = [];
    let stored = 0;
    for (let run = 0; run < RUNS; run++) {
      const child = startReadyChild(childFile, { CRASH_DATA_DIR: temp.dir, CRASH_UPSTREAM_URL: upstream });
      await child.ready;
      const token = fs.readFileSync(tokenPath(temp.dir), 'utf8').trim();
      const load = loadUntilKilled(socketPath(temp.dir), token, run);
      await sleep(150 + random() * 250);
      const answeredBeforeKill = load.answered.length;
      child.process.kill('SIGKILL');
      await child.exited;
      await load.done;
      answeredAll.push(...load.answered);
      expect(answeredBeforeKill).toBeGreaterThan(0);

      // The desk opens the folder as it would after a power cut (not started: nothing else writes).
      const host = createHost({ dataDir: temp.dir, localApi: false, hotFolder: false, upstream: { url: upstream, apiKey: 'crash-offline' }, startCheck: false });
      try {
        const db = host.database.sqlite;
        expect(db.pragma('quick_check', { simple: true })).toBe('ok');
        const answeredMissing = answeredAll.filter(
          ({ key, id }) =>
            db.prepare('SELECT 1 FROM patients WHERE id = ?').get(id) === undefined ||
            (db.prepare('SELECT response_body FROM idempotency_keys WHERE key = ?').get(key) as { response_body: string } | undefined)?.response_body.includes(id) !== true,
        );
        expect(answeredMissing).toEqual([]);
        // Whole or absent: each patient with exactly its outbox entry, its audit entry and its key's answer; nothing of a create without its patient.
        const partial = db
          .prepare(
            `SELECT p.id,
              (SELECT count(*) FROM outbox o WHERE o.record_id = p.id) AS entries,
              (SELECT count(*) FROM audit_log a WHERE a.record_id = p.id AND a.action = 'create') AS audits,
              (SELECT count(*) FROM idempotency_keys k WHERE instr(k.response_body, p.id) > 0) AS keys
             FROM patients p`,
          )
          .all() as { id: string; entries: number; audits: number; keys: number }[];
        expect(partial.filter((p) => p.entries !== 1 || p.audits !== 1 || p.keys !== 1)).toEqual([]);
        const orphans = db
          .prepare(
            `SELECT (SELECT count(*) FROM outbox WHERE record_id NOT IN (SELECT id FROM patients))
              + (SELECT count(*) FROM audit_log WHERE action = 'create' AND record_id NOT IN (SELECT id FROM patients))
              + (SELECT count(*) FROM idempotency_keys WHERE status IS NULL OR response_body IS NULL) AS n`,
          )
          .get() as { n: number };
        expect(orphans.n).toBe(0);
        expect(host.audit.verify()).toMatchObject({ intact: true });
        stored = partial.length;
      } finally {
        await host.close();
      }
    }
    // Kills landed while creates were in flight: some were stored without their answer reaching the client, or not at all.
    expect(stored).toBeGreaterThanOrEqual(answeredAll.length);
  }, 120_000);
});
