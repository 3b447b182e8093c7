import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { CREATABLE_COLLECTIONS, ErrorEnvelope, type CreatableCollection } from '@src/shared/contract';
import { makePng } from '@test/support/images';
import { manualClock, type ManualClock } from '@test/support/manual-clock';
import { startTestSandbox, type SandboxFixture } from '@test/support/sandbox-fixture';

const DAY = 24 * 60 * 60 * 1000;

let fx: SandboxFixture;
let clock: ManualClock;
beforeEach(async () => {
  clock = manualClock();
  fx = await startTestSandbox({ clock, delayMs: 60_000 });
});
afterEach(async () => {
  await fx.close();
});

async function bodies(): Promise<Record<CreatableCollection, [Record<string, unknown>, Record<string, unknown>]>> {
  const patient = (await fx.call('POST', '/v1/patients', { first_name: 'Ida', last_name: 'Key', date_of_birth: '1960-06-06' })).json;
  const card = (await fx.call('POST', '/v1/insurance_cards', { patient_id: patient.id, member_id: 'W1' })).json;
  const check = { insurance_card_id: card.id, provider_id: SEED_PROVIDERS[0].id, clearinghouse_entity_id: SEED_CLEARINGHOUSE_ENTITIES[0].id };
  return {
    patients: [{ first_name: 'Ida', last_name: 'Key', date_of_birth: '1960-06-06' }, { first_name: 'Ida', last_name: 'Other', date_of_birth: '1960-06-06' }],
    insurance_cards: [{ patient_id: patient.id, member_id: 'W2' }, { patient_id: patient.id, member_id: 'W3' }],
    extractions: [{ insurance_card_id: card.id }, { insurance_card_id: card.id, surprise: 1 }],
    electronic_eligibility_discoveries: [{ insurance_card_id: card.id, source: 'api' }, { insurance_card_id: card.id, source: 'dashboard' }],
    electronic_eligibility_checks: [{ ...check, service_type: 'chiropractic' }, { ...check, service_type: 'urgent_care' }],
  };
}

describe('Idempotency-Key on every create endpoint of the sandbox', () => {
  it.each(CREATABLE_COLLECTIONS)('%s: replays the first answer, refuses another body with 409, writes once', async (collection) => {
    const [body, other] = (await bodies())[collection];
    const path = `/v1/${collection}`;
    const key = `idem-${collection}`;
    const first = await fx.call('POST', path, body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    const after = fx.snapshot();
    const replay = await fx.call('POST', path, body, { 'idempotency-key': key });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json).toEqual(first.json);
    const conflict = await fx.call('POST', path, other, { 'idempotency-key': key });
    expect(conflict.status).toBe(409);
    expect(ErrorEnvelope.parse(conflict.json).error.code).toBe('idempotency_key_reused');
    expect(fx.snapshot()).toEqual(after);
  });

  it('photos: the same key and bytes replay; other bytes conflict', async () => {
    const png = makePng(5, 5, [9, 9, 9]);
    const first = await fx.call('POST', '/v1/photos', png, { 'content-type': 'image/png', 'idempotency-key': 'photo-1' });
    expect(first.status).toBe(201);
    const after = fx.snapshot();
    const replay = await fx.call('POST', '/v1/photos', png, { 'content-type': 'image/png', 'idempotency-key': 'photo-1' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const conflict = await fx.call('POST', '/v1/photos', makePng(5, 5, [1, 1, 1]), { 'content-type': 'image/png', 'idempotency-key': 'photo-1' });
    expect(conflict.status).toBe(409);
    expect(fx.snapshot()).toEqual(after);
  });

  it('keeps a first answer for 7 days by default, then forgets the key', async () => {
    const body = { first_name: 'Ida', last_name: 'Week', date_of_birth: '1960-06-06' };
    const first = await fx.call('POST', '/v1/patients', body, { 'idempotency-key': 'week' });
    clock.advance(7 * DAY - 1);
    expect((await fx.call('POST', '/v1/patients', body, { 'idempotency-key': 'week' })).json.id).toBe(first.json.id);
    clock.advance(2);
    const later = await fx.call('POST', '/v1/patients', body, { 'idempotency-key': 'week' });
    expect(later.status).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.json.id).not.toBe(first.json.id);
  });

  it('the window is configurable', async () => {
    await fx.close();
    fx = await startTestSandbox({ clock, idempotencyTtlMs: 1000 });
    const body = { first_name: 'Ida', last_name: 'Second', date_of_birth: '1960-06-06' };
    const first = await fx.call('POST', '/v1/patients', body, { 'idempotency-key': 'short' });
    clock.advance(1001);
    expect((await fx.call('POST', '/v1/patients', body, { 'idempotency-key': 'short' })).json.id).not.toBe(first.json.id);
  });
});
