import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workstationUser } from '@src/main/audit/audit-log';
import { BRIDGE_METHOD_NAMES } from '@src/shared/bridge/contract';
import { METHOD_ROLES } from '@src/shared/bridge/method-roles';
import { bridgeCalls } from '@test/support/bridge-calls';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { manualClock, type ManualClock } from '@test/support/manual-clock';

let fx: HostFixture;
let clock: ManualClock;
const { ok, refused } = bridgeCalls(() => fx.host.bridge);
beforeEach(() => {
  clock = manualClock();
  fx = startTestHost({ localApi: false, hotFolder: false, clock, pinPolicy: { freeTries: 3, firstWaitMs: 30_000, maxWaitMs: 120_000 } });
});
afterEach(async () => {
  await fx.cleanup();
});

const os = workstationUser();
const staffRows = () => fx.host.database.sqlite.prepare('SELECT id, name, role, pin, disabled_at FROM staff').all() as { id: string; name: string; role: string; pin: string; disabled_at: string | null }[];
const auditEntries = () => fx.host.database.sqlite.prepare('SELECT actor, action, record_id FROM audit_log ORDER BY seq').all() as { actor: string; action: string; record_id: string }[];

async function deskWithTwoPeople() {
  const manager = (await ok('staff.setup', { name: 'Maria Manager', pin: '135790' })).signed_in;
  const ana = await ok('staff.add', { name: 'Ana Front', role: 'front_desk', pin: '246801' });
  const ben = await ok('staff.add', { name: 'Ben Front', role: 'front_desk', pin: 'a long passphrase' });
  return { manager, ana, ben };
}

