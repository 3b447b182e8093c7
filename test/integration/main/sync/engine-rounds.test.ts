import { describe, expect, it, vi } from 'vitest';
import { createHost, type Host } from '@src/main/host/create-host';
import { createHttpV1Client } from '@src/main/http/v1-client';
import { preparedOnce } from '@src/main/records/statements';
import type { Sandbox } from '@src/main/sandbox/start-sandbox';
import { anyStopped, markStopped } from '@src/main/sync/outbox-queue';
import { createSyncEngine, type SyncEngine } from '@src/main/sync/sync-engine';
import { makeTempDir } from '@test/support/temp-dir';
import { closeAfterEach, expectExactlyOnce, FAST_POLICY, freePort, SANDBOX_KEY, startUpstream } from '@test/support/sync/sync-harness';

/**
 * What a scheduling round writes and asks: its outcomes survive a transaction that fails at
 * COMMIT, and it asks whether anything is stopped at most once. A real desk database, the
 * real sandbox over HTTP, the engine stepped by `pump()`.
 */

const temp = makeTempDir('coverdesk-rounds-');
let host: Host | undefined;
let engine: SyncEngine | undefined;
let upstream: Sandbox | undefined;
closeAfterEach(
  () => (engine ? { close: () => engine!.stop() } : undefined),
  () => host,
  () => upstream,
);

type Row = { id: string; state: string; attempts: number };

async function setUp(name: string, patients: number) {
  host = createHost({ dataDir: `${temp.dir}/${name}`, localApi: false, hotFolder: false });
  for (let i = 0; i < patients; i++) {
    await host.service.create('patients', { first_name: `Round${i}`, last_name: 'Test', date_of_birth: '1970-01-01' }, { source: 'dashboard' });
  }
  const sqlite = host.database.sqlite;
  const outbox = () => sqlite.prepare('SELECT id, state, attempts FROM outbox ORDER BY rowid').all() as Row[];
  engine = createSyncEngine({ db: host.database.db, clock: host.clock, ids: host.ids, policy: FAST_POLICY, readPhoto: (key) => host!.service.readPhoto(key) });
  return { sqlite, outbox };
}

describe('a sync round', () => {
  it('puts back the outcomes of a transaction whose COMMIT fails, and writes them in the next round', async () => {
    const { sqlite, outbox } = await setUp('commit-fails', 2);
    upstream = await startUpstream(await freePort());
    engine!.setUpstream({ mode: 'upstream', url: upstream.url, service: createHttpV1Client({ baseUrl: upstream.url, apiKey: SANDBOX_KEY, timeoutMs: 5_000 }) });
    // The first round is the reference refresh: the worker learns the upstream answers.
    await engine!.pump();
    expect(engine!.online()).toBe(true);

    // A COMMIT that fails after every statement in it ran: writing `synced` breaks a deferred
    // foreign key (in TEMP tables, this connection only), which SQLite checks at COMMIT.
    sqlite.exec(`
      CREATE TEMP TABLE refusal_parent (id INTEGER PRIMARY KEY);
      CREATE TEMP TABLE refusal (parent INTEGER REFERENCES refusal_parent (id) DEFERRABLE INITIALLY DEFERRED);
      CREATE TEMP TRIGGER refuse_synced AFTER UPDATE OF state ON main.outbox WHEN NEW.state = 'synced'
      BEGIN INSERT INTO refusal (parent) VALUES (1); END;
    `);
    // Both sent and answered; writing their outcomes fails at COMMIT.
    await expect(engine!.pump()).rejects.toThrow(/FOREIGN KEY/);
    expect(outbox().map((row) => row.state)).toEqual(['sending', 'sending']);

    sqlite.exec('DROP TRIGGER temp.refuse_synced');
    await engine!.pump();
    // Written from the answers kept, not sent again.
    expect(outbox()).toEqual(outbox().map((row) => ({ ...row, state: 'synced', attempts: 1 })));
    expectExactlyOnce(host!.database.db, upstream.database.db);
  });

  it('asks whether anything is stopped once, when the idle test has asked', async () => {
    const { outbox } = await setUp('stopped-once', 2);
    const db = host!.database.db;
    const [first] = outbox();
    markStopped(db, first.id, 'failed', new Date().toISOString(), { code: 'validation_failed', message: 'Refused.' });
    // The prepared statement `anyStopped` runs, as the engine's own calls find it.
    anyStopped(db);
    const statement = preparedOnce(db, 'sync:any-stopped', () => {
      throw new Error('anyStopped prepares this statement first');
    });
    const asked = vi.spyOn(statement, 'get');

    // No upstream: nothing to claim, so the round's idle test asks, and the reconcile it then
    // runs blocks the failed patient's dependents with that answer.
    await engine!.pump();
    expect(asked).toHaveBeenCalledTimes(1);
    expect(outbox().map((row) => row.state)).toEqual(['failed', 'queued']);
  });
});
