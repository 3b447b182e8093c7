import { describe, expect, it } from 'vitest';
import * as schema from '@src/main/db/schema';
import type { Db } from '@src/main/db/open-database';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import type { Sandbox } from '@src/main/sandbox/start-sandbox';
import {
  closeAfterEach,
  createVisit,
  SANDBOX_KEY,
  startSyncHost,
  startUpstream,
  waitFor,
  waitForDrained,
  type SyncHostFixture,
} from '@test/support/sync/sync-harness';

/**
 * Issue 26, item 4: going live (or moving between services) must not strand what the
 * previous service saw. Two real sandboxes on loopback stand for "the sandbox" and "the
 * real service"; the desk switches between them through Settings, as a person would.
 */

let a: Sandbox | undefined;
let b: Sandbox | undefined;
let desk: SyncHostFixture | undefined;
closeAfterEach(() => desk, () => a, () => b);

/** What a service holds, by table: records this desk sent it (each must arrive once). */
function held(upstream: Sandbox) {
  const db = upstream.database.db as Db;
  return {
    patients: db.select().from(schema.patients).all().length,
    cards: db.select().from(schema.insurance_cards).all().length,
    photos: db.select().from(schema.photos).all().length,
    checks: db.select().from(schema.checks).all().length,
  };
}

async function switchTo(fx: SyncHostFixture, url: string) {
  const saved = await fx.host.bridge['settings.update']({ upstream_url: url, api_key: SANDBOX_KEY, send_waiting_to_new_service: true });
  expect(saved.connection).toMatchObject({ state: 'connected' });
}

async function newCheck(fx: SyncHostFixture, cardId: string) {
  return fx.host.bridge['checks.create']({
    insurance_card_id: cardId,
    provider_id: SEED_PROVIDERS[0].id,
    clearinghouse_entity_id: SEED_CLEARINGHOUSE_ENTITIES[0].id,
    service_type: 'health_benefit_plan_coverage',
  });
}

describe('switching the service the desk syncs with', () => {
  it('sends a record the new service has not received (patient, photos, card, once, in order) before the check that needs it, and back again', async () => {
    a = await startUpstream(0);
    b = await startUpstream(0);
    desk = await startSyncHost(a.url);
    const visit = await createVisit(desk.host, 1);
    await waitForDrained(desk);
    expect(held(a)).toEqual({ patients: 1, cards: 1, photos: 2, checks: 1 });

    await switchTo(desk, b.url);
    const check = await newCheck(desk, visit.card.id);
    await waitForDrained(desk);
    const answered = await desk.host.bridge['checks.get']({ id: check.id });
    expect(answered).toMatchObject({ status: 'success', sync: { state: 'synced' } });
    // B received the patient, both photos and the card exactly once, and only the new check.
    expect(held(b)).toEqual({ patients: 1, cards: 1, photos: 2, checks: 1 });
    const status = await desk.host.bridge['sync.status']({});
    expect(status.counts).toMatchObject({ queued: 0, sending: 0, failed: 0, blocked: 0, needs_review: 0 });

    // A second check on B for the same card sends nothing again.
    const again = await newCheck(desk, visit.card.id);
    await waitForDrained(desk);
    expect(await desk.host.bridge['checks.get']({ id: again.id })).toMatchObject({ status: 'success' });
    expect(held(b)).toEqual({ patients: 1, cards: 1, photos: 2, checks: 2 });

    // Back to A: A already has the patient and the card, so only the check goes.
    await switchTo(desk, a.url);
    const back = await newCheck(desk, visit.card.id);
    await waitForDrained(desk);
    expect(await desk.host.bridge['checks.get']({ id: back.id })).toMatchObject({ status: 'success', sync: { state: 'synced' } });
    expect(held(a)).toEqual({ patients: 1, cards: 1, photos: 2, checks: 2 });

    // A's feed names the card again (the check updated its plan status there), by A's id:
    // the desk knows it as its own card, and holds each record once.
    const since = new Date().toISOString();
    await waitFor('a pull of A after the last check', async () => {
      const practice = await desk!.host.bridge['sync.practice']({});
      return practice.last_pulled_at !== null && practice.last_pulled_at > since && !practice.behind;
    });
    const local = desk.host.database.db;
    expect(local.select().from(schema.patients).all().length).toBe(1);
    expect(local.select().from(schema.insurance_cards).all().length).toBe(1);
    expect(local.select().from(schema.checks).all().length).toBe(4);
    expect(await desk.host.bridge['sync.practice']({})).toMatchObject({ set_aside: 0 });
  }, 30_000);

  it('a check the old service still owed an answer for is sent to the new one and answered there, not left "Checking…"', async () => {
    // A never answers within the test: its checks stay pending there.
    a = await startUpstream(0, { delayMs: 600_000 });
    b = await startUpstream(0);
    desk = await startSyncHost(a.url);
    const visit = await createVisit(desk.host, 2);
    await waitFor('the check to reach A', async () => (await desk!.host.bridge['checks.get']({ id: visit.check.id })).sync?.state === 'synced');
    expect((await desk.host.bridge['checks.get']({ id: visit.check.id })).status).toBe('pending');

    await switchTo(desk, b.url);
    await waitForDrained(desk);
    expect(await desk.host.bridge['checks.get']({ id: visit.check.id })).toMatchObject({ status: 'success' });
    expect(held(b)).toEqual({ patients: 1, cards: 1, photos: 2, checks: 1 });
  }, 30_000);
});
