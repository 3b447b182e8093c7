import { describe, expect, it } from 'vitest';
import { createHost, type Host } from '@src/main/host/create-host';
import { createHttpV1Client } from '@src/main/http/v1-client';
import { createSyncEngine, type SyncEngine } from '@src/main/sync/sync-engine';
import { makeTempDir } from '@test/support/temp-dir';
import { statementsRunAsync } from '@test/support/statement-counter';
import { closeAfterEach, FAST_POLICY, freePort, waitFor } from '@test/support/sync/sync-harness';

/**
 * Kicks (something was created) closer together than a round's spacing share one round
 * (docs/decisions.md, Sync): a busy local API commits a group every turn or two, and a round
 * after each was a tenth of its thread. Each round after a kick looks for stopped entries
 * (the reconcile's first question), which counts the rounds without timing anything; a round
 * that writes opens its transaction by switching the connection to `synchronous = NORMAL`.
 */

const temp = makeTempDir('coverdesk-kicks-');
let host: Host | undefined;
let engine: SyncEngine | undefined;
closeAfterEach(
  () => (engine ? { close: () => engine!.stop() } : undefined),
  () => host,
);

/** No probe for a minute: the only rounds are the kicks'. */
const QUIET = { ...FAST_POLICY, probe: { baseMs: 60_000, capMs: 60_000 } };
const isRound = (sql: string) => sql.includes('"outbox"."state" in (?, ?, ?)');
const isTransaction = (sql: string) => sql === 'PRAGMA synchronous = NORMAL';
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the sync worker after the desk creates something', () => {
  it('a burst of kicks, one a turn, shares rounds; the last kick is still followed by a round', async () => {
    host = createHost({ dataDir: `${temp.dir}/burst`, localApi: false, hotFolder: false });
    // Offline (a closed port), as the local API's bench desk: every round is bookkeeping alone.
    const url = `http://127.0.0.1:${await freePort()}`;
    engine = createSyncEngine({ db: host.database.db, clock: host.clock, ids: host.ids, policy: QUIET, readPhoto: (key) => host!.service.readPhoto(key) });
    engine.setUpstream({ mode: 'upstream', url, service: createHttpV1Client({ baseUrl: url, apiKey: 'k', timeoutMs: 1_000 }) });
    engine.start();
    await waitFor('the first contact to fail', () => engine!.status().online === false || undefined);

    const { sql } = await statementsRunAsync(host.database.sqlite, async () => {
      for (let i = 0; i < 30; i++) {
        engine!.kick();
        await turn();
      }
      // The spacing is tens of milliseconds: what the last kicks asked for is done after it.
      await new Promise((resolve) => setTimeout(resolve, 150));
    });
    const rounds = sql.filter(isRound).length;
    expect(rounds).toBeGreaterThanOrEqual(1);
    // One a kick before: thirty.
    expect(rounds).toBeLessThan(10);

    // Offline with nothing stopped, a round has nothing to write: it opens no transaction.
    expect(sql.filter(isTransaction)).toHaveLength(0);
  });

  it('a kick while an entry has failed reconciles in a transaction: the new entry that depends on it is blocked', async () => {
    host = createHost({ dataDir: `${temp.dir}/stopped`, localApi: false, hotFolder: false });
    const url = `http://127.0.0.1:${await freePort()}`;
    engine = createSyncEngine({ db: host.database.db, clock: host.clock, ids: host.ids, policy: QUIET, readPhoto: (key) => host!.service.readPhoto(key) });
    engine.setUpstream({ mode: 'upstream', url, service: createHttpV1Client({ baseUrl: url, apiKey: 'k', timeoutMs: 1_000 }) });
    const patient = await host.service.create('patients', { first_name: 'Kick', last_name: 'Test', date_of_birth: '1970-01-01' }, { source: 'dashboard' });
    // The upstream refused the patient (as the failures test has the sandbox do).
    host.database.sqlite.prepare("UPDATE outbox SET state = 'failed' WHERE record_id = ?").run(patient.id);
    engine.start();
    await waitFor('the first contact to fail', () => engine!.status().online === false || undefined);
    const card = await host.service.create('insurance_cards', { patient_id: patient.id, member_id: 'XGH123456789' }, { source: 'dashboard' });

    const { sql } = await statementsRunAsync(host.database.sqlite, async () => {
      engine!.kick();
      await waitFor('the card entry blocked', () => {
        const row = host!.database.sqlite.prepare('SELECT state FROM outbox WHERE record_id = ?').get(card.id) as { state: string };
        return row.state === 'blocked' || undefined;
      });
    });
    expect(sql.filter(isTransaction).length).toBeGreaterThanOrEqual(1);
  });

  it('a kick after a quiet spell runs its round in the next turn', async () => {
    host = createHost({ dataDir: `${temp.dir}/quiet`, localApi: false, hotFolder: false });
    const url = `http://127.0.0.1:${await freePort()}`;
    engine = createSyncEngine({ db: host.database.db, clock: host.clock, ids: host.ids, policy: QUIET, readPhoto: (key) => host!.service.readPhoto(key) });
    engine.setUpstream({ mode: 'upstream', url, service: createHttpV1Client({ baseUrl: url, apiKey: 'k', timeoutMs: 1_000 }) });
    engine.start();
    await waitFor('the first contact to fail', () => engine!.status().online === false || undefined);
    await new Promise((resolve) => setTimeout(resolve, 60));

    const { sql } = await statementsRunAsync(host.database.sqlite, async () => {
      engine!.kick();
      await turn();
      await turn();
    });
    expect(sql.filter(isRound)).toHaveLength(1);
  });
});