describe('staff accounts (issue 28)', () => {
  it('every bridge method is classed in the one role table', () => {
    expect(Object.keys(METHOD_ROLES).sort()).toEqual([...BRIDGE_METHOD_NAMES].sort());
  });

  it('first start: one name and PIN make the signed-in manager, audited as them; a second setup is refused', async () => {
    expect(await ok('staff.session')).toEqual({ setup_needed: true, lock_pin_set: false, signed_in: null, must_choose_pin: false, people: [] });
    const session = await ok('staff.setup', { name: 'Maria Manager', pin: '135790' });
    expect(session).toMatchObject({ setup_needed: false, signed_in: { name: 'Maria Manager', role: 'manager' }, people: [{ name: 'Maria Manager' }] });
    const [row] = staffRows();
    expect(row!.pin).not.toContain('135790');
    expect(JSON.parse(row!.pin)).toMatchObject({ kdf: 'scrypt', N: 2 ** 15 });
    expect(auditEntries()).toEqual([
      { actor: `Maria Manager (${os})`, action: 'staff_added', record_id: row!.id },
      { actor: `Maria Manager (${os})`, action: 'sign_in', record_id: row!.id },
    ]);
    expect(await refused('staff.setup', { name: 'Someone Else', pin: '999999' })).toMatchObject({ code: 'already_set_up', status: 409 });
    expect(staffRows()).toHaveLength(1);
  });

  it('nobody is added before the first manager: that would skip the first start and its lock PIN', async () => {
    await fx.host.bridge['lock.setPin']({ pin: '4321' });
    expect(await refused('staff.add', { name: 'Eve Early', role: 'manager', pin: '111111' })).toMatchObject({ code: 'setup_needed', status: 409 });
    expect(await refused('staff.add', { name: 'Fred Early', role: 'front_desk', pin: '111111' })).toMatchObject({ code: 'setup_needed' });
    expect(staffRows()).toEqual([]);
    expect(await ok('staff.session')).toMatchObject({ setup_needed: true });
  });

  it('refuses a short PIN or passphrase, naming the field, and writes nothing', async () => {
    for (const pin of ['1234', '12345', 'short pass']) {
      const error = await refused('staff.setup', { name: 'Maria', pin: pin === 'short pass' ? 'short' : pin });
      expect(error).toMatchObject({ code: 'validation_failed', errors: [{ path: 'pin' }] });
      expect(error.errors![0]!.message).toMatch(/6 to 12 digits or a passphrase of at least 10 characters/);
    }
    expect(await refused('staff.setup', { name: '  ', pin: '135790' })).toMatchObject({ errors: [{ path: 'name' }] });
    expect(staffRows()).toEqual([]);
    expect(auditEntries()).toEqual([]);
  });

  it('the host enforces roles: signed out nothing answers, a front-desk person is refused a manager call (audited as them)', async () => {
    const { ana } = await deskWithTwoPeople();
    await ok('staff.signOut');
    expect(await refused('patients.list')).toMatchObject({ code: 'sign_in_required', status: 401 });
    // The sign-in screen's own methods still answer, and name who may sign in.
    expect((await ok('staff.session')).people.map((p: { name: string }) => p.name)).toEqual(['Ana Front', 'Ben Front', 'Maria Manager']);

    await ok('staff.signIn', { id: ana.id, pin: '246801' });
    expect((await ok('patients.list')).data).toEqual([]);
    for (const [method, input] of [
      ['settings.update', { api_key: 'sk_x' }],
      ['audit.search', {}],
      ['staff.add', { name: 'Eve', role: 'manager', pin: '111111' }],
      ['localApi.addIntegration', { name: 'Scanner' }],
    ] as const) {
      const error = await refused(method, input);
      expect(error).toMatchObject({ code: 'not_allowed', status: 403 });
      expect(error.message).toContain('Only a manager may do this');
    }
    expect(staffRows()).toHaveLength(3);
    const refusals = auditEntries().filter((e) => e.action === 'not_allowed');
    expect(refusals.map((e) => e.record_id)).toEqual(['desk:settings_update', 'desk:audit_search', 'desk:staff_add', 'desk:local_api_add_integration']);
    expect(new Set(refusals.map((e) => e.actor))).toEqual(new Set([`Ana Front (${os})`]));
  });

  it('each person’s work is audited under their name; switching user changes the name; the Audit screen filters by person', async () => {
    const { ana, ben, manager } = await deskWithTwoPeople();
    await ok('staff.signIn', { id: ana.id, pin: '246801' });
    const anaPatient = await ok('patients.create', { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1980-01-01' });
    await ok('staff.signOut');
    await ok('staff.signIn', { id: ben.id, pin: 'a long passphrase' });
    await ok('patients.get', { id: anaPatient.id });
    await ok('staff.signOut');
    await ok('staff.signIn', { id: manager.id, pin: '135790' });
    const anaRows = await ok('audit.search', { actor: `Ana Front (${os})` });
    expect(anaRows.data.map((r: { action: string }) => r.action)).toEqual(['sign_out', 'create', 'sign_in']);
    const benRows = await ok('audit.search', { actor: `Ben Front (${os})` });
    expect(benRows.data.map((r: { action: string; patient_id: string | null }) => [r.action, r.patient_id])).toEqual([
      ['sign_out', null],
      ['view', anaPatient.id],
      ['sign_in', null],
    ]);
    expect(auditEntries().filter((e) => e.action === 'sign_out').map((e) => e.actor)).toEqual([`Ana Front (${os})`, `Ben Front (${os})`]);
    // The Audit screen says what a sign-in names: a staff member, not a patient's record.
    expect(benRows.data.find((r: { action: string }) => r.action === 'sign_in')).toMatchObject({ records: 'staff member' });
  });

  it('wrong PINs are counted per person: three free, then a doubling wait, audited; the next person is not held up', async () => {
    const { ana, ben } = await deskWithTwoPeople();
    await ok('staff.signOut');
    expect((await refused('staff.signIn', { id: ana.id, pin: '000000' })).message).toBe('That PIN is not right. 2 tries left before Coverdesk makes you wait.');
    await refused('staff.signIn', { id: ana.id, pin: '000001' });
    expect(await refused('staff.signIn', { id: ana.id, pin: '000002' })).toMatchObject({ code: 'pin_incorrect', message: 'That PIN is not right. Wait 30 seconds before trying again.' });
    // The right PIN during the wait is refused without being checked.
    expect(await refused('staff.signIn', { id: ana.id, pin: '246801' })).toMatchObject({ code: 'pin_wait', status: 429 });
    // Ben's PIN is his own count.
    expect((await ok('staff.signIn', { id: ben.id, pin: 'a long passphrase' })).signed_in.name).toBe('Ben Front');
    await ok('staff.signOut');
    clock.advance(30_000);
    expect(await refused('staff.signIn', { id: ana.id, pin: '000003' })).toMatchObject({ message: 'That PIN is not right. Wait 1 minute before trying again.' });
    clock.advance(60_000);
    expect((await ok('staff.signIn', { id: ana.id, pin: '246801' })).signed_in.name).toBe('Ana Front');
    const anaRefusals = auditEntries().filter((e) => e.action === 'sign_in_refused' && e.record_id === ana.id);
    expect(anaRefusals).toHaveLength(5);
    expect(anaRefusals[0]!.actor).toBe(os);
  });

  it('a disabled person is refused (audited) until enabled again; the last manager cannot be disabled or demoted', async () => {
    const { ana, manager } = await deskWithTwoPeople();
    expect(await ok('staff.update', { id: ana.id, disabled: true })).toMatchObject({ disabled_at: expect.any(String) });
    expect((await ok('staff.session')).people.map((p: { name: string }) => p.name)).not.toContain('Ana Front');
    await ok('staff.signOut');
    expect(await refused('staff.signIn', { id: ana.id, pin: '246801' })).toMatchObject({ code: 'staff_disabled', status: 403 });
    expect(auditEntries().at(-1)).toEqual({ actor: os, action: 'sign_in_refused', record_id: ana.id });
    await ok('staff.signIn', { id: manager.id, pin: '135790' });
    await ok('staff.update', { id: ana.id, disabled: false, name: 'Ana Front-Desk', role: 'manager' });
    expect(await refused('staff.update', { id: ana.id, name: 'maria manager' })).toMatchObject({ errors: [{ path: 'name', code: 'taken' }] });
    await ok('staff.update', { id: ana.id, role: 'front_desk' });
    expect(await refused('staff.update', { id: manager.id, disabled: true })).toMatchObject({ code: 'last_manager', errors: [{ path: 'disabled' }] });
    expect(await refused('staff.update', { id: manager.id, role: 'front_desk' })).toMatchObject({ code: 'last_manager', errors: [{ path: 'role' }] });
    expect(staffRows().find((r) => r.id === manager.id)).toMatchObject({ role: 'manager', disabled_at: null });
    expect(auditEntries().filter((e) => e.action === 'staff_changed').map((e) => e.record_id)).toEqual([ana.id, ana.id, ana.id]);
  });

  it('the idle time-out (lock.engage) and the OS lock sign the person out', async () => {
    const { manager } = await deskWithTwoPeople();
    await ok('lock.engage');
    expect((await ok('staff.session')).signed_in).toBeNull();
    expect(await refused('desk.today', { since: '2026-11-23T00:00:00.000Z' })).toMatchObject({ code: 'sign_in_required' });
    expect(auditEntries().at(-1)).toEqual({ actor: `Maria Manager (${os})`, action: 'lock', record_id: 'desk:lock' });
    await ok('staff.signIn', { id: manager.id, pin: '135790' });
    fx.host.events.emit('session.locked', { reason: 'system_lock' });
    expect((await ok('staff.session')).signed_in).toBeNull();
  });

  it('the idle time-out (lock.engage, reason idle) is audited as a time-out of the person signed in', async () => {
    const { manager } = await deskWithTwoPeople();
    await ok('lock.engage', { reason: 'idle' });
    expect((await ok('staff.session')).signed_in).toBeNull();
    expect(auditEntries().at(-1)).toEqual({ actor: `Maria Manager (${os})`, action: 'time_out', record_id: manager!.id });
    expect(await refused('lock.engage', { reason: 'bored' })).toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ path: 'reason' })] });
  });

  it('a desk started without asking for its first manager works without sign-in until one is made through the bridge', async () => {
    await fx.cleanup();
    fx = startTestHost({ localApi: false, hotFolder: false, clock, askFirstManager: false });
    expect(await ok('staff.session')).toEqual({ setup_needed: false, lock_pin_set: false, signed_in: null, must_choose_pin: false, people: [] });
    expect((await ok('patients.list')).data).toEqual([]);
    await ok('staff.setup', { name: 'Maria Manager', pin: '135790' });
    await ok('staff.signOut');
    expect(await refused('patients.list')).toMatchObject({ code: 'sign_in_required' });
  });

  it('a PIN a manager set is the person’s to replace: the session asks them to choose their own, once, audited as them', async () => {
    const { manager, ana } = await deskWithTwoPeople();
    await ok('staff.update', { id: ana.id, pin: '111222' });
    // A manager changing their own PIN chose it: nothing to ask.
    await ok('staff.update', { id: manager!.id, pin: '135791' });
    await ok('staff.signOut');
    expect((await ok('staff.signIn', { id: manager!.id, pin: '135791' })).must_choose_pin).toBe(false);
    await ok('staff.signOut');
    expect(await ok('staff.signIn', { id: ana.id, pin: '111222' })).toMatchObject({ signed_in: { name: 'Ana Front' }, must_choose_pin: true });
    // Until she has, the host does nothing else for her: the manager knows that PIN.
    const unchosen = fx.snapshot();
    expect(await refused('patients.list')).toMatchObject({ code: 'choose_pin_required' });
    expect(await refused('patients.create', { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' })).toMatchObject({ code: 'choose_pin_required' });
    expect(fx.snapshot()).toEqual(unchosen);
    expect(await ok('staff.session')).toMatchObject({ must_choose_pin: true });
    const before = fx.snapshot();
    expect(await refused('staff.choosePin', { pin: '123' })).toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ path: 'pin' })] });
    expect(fx.snapshot()).toEqual(before);
    expect((await ok('staff.choosePin', { pin: '864200' })).must_choose_pin).toBe(false);
    expect(auditEntries().at(-1)).toEqual({ actor: `Ana Front (${os})`, action: 'staff_changed', record_id: ana.id });
    await ok('patients.list');
    await ok('staff.signOut');
    expect(await refused('staff.choosePin', { pin: '864201' })).toMatchObject({ code: 'sign_in_required' });
    expect(await refused('staff.signIn', { id: ana.id, pin: '111222' })).toMatchObject({ code: 'pin_incorrect' });
    expect(await ok('staff.signIn', { id: ana.id, pin: '864200' })).toMatchObject({ must_choose_pin: false });
  });

  it('a desk with today’s lock PIN: its first manager must give that PIN, which the staff PINs then replace', async () => {
    await ok('lock.setPin', { pin: '2468' });
    await ok('lock.engage');
    expect(await ok('staff.session')).toMatchObject({ setup_needed: true, lock_pin_set: true });
    expect(await refused('staff.setup', { name: 'Maria', pin: '135790' })).toMatchObject({ errors: [{ path: 'lock_pin' }] });
    expect(await refused('staff.setup', { name: 'Maria', pin: '135790', lock_pin: '1111' })).toMatchObject({ code: 'pin_incorrect' });
    expect(staffRows()).toEqual([]);
    const session = await ok('staff.setup', { name: 'Maria', pin: '135790', lock_pin: '2468' });
    expect(session).toMatchObject({ lock_pin_set: false, signed_in: { name: 'Maria', role: 'manager' } });
    expect(await ok('lock.status')).toMatchObject({ pin_set: false, locked: false });
    expect((await ok('patients.list')).data).toEqual([]);
  });
});

