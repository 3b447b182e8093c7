import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BRIDGE_METHOD_NAMES, BRIDGE_METHODS } from '@src/shared/bridge/contract';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { makePng } from '@test/support/images';

let fx: HostFixture;
beforeEach(() => {
  fx = startTestHost();
});
afterEach(async () => {
  await fx.cleanup();
});

describe('bridge dispatch', () => {
  it('has a handler for every method of the contract, and nothing else', () => {
    expect(Object.keys(fx.host.bridge).sort()).toEqual([...BRIDGE_METHOD_NAMES].sort());
    for (const name of BRIDGE_METHOD_NAMES) expect(name).toMatch(/^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/);
    expect(Object.keys(BRIDGE_METHODS).length).toBe(BRIDGE_METHOD_NAMES.length);
  });

  it('creates through the desk channel: cards and checks are dashboard, discoveries say dashboard', async () => {
    const call = (method: string, input: unknown) => dispatchBridgeCall(fx.host.bridge, method, input);
    const patient = await call('patients.create', { first_name: 'Grace', last_name: 'Hopper', date_of_birth: '1906-12-09' });
    expect(patient.ok).toBe(true);
    const photo = await call('photos.upload', { content_type: 'image/png', data_base64: Buffer.from(makePng()).toString('base64') });
    expect(photo.ok).toBe(true);
    const patientId = (patient as { value: { id: string } }).value.id;
    const objectKey = (photo as { value: { object_key: string } }).value.object_key;
    const card = await call('cards.create', { patient_id: patientId, member_id: 'M1', front_photo_object_key: objectKey });
    expect(card).toMatchObject({ ok: true, value: { source: 'dashboard' } });
    const cardId = (card as { value: { id: string } }).value.id;
    const discovery = await call('discoveries.create', { insurance_card_id: cardId });
    expect(discovery).toMatchObject({ ok: true, value: { source: 'dashboard', status: 'pending' } });
    const read = await call('photos.read', { object_key: objectKey });
    expect(read).toMatchObject({ ok: true, value: { content_type: 'image/png' } });
  });

  it('answers invalid input, unknown methods and missing records with coded errors, writing nothing', async () => {
    const before = fx.snapshot();
    const invalid = await dispatchBridgeCall(fx.host.bridge, 'patients.create', { first_name: '', date_of_birth: '1990-02-31' });
    expect(invalid.ok).toBe(false);
    if (invalid.ok) return;
    expect(invalid.error).toMatchObject({ code: 'validation_failed', status: 422 });
    expect(invalid.error.errors?.map((e) => e.path).sort()).toEqual(['date_of_birth', 'first_name', 'last_name']);
    // The discovery's source is the channel's to set.
    const sourced = await dispatchBridgeCall(fx.host.bridge, 'discoveries.create', { insurance_card_id: 'ic_1', source: 'api' });
    expect(sourced).toMatchObject({ ok: false, error: { code: 'validation_failed', errors: [{ path: 'source', code: 'unknown_field' }] } });
    expect(await dispatchBridgeCall(fx.host.bridge, 'patients.drop', {})).toMatchObject({ ok: false, error: { code: 'route_not_found', status: 404 } });
    expect(await dispatchBridgeCall(fx.host.bridge, 'cards.get', { id: 'ic_missing' })).toMatchObject({
      ok: false,
      error: { code: 'resource_not_found', status: 404 },
    });
    expect(fx.snapshot()).toEqual(before);
  });

  it('never leaks an unexpected error message: it may carry PHI', async () => {
    const handlers = { ...fx.host.bridge, 'patients.list': async () => Promise.reject(new Error('Lovelace, Ada 1985-12-10')) };
    const result = await dispatchBridgeCall(handlers, 'patients.list', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'internal_error', status: 500 } });
    expect(JSON.stringify(result)).not.toContain('Lovelace');
  });
});
