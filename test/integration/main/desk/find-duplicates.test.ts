import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import { DUPLICATES_RECORDED, notePossibleDuplicates } from '@src/main/desk/find-duplicates';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';

/** `patients.findDuplicates` (Intake asks before registering) and cross-desk possible duplicates, on a real store. */
let fx: HostFixture;
beforeEach(() => {
  fx = startTestHost({ localApi: false, hotFolder: false });
});
afterEach(async () => {
  await fx.cleanup();
});

const DESK = { source: 'dashboard' } as const;

async function find(input: Record<string, unknown>) {
  const result = await dispatchBridgeCall(fx.host.bridge, 'patients.findDuplicates', input);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return (result.value as { data: { patient_id: string; reasons: string[] }[] }).data;
}

describe('one patient, one record', () => {
  it('finds the same person forgiving case, accents, punctuation and name order, or by member id; not a namesake born another day', async () => {
    const pena = await fx.host.service.create('patients', { first_name: 'José', last_name: 'Peña-Ruiz', date_of_birth: '1961-03-14' }, DESK);
    await fx.host.service.create('insurance_cards', { patient_id: pena.id, member_id: 'XG 4411' }, DESK);
    const other = await fx.host.service.create('patients', { first_name: 'Jose', last_name: 'Pena-Ruiz', date_of_birth: '1961-03-15' }, DESK);

    expect(await find({ first_name: 'jose', last_name: 'PENA RUIZ', date_of_birth: '1961-03-14' })).toMatchObject([{ patient_id: pena.id, reasons: ['name_and_date_of_birth'] }]);
    expect(await find({ first_name: 'Peña Ruiz', last_name: 'José', date_of_birth: '1961-03-14' })).toMatchObject([{ patient_id: pena.id }]);
    // Another name, same member id (typed with other spacing and case).
    expect(await find({ first_name: 'Pepe', last_name: 'Smith', date_of_birth: '1999-09-09', member_id: 'xg4411' })).toMatchObject([{ patient_id: pena.id, reasons: ['member_id'] }]);
    expect(await find({ first_name: 'Ana', last_name: 'Ruiz', date_of_birth: '1961-03-14' })).toEqual([]);
    expect((await find({ first_name: 'Jose', last_name: 'Pena-Ruiz', date_of_birth: '1961-03-15' })).map((c) => c.patient_id)).toEqual([other.id]);
  });

  it('refuses a question without what it needs, naming the field, and writes nothing', async () => {
    const before = fx.snapshot();
    const result = await dispatchBridgeCall(fx.host.bridge, 'patients.findDuplicates', { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '12/10/1985' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('validation_failed');
    expect(result.error.errors?.map((e) => e.path)).toEqual(['date_of_birth']);
    expect(fx.snapshot()).toEqual(before);
  });

  it('records a patient from another desk that may be a local one as a possible duplicate: listed, linked on request, never merged', async () => {
    const mine = await fx.host.service.create('patients', { first_name: 'Maria', last_name: 'Lopez', date_of_birth: '1980-05-05' }, DESK);
    const theirs = await fx.host.service.create('patients', { first_name: 'MARÍA', last_name: 'LÓPEZ', date_of_birth: '1980-05-05' }, DESK);
    expect(notePossibleDuplicates(fx.host.database.db, theirs.id, '2026-11-23T12:00:00.000Z')).toBe(1);
    expect(notePossibleDuplicates(fx.host.database.db, theirs.id, '2026-11-23T12:00:01.000Z')).toBe(1); // again: still one pair
    const listed = await dispatchBridgeCall(fx.host.bridge, 'patients.possibleDuplicates', {});
    expect(listed).toMatchObject({ ok: true, value: { data: [{ patient: { patient_id: mine.id }, other: { patient_id: theirs.id }, state: 'open' }] } });
    const linked = await dispatchBridgeCall(fx.host.bridge, 'patients.resolveDuplicate', { patient_id: mine.id, other_patient_id: theirs.id, state: 'linked' });
    expect(linked).toMatchObject({ ok: true, value: { state: 'linked' } });
    expect((await fx.host.service.list('patients', { limit: 10 })).data).toHaveLength(2);
    const unknown = await dispatchBridgeCall(fx.host.bridge, 'patients.resolveDuplicate', { patient_id: theirs.id, other_patient_id: mine.id, state: 'linked' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'resource_not_found' } });
  });

  it('records at most a few possible duplicates per patient received, the oldest registrations, so shared names cannot grow pairs by the square', async () => {
    const same = { first_name: 'Test', last_name: 'Patient', date_of_birth: '1970-01-01' };
    const earlier = [];
    for (let i = 0; i < DUPLICATES_RECORDED + 3; i++) earlier.push(await fx.host.service.create('patients', same, DESK));
    const received = await fx.host.service.create('patients', same, DESK);
    expect(notePossibleDuplicates(fx.host.database.db, received.id, '2026-11-23T10:00:00.000Z')).toBe(DUPLICATES_RECORDED);
    const pairs = fx.host.database.sqlite.prepare('SELECT patient_id FROM possible_duplicates WHERE other_patient_id = ?').all(received.id) as { patient_id: string }[];
    expect(pairs.map((p) => p.patient_id).sort()).toEqual(earlier.slice(0, DUPLICATES_RECORDED).map((p) => p.id).sort());
  });
});