describe('emergency access with the recovery code (issue 28, item 5)', () => {
  it('the only manager forgot their PIN: the code signs in with manager rights for that sign-in, their PIN is set again, and a wrong code changes nothing', async () => {
    await fx.cleanup();
    fx = startTestHost({ localApi: false, hotFolder: false, clock, recoveryScrypt: { N: 2 ** 10, r: 8, p: 1 } });
    const sheet = await ok('recovery.setup');
    const { manager } = await deskWithTwoPeople();
    await ok('staff.signOut');
    expect(await refused('staff.list')).toMatchObject({ code: 'sign_in_required' });

    expect(await refused('recovery.emergencyAccess', { code: '0000-0000-0000-0000-0000-0000' })).toMatchObject({ code: expect.stringMatching(/validation_failed|recovery_code_wrong/) });
    expect((await ok('staff.session')).signed_in).toBeNull();

    await ok('recovery.emergencyAccess', { code: sheet!.code });
    expect((await ok('staff.session')).signed_in).toMatchObject({ name: 'Emergency access (recovery code)', role: 'manager' });
    expect(await refused('staff.update', { id: manager!.id, pin: '12' })).toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ path: 'pin' })] });
    await ok('staff.update', { id: manager!.id, pin: '975310' });
    expect(auditEntries().at(-1)).toEqual({ actor: `Emergency access (recovery code) (${os})`, action: 'staff_changed', record_id: manager!.id });
    // The manager is asked to choose their own PIN at their next sign-in.

    // The grant ends with the sign-in; the manager's new PIN works and the old one does not.
    await ok('staff.signOut');
    expect(await refused('staff.list')).toMatchObject({ code: 'sign_in_required' });
    expect(await refused('staff.signIn', { id: manager!.id, pin: '135790' })).toMatchObject({ code: expect.any(String) });
    expect(await ok('staff.signIn', { id: manager!.id, pin: '975310' })).toMatchObject({ signed_in: { name: 'Maria Manager', role: 'manager' }, must_choose_pin: true });
    expect(await refused('recovery.emergencyAccess', { code: sheet!.code })).toMatchObject({ code: 'recovery_code_used' });
  });
});
