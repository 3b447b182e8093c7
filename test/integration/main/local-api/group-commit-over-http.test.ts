import Database from 'better-sqlite3-multiple-ciphers';
import fs from 'node:fs';
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { applyDatabaseKey } from '@src/main/db/database-cipher';
import { newDatabaseKey } from '@src/main/db/database-key';
import { socketPath } from '@src/main/local-api/endpoints';
import { tokenPath } from '@src/main/local-api/token-file';
import { systemClock } from '@src/main/support/clock';
import { createIdGenerator, type IdGenerator } from '@src/main/support/ids';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { httpRequest, type HttpAnswer } from '@test/support/http-request';

/**
 * Creates over the local API's real Unix socket into a real encrypted SQLite file, sent
 * together so they share group commits (src/main/db/group-commit.ts): each answered only
 * once its commit is durable, each whole or absent, keys replayed.
 */
const CONCURRENT = 8;

let fx: HostFixture | undefined;
let reader: Database.Database | undefined;
afterEach(async () => {
  reader?.close();
  reader = undefined;
  await fx?.cleanup();
  fx = undefined;
});

async function startHost(ids?: IdGenerator): Promise<{ fx: HostFixture; key: Buffer; post(body: object, idempotencyKey?: string, agent?: http.Agent): Promise<HttpAnswer> }> {
  const key = newDatabaseKey();
  fx = startTestHost({ localApi: {}, hotFolder: false, encryptionKey: key, startCheck: false, ...(ids ? { ids } : {}) });
  await fx.host.start();
  const token = fs.readFileSync(tokenPath(fx.dataDir), 'utf8').trim();
  const target = { socketPath: socketPath(fx.dataDir) };
  const post = (body: object, idempotencyKey?: string) =>
    httpRequest(target, {
      method: 'POST',
      path: '/v1/patients',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: JSON.stringify(body),
    });
  return { fx, key, post };
}

/** A second connection on the same file: it sees only what was committed. */
function openReader(fx: HostFixture, key: Buffer): Database.Database {
  reader = new Database(fx.host.database.sqlite.name, { readonly: true });
  applyDatabaseKey(reader, key);
  return reader;
}

const patient = (i: number) => ({ first_name: `Group${i}`, last_name: 'Commit', date_of_birth: '1980-01-01' });

/** Every patient row has exactly its outbox entry and its audit entry: nothing half written. */
function expectEveryPatientWhole(db: Database.Database): void {
  const partial = db
    .prepare(
      `SELECT p.id,
        (SELECT count(*) FROM outbox o WHERE o.record_id = p.id) AS entries,
        (SELECT count(*) FROM audit_log a WHERE a.record_id = p.id AND a.action = 'create') AS audits
       FROM patients p`,
    )
    .all() as { id: string; entries: number; audits: number }[];
  expect(partial.filter((p) => p.entries !== 1 || p.audits !== 1)).toEqual([]);
  const orphans = db
    .prepare("SELECT (SELECT count(*) FROM outbox WHERE collection = 'patients' AND record_id NOT IN (SELECT id FROM patients)) + (SELECT count(*) FROM audit_log WHERE action = 'create' AND record_id LIKE 'pat_%' AND record_id NOT IN (SELECT id FROM patients)) AS n")
    .get() as { n: number };
  expect(orphans.n).toBe(0);
}

describe('local API creates under group commit', () => {
  it('stores every one of creates sent together, each answered only once its commit is durable (another connection sees it)', async () => {
    const { fx, key, post } = await startHost();
    const db = openReader(fx, key);
    const seen = db.prepare('SELECT id FROM patients WHERE id = ?');
    const visibleWhenAnswered: boolean[] = [];
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT * 3 }, (_, i) =>
        post(patient(i)).then((answer) => {
          // Read the moment the answer arrives, before anything else runs.
          visibleWhenAnswered.push(answer.status === 201 && seen.get(answer.json.id) !== undefined);
          return answer;
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(CONCURRENT * 3).fill(201));
    expect(visibleWhenAnswered).toEqual(Array(CONCURRENT * 3).fill(true));
    expect((db.prepare('SELECT count(*) AS n FROM patients').get() as { n: number }).n).toBe(CONCURRENT * 3 + 0);
    expectEveryPatientWhole(db);
  });

  it('a create that fails after writing part of itself leaves nothing of itself, and the creates sent with it are stored and answered', async () => {
    // The third outbox id repeats the second: that create's patient row is written, then its
    // outbox entry collides, mid-savepoint, while its neighbours are in the same group.
    const real = createIdGenerator(systemClock);
    let outboxIds = 0;
    let last = '';
    const ids: IdGenerator = {
      next(prefix) {
        if (prefix !== 'obx') return real.next(prefix);
        outboxIds += 1;
        if (outboxIds !== 3) last = real.next(prefix);
        return last;
      },
    };
    const { fx, key, post } = await startHost(ids);
    const db = openReader(fx, key);
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => post(patient(i), `fail-${i}`)));
    const failed = answers.map((a, i) => ({ status: a.status, i })).filter((a) => a.status !== 201);
    expect(failed).toHaveLength(1);
    expect(failed[0].status).toBe(500);
    const stored = db.prepare('SELECT first_name FROM patients ORDER BY first_name').all() as { first_name: string }[];
    expect(stored).toHaveLength(CONCURRENT - 1);
    expect(stored.map((p) => p.first_name)).not.toContain(`Group${failed[0].i}`);
    // Each answered create is there, whole; the failed one left no audit entry, outbox entry or key.
    for (const answer of answers.filter((a) => a.status === 201)) expect(db.prepare('SELECT id FROM patients WHERE id = ?').get(answer.json.id)).toBeDefined();
    expectEveryPatientWhole(db);
    expect((db.prepare('SELECT key FROM idempotency_keys ORDER BY key').all() as { key: string }[]).map((k) => k.key)).toEqual(
      Array.from({ length: CONCURRENT }, (_, i) => `fail-${i}`).filter((k) => k !== `fail-${failed[0].i}`),
    );
    expect(fx.host.audit.verify()).toMatchObject({ intact: true });
    // Its key was not spent: the same request succeeds now.
    const again = await post(patient(failed[0].i), `fail-${failed[0].i}`);
    expect(again.status).toBe(201);
    expectEveryPatientWhole(db);
  });

  it('replays each Idempotency-Key of creates sent together, with the bytes first answered and nothing created twice', async () => {
    const { fx, key, post } = await startHost();
    const db = openReader(fx, key);
    const first = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => post(patient(i), `replay-${i}`)));
    expect(first.map((a) => a.status)).toEqual(Array(CONCURRENT).fill(201));
    const again = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => post(patient(i), `replay-${i}`)));
    expect(again.map((a) => a.status)).toEqual(Array(CONCURRENT).fill(201));
    expect(again.map((a) => a.headers['idempotent-replayed'])).toEqual(Array(CONCURRENT).fill('true'));
    expect(again.map((a) => a.text)).toEqual(first.map((a) => a.text));
    expect((db.prepare('SELECT count(*) AS n FROM patients').get() as { n: number }).n).toBe(CONCURRENT);
    // The same key with another body is refused, not replayed.
    const reused = await post(patient(99), 'replay-0');
    expect(reused.status).toBe(409);
    expectEveryPatientWhole(db);
  });
});
