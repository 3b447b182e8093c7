import { afterEach, describe, expect, it } from 'vitest';
import { expireCursors } from '@src/main/sandbox/changes-feed';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { ChangesPage, type Change } from '@src/shared/contract';
import { manualClock } from '@test/support/manual-clock';
import { startTestSandbox, type SandboxFixture } from '@test/support/sandbox-fixture';

/** The sandbox's side of the feed: what changes by itself (resolutions, plan status) and expired cursors. */
describe('sandbox changes feed', () => {
  let fx: SandboxFixture | undefined;
  afterEach(async () => {
    await fx?.close();
    fx = undefined;
  });

  async function readAll(f: SandboxFixture, after?: string): Promise<{ changes: Change[]; cursor: string }> {
    const changes: Change[] = [];
    let cursor = after;
    for (;;) {
      const answer = await f.call('GET', `/v1/changes?limit=7${cursor ? `&after=${cursor}` : ''}`);
      expect(answer.status, answer.text).toBe(200);
      const page = ChangesPage.parse(answer.json);
      changes.push(...page.data);
      cursor = page.next_cursor;
      if (!page.has_more) return { changes, cursor };
    }
  }

  it('moves a record to the end when its status changes: a resolved check and its card plan status, once each', async () => {
    const clock = manualClock();
    fx = await startTestSandbox({ clock, delayMs: 1000 });
    const { service } = fx.sandbox;
    const patient = await service.create('patients', { first_name: 'Ada', last_name: 'Feed', date_of_birth: '1980-02-03' }, { source: 'api' });
    const card = await service.create('insurance_cards', { patient_id: patient.id, member_id: 'XGH123456789' }, { source: 'api' });
    const check = await service.create(
      'electronic_eligibility_checks',
      { insurance_card_id: card.id, provider_id: SEED_PROVIDERS[0].id, clearinghouse_entity_id: SEED_CLEARINGHOUSE_ENTITIES[0].id, service_type: 'health_benefit_plan_coverage' },
      { source: 'api' },
    );
    const before = await readAll(fx);
    expect(before.changes.map((c) => c.record.id)).toEqual([patient.id, card.id, check.id]);
    expect(before.changes[2].record).toMatchObject({ status: 'pending' });

    clock.advance(1500);
    const after = await readAll(fx, before.cursor);
    // The check resolved and its card learnt its plan status, in that transaction's order.
    expect(after.changes.map((c) => c.record.id)).toEqual([check.id, card.id]);
    expect(after.changes[0].record).toMatchObject({ status: 'success' });
    expect(after.changes[1].record).toMatchObject({ plan_status: 'active' });
    // From the beginning: every record once, as it is now.
    const all = await readAll(fx);
    expect(all.changes.map((c) => c.record.id)).toEqual([patient.id, check.id, card.id]);
  });

  it('carries cards from any caller, collection page included', async () => {
    fx = await startTestSandbox();
    const { service } = fx.sandbox;
    const patient = await service.create('patients', { first_name: 'Lin', last_name: 'Page', date_of_birth: '1975-05-06' }, { source: 'api' });
    const card = await service.submitFromCollectionPage({ patient_id: patient.id, member_id: 'COLLECT1' });
    const { changes } = await readAll(fx);
    expect(changes.at(-1)).toMatchObject({ collection: 'insurance_cards', record: { id: card.id, source: 'collection_page' } });
  });

  it('answers 410 cursor_expired before the kept history, and still serves every record from the beginning', async () => {
    fx = await startTestSandbox();
    const { service } = fx.sandbox;
    for (let i = 0; i < 3; i++) await service.create('patients', { first_name: 'Old', last_name: `Cursor${i}`, date_of_birth: '1990-01-01' }, { source: 'api' });
    const first = ChangesPage.parse((await fx.call('GET', '/v1/changes?limit=1')).json);
    expireCursors(fx.sandbox.database.db);
    const before = fx.snapshot();
    const answer = await fx.call('GET', `/v1/changes?after=${first.next_cursor}`);
    expect(answer.status).toBe(410);
    expect(answer.json.error).toMatchObject({ code: 'cursor_expired', type: 'invalid_request_error' });
    expect(answer.json.error.message).toMatch(/beginning/);
    expect(fx.snapshot()).toEqual(before);
    const all = await readAll(fx);
    expect(all.changes).toHaveLength(3);
  });
});
