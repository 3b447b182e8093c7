import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { outbox } from '@src/main/db/schema';
import { pruneSyncedEntries } from '@src/main/outbox/outbox-pruning';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import type { Sandbox } from '@src/main/sandbox/start-sandbox';
import type { Clock } from '@src/main/support/clock';
import {
  closeAfterEach,
  createVisit,
  expectExactlyOnce,
  freePort,
  startSyncHost,
  startUpstream,
  waitForDrained,
  type SyncHostFixture,
} from '@test/support/sync/sync-harness';

const DAY = 24 * 60 * 60 * 1000;
let fx: SyncHostFixture | undefined;
let upstream: Sandbox | undefined;
closeAfterEach(() => fx, () => upstream);

function daysLater(days: number): Clock {
  return { now: () => new Date(Date.now() + days * DAY) };
}

async function drainedVisits(count: number) {
  upstream = await startUpstream(await freePort());
  fx = await startSyncHost(upstream.url);
  const visits = [];
  for (let n = 0; n < count; n++) visits.push(await createVisit(fx.host, n));
  await waitForDrained(fx);
  return visits;
}

function syncedEntries(): number {
  return fx!.host.database.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.state, 'synced')).all().length;
}

describe('pruning synced outbox entries', () => {
  it('deletes old synced entries in small batches; records stay synced with their upstream ids, and later records that refer to them still sync exactly once', async () => {
    const visits = await drainedVisits(3);
    const before = syncedEntries();
    // Each visit: a patient, two photos, a card and a check.
    expect(before).toBe(15);
    let batches = 0;
    const pruned = await pruneSyncedEntries(
      { db: fx!.host.database.db, clock: daysLater(8) },
      { batchSize: 4, keepNewest: 0, between: async () => void batches++ },
    );
    expect(pruned).toBe(15);
    expect(syncedEntries()).toBe(0);
    expect(batches).toBe(3);
    const card = await fx!.host.bridge['cards.get']({ id: visits[0].card.id });
    expect(card.sync).toMatchObject({ state: 'synced', remote_id: expect.stringMatching(/^ic_/) });

    // A check on a card whose entry is gone: no dependency left to wait for, and the card's
    // upstream id comes from the card itself.
    await fx!.host.bridge['checks.create']({
      insurance_card_id: visits[0].card.id,
      provider_id: SEED_PROVIDERS[0].id,
      clearinghouse_entity_id: SEED_CLEARINGHOUSE_ENTITIES[0].id,
      service_type: 'health_benefit_plan_coverage',
    });
    await waitForDrained(fx!);
    expectExactlyOnce(fx!.host.database.db, upstream!.database.db);
  });

  it('keeps what the Sync screen shows: recent entries, the newest ones whatever their age, and everything not yet synced', async () => {
    await drainedVisits(2);
    const db = fx!.host.database.db;
    expect(await pruneSyncedEntries({ db, clock: daysLater(6) }, { keepNewest: 0 })).toBe(0);
    expect(syncedEntries()).toBe(10);
    expect(await pruneSyncedEntries({ db, clock: daysLater(8) }, { keepNewest: 4 })).toBe(6);
    const kept = db.select({ id: outbox.id }).from(outbox).all().map((row) => row.id);
    expect(kept).toHaveLength(4);

    await upstream!.close();
    await fx!.host.bridge['patients.create']({ first_name: 'Queued', last_name: 'Offline', date_of_birth: '1980-01-02' });
    expect(await pruneSyncedEntries({ db, clock: daysLater(30) }, { keepNewest: 0 })).toBe(4);
    const left = db.select({ state: outbox.state }).from(outbox).all();
    expect(left).toHaveLength(1);
    expect(left[0].state).not.toBe('synced');
  });
});
