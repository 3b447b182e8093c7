import os from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import type { BridgeResult } from '@src/shared/bridge/contract';
import type { AuditEntry } from '@src/shared/bridge/security-contract';
import { CANARY_MEMBER_ID, CANARY_PATIENT, CANARY_STRINGS } from '@test/support/canary-phi';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { makePng } from '@test/support/images';
import { actingAs } from '@src/main/support/audit-actor';
import { withAuditedCreates } from '@src/main/audit/audited-service';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';

let fx: HostFixture;
beforeEach(() => {
  fx = startTestHost({ actor: 'frontdesk1', localApi: false, hotFolder: false });
});
afterEach(async () => {
  await fx.cleanup();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each bridge method answers its own shape; the tests assert the fields they read
async function call(method: string, input: unknown): Promise<BridgeResult<any>> {
  return dispatchBridgeCall(fx.host.bridge, method, input);
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above: the value of any bridge method
async function ok(method: string, input: unknown): Promise<any> {
  const result = await call(method, input);
  if (!result.ok) throw new Error(`${method}: ${JSON.stringify(result.error)}`);
  return result.value;
}
function rows(): AuditEntry[] {
  return fx.host.database.sqlite.prepare('SELECT * FROM audit_log ORDER BY seq').all() as AuditEntry[];
}
const brief = (entries: AuditEntry[]) => entries.map((e) => [e.action, e.record_id]);

describe('audit log', () => {
  it("audits the desk's own safety and settings: locks, wrong PINs, unlocks and each setting changed, by its key and never its value", async () => {
    await ok('lock.setPin', { pin: '246810' });
    await ok('lock.engage', {});
    const wrong = await call('lock.unlock', { pin: '111111' });
    expect(wrong.ok).toBe(false);
    await ok('lock.unlock', { pin: '246810' });
    const folder = '/srv/scans/front-desk';
    await ok('settings.update', { hot_folder: folder, default_service_type: 'medical_care' });
    expect(brief(rows())).toEqual([
      ['change', 'setting:pin'],
      ['lock', 'desk:lock'],
      ['unlock_refused', 'desk:lock'],
      ['unlock', 'desk:lock'],
      ['change', 'setting:hot_folder'],
      ['change', 'setting:default_service_type'],
    ]);
    expect(rows().every((e) => e.actor === 'frontdesk1')).toBe(true);
    expect(JSON.stringify(rows())).not.toContain(folder);
    // A save that is refused changed nothing, so it leaves no entry.
    const refused = await call('settings.update', { upstream_url: 'not a url' });
    expect(refused.ok).toBe(false);
    expect(rows()).toHaveLength(6);
  });

  it('names the caller each create was made for, even when creates from two callers commit in one group', async () => {
    const audited = withAuditedCreates(fx.host.service, fx.host.audit);
    const create = (last: string) => audited.create('patients', { first_name: 'Group', last_name: last, date_of_birth: '1970-01-01' }, { source: 'api' });
    // Asked in one turn: one group commit, flushed from the first caller's context.
    const [a, b] = await Promise.all([actingAs('scanner A', () => create('A')), actingAs('scanner B', () => create('B'))]);
    const actorOf = (id: string) => rows().find((e) => e.action === 'create' && e.record_id === id)?.actor;
    expect(actorOf(a.id)).toBe('scanner A');
    expect(actorOf(b.id)).toBe('scanner B');
  });

  it('records creates and single-record views through the desk: who, what, which record, when; lists are not views', async () => {
    const photo = await ok('photos.upload', { content_type: 'image/png', data_base64: Buffer.from(makePng()).toString('base64') });
    const patient = await ok('patients.create', CANARY_PATIENT);
    const card = await ok('cards.create', { patient_id: patient.id, member_id: CANARY_MEMBER_ID, front_photo_object_key: photo.object_key });
    await ok('patients.list', {});
    await ok('cards.list', {});
    await ok('patients.get', { id: patient.id });
    await ok('cards.get', { id: card.id });
    await ok('desk.patient', { id: patient.id });
    await ok('photos.read', { object_key: photo.object_key });

    const entries = rows();
    expect(brief(entries)).toEqual([
      ['create', photo.object_key],
      ['create', patient.id],
      ['create', card.id],
      ['view', patient.id],
      ['view', card.id],
      ['view', patient.id],
      ['view', photo.object_key],
    ]);
    for (const entry of entries) {
      expect(entry.actor).toBe('frontdesk1');
      expect(Date.parse(entry.at)).toBeGreaterThan(Date.now() - 60_000);
    }
    // Ids only: no canary name, date of birth or member id anywhere in the log.
    const text = JSON.stringify(entries);
    for (const canary of CANARY_STRINGS) expect(text).not.toContain(canary);
  });

  it('names the operating-system user when no actor is given', async () => {
    await fx.cleanup();
    fx = startTestHost({ localApi: false, hotFolder: false });
    const patient = await ok('patients.create', CANARY_PATIENT);
    expect(rows()).toEqual([expect.objectContaining({ actor: os.userInfo().username, action: 'create', record_id: patient.id })]);
  });

  it('writes nothing for a call that failed', async () => {
    expect((await call('patients.create', { first_name: CANARY_PATIENT.first_name })).ok).toBe(false);
    expect((await call('patients.get', { id: 'pat_01JD0000000000000000000000' })).ok).toBe(false);
    expect(rows()).toEqual([]);
  });

  it('leaves exactly one create entry for each kind of record the desk creates', async () => {
    const patient = await ok('patients.create', CANARY_PATIENT);
    const card = await ok('cards.create', { patient_id: patient.id, member_id: CANARY_MEMBER_ID });
    const extraction = await ok('extractions.create', { insurance_card_id: card.id });
    const discovery = await ok('discoveries.create', { insurance_card_id: card.id });
    const check = await ok('checks.create', {
      insurance_card_id: card.id,
      provider_id: SEED_PROVIDERS[0].id,
      clearinghouse_entity_id: SEED_CLEARINGHOUSE_ENTITIES[0].id,
      service_type: 'chiropractic',
    });
    const creates = brief(rows()).filter(([action]) => action === 'create');
    expect(creates).toEqual([patient.id, card.id, extraction.id, discovery.id, check.id].map((id) => ['create', id]));
  });

  it('stores a desk create and its entry together or not at all: a create whose entry cannot be written stores nothing', async () => {
    const patients = () => fx.host.database.sqlite.prepare('SELECT count(*) AS n FROM patients').get() as { n: number };
    const queued = () => fx.host.database.sqlite.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number };
    // The log refuses this one append (as a full disk would): the record must not stay behind unrecorded.
    fx.host.database.sqlite.exec("CREATE TEMP TRIGGER audit_refused BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit refused'); END;");
    const refused = await call('patients.create', CANARY_PATIENT);
    expect(refused.ok).toBe(false);
    expect(patients().n).toBe(0);
    expect(queued().n).toBe(0);
    expect(rows()).toEqual([]);
    fx.host.database.sqlite.exec('DROP TRIGGER audit_refused');
    const patient = await ok('patients.create', CANARY_PATIENT);
    expect(brief(rows())).toEqual([['create', patient.id]]);
    expect(patients().n).toBe(1);
  });

  it('takes print and export entries from the UI, for record ids only', async () => {
    const patient = await ok('patients.create', CANARY_PATIENT);
    const printed = await ok('audit.record', { action: 'print', record_id: patient.id });
    expect(printed).toMatchObject({ action: 'print', record_id: patient.id, actor: 'frontdesk1' });
    await ok('audit.record', { action: 'export', record_id: patient.id });

    const before = fx.snapshot();
    const phi = await call('audit.record', { action: 'export', record_id: CANARY_PATIENT.last_name });
    expect(phi).toMatchObject({ ok: false, error: { code: 'validation_failed', errors: [{ path: 'record_id' }] } });
    const forged = await call('audit.record', { action: 'view', record_id: patient.id });
    expect(forged).toMatchObject({ ok: false, error: { code: 'validation_failed', errors: [{ path: 'action', code: 'invalid_enum_value' }] } });
    expect((await call('audit.record', { action: 'print', record_id: patient.id, note: 'x' })).ok).toBe(false);
    expect(fx.snapshot()).toEqual(before);
  });

  it('is append-only: the database refuses to change or delete an entry', async () => {
    const patient = await ok('patients.create', CANARY_PATIENT);
    const before = rows();
    const sqlite = fx.host.database.sqlite;
    expect(() => sqlite.prepare("UPDATE audit_log SET actor = 'someone else'").run()).toThrow(/append-only/);
    expect(() => sqlite.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    expect(() => sqlite.prepare('DELETE FROM audit_log WHERE record_id = ?').run(patient.id)).toThrow(/append-only/);
    expect(rows()).toEqual(before);
  });

  it('lists newest first for Settings, a page at a time', async () => {
    const patient = await ok('patients.create', CANARY_PATIENT);
    for (let i = 0; i < 4; i++) await ok('patients.get', { id: patient.id });
    const first = await ok('audit.list', { limit: 3 });
    expect(first.data.map((e: AuditEntry) => e.seq)).toEqual([5, 4, 3]);
    expect(first.next_before).toBe(3);
    const second = await ok('audit.list', { limit: 3, before: first.next_before });
    expect(second.data.map((e: AuditEntry) => e.seq)).toEqual([2, 1]);
    expect(second.next_before).toBeNull();
    expect(await call('audit.list', { limit: 0 })).toMatchObject({ ok: false, error: { errors: [{ path: 'limit', code: 'too_small' }] } });
  });

  it('keeps the idle lock minutes, 5 by default, 1 to 60', async () => {
    expect(await ok('idleLock.get', {})).toEqual({ minutes: 5, by_role: { front_desk: 5, manager: 5 } });
    expect(await ok('idleLock.update', { minutes: 12 })).toEqual({ minutes: 12, by_role: { front_desk: 12, manager: 12 } });
    const before = fx.snapshot();
    for (const minutes of [0, 61, 2.5, '10', null]) {
      const result = await call('idleLock.update', { minutes });
      expect(result).toMatchObject({ ok: false, error: { code: 'validation_failed', errors: [{ path: 'minutes' }] } });
    }
    expect(fx.snapshot()).toEqual(before);
    expect(await ok('idleLock.get', {})).toEqual({ minutes: 12, by_role: { front_desk: 12, manager: 12 } });
    expect(fx.reopen().database.sqlite.prepare("SELECT value FROM settings WHERE key = 'idle_lock_minutes'").get()).toEqual({ value: '12' });
  });
  it('keeps an idle limit per role (issue 28): a role not set follows the desk, a bad value writes nothing, a change is audited as the idle-lock setting', async () => {
    expect(await ok('idleLock.update', { by_role: { front_desk: 2 } })).toEqual({ minutes: 5, by_role: { front_desk: 2, manager: 5 } });
    expect(await ok('idleLock.update', { minutes: 9, by_role: { manager: 30 } })).toEqual({ minutes: 9, by_role: { front_desk: 2, manager: 30 } });
    const before = fx.snapshot();
    for (const [input, path] of [
      [{ by_role: { front_desk: 0, manager: 10 } }, 'by_role.front_desk'],
      [{ by_role: { manager: 61 } }, 'by_role.manager'],
      [{ by_role: { owner: 5 } }, 'by_role.owner'],
      [{}, 'minutes'],
    ] as const) {
      const result = await call('idleLock.update', input);
      expect(result).toMatchObject({ ok: false, error: { code: 'validation_failed', errors: [expect.objectContaining({ path })] } });
    }
    expect(fx.snapshot()).toEqual(before);
    expect(brief(rows())).toEqual([
      ['change', 'setting:idle_lock'],
      ['change', 'setting:idle_lock'],
    ]);
  });
});
