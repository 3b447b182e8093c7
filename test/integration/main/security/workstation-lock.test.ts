import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PIN_KDF } from '@src/main/security/workstation-lock';
import { bridgeCalls } from '@test/support/bridge-calls';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { manualClock, type ManualClock } from '@test/support/manual-clock';

let fx: HostFixture;
let clock: ManualClock;
const { call, ok, refused } = bridgeCalls(() => fx.host.bridge);
beforeEach(() => {
  clock = manualClock();
  fx = startTestHost({ localApi: false, hotFolder: false, clock, pinPolicy: { freeTries: 3, firstWaitMs: 30_000, maxWaitMs: 120_000 } });
});
afterEach(async () => {
  await fx.cleanup();
});

const settingsRows = () => fx.host.database.sqlite.prepare("SELECT key, value FROM settings WHERE key LIKE 'lock_%'").all() as { key: string; value: string }[];

describe('workstation PIN', () => {
  it('without a PIN the lock is only the privacy screen: the host never locks', async () => {
    expect(await ok('lock.status')).toEqual({ pin_set: false, locked: false, retry_at: null, tries_left: 3, system_unlock: null });
    expect(await ok('lock.engage')).toMatchObject({ locked: false });
    expect((await ok('patients.list')).data).toEqual([]);
  });

  it('stores a salted scrypt hash with its parameters, never the PIN', async () => {
    await ok('lock.setPin', { pin: '482916' });
    const stored = settingsRows().find((r) => r.key === 'lock_pin')!;
    expect(stored.value).not.toContain('482916');
    const record = JSON.parse(stored.value);
    expect(record).toMatchObject({ kdf: 'scrypt', N: PIN_KDF.N, r: PIN_KDF.r, p: PIN_KDF.p });
    expect(Buffer.from(record.salt, 'base64')).toHaveLength(16);
    expect(Buffer.from(record.hash, 'base64')).toHaveLength(32);
    // The same PIN again (with the current one given) gets a new salt, so a new hash.
    await ok('lock.setPin', { pin: '482916', current_pin: '482916' });
    const again = JSON.parse(settingsRows().find((r) => r.key === 'lock_pin')!.value);
    expect(again.salt).not.toBe(record.salt);
    expect(again.hash).not.toBe(record.hash);
  });

  it('refuses a PIN that is not 4 to 12 digits, naming the field, and stores nothing', async () => {
    for (const pin of ['123', '12ab', '1234567890123', '']) {
      const error = await refused('lock.setPin', { pin });
      expect(error).toMatchObject({ code: 'validation_failed', errors: [{ path: 'pin' }] });
      expect(error.errors![0]!.message).toMatch(/4 to 12 digits/);
    }
    expect(settingsRows()).toEqual([]);
  });

  it('locks the host: nothing but the lock answers until the right PIN', async () => {
    await ok('patients.create', { first_name: 'Lou', last_name: 'Locked', date_of_birth: '1975-05-05' });
    await ok('lock.setPin', { pin: '2468' });
    expect(await ok('lock.engage')).toMatchObject({ pin_set: true, locked: true });
    for (const method of ['patients.list', 'desk.today', 'settings.get', 'audit.search']) {
      const input = method === 'desk.today' ? { since: '2026-11-23T00:00:00.000Z' } : {};
      expect(await refused(method, input)).toMatchObject({ code: 'workstation_locked', status: 423 });
    }
    // What the lock screen needs still answers.
    expect(await ok('sync.status')).toHaveProperty('counts');
    expect(await ok('lock.unlock', { pin: '2468' })).toMatchObject({ locked: false, tries_left: 3 });
    expect((await ok('patients.list')).data).toHaveLength(1);
  });

  it('the operating system locking the screen locks the host too', async () => {
    await ok('lock.setPin', { pin: '2468' });
    fx.host.events.emit('session.locked', { reason: 'system_lock' });
    expect(await ok('lock.status')).toMatchObject({ locked: true });
  });

  it('a few wrong PINs, then a wait that grows; the right PIN is refused during the wait', async () => {
    await ok('lock.setPin', { pin: '2468' });
    await ok('lock.engage');
    expect((await refused('lock.unlock', { pin: '1111' })).message).toBe('That PIN is not right. 2 tries left before Coverdesk makes you wait.');
    expect((await refused('lock.unlock', { pin: '1112' })).message).toBe('That PIN is not right. 1 try left before Coverdesk makes you wait.');
    const third = await refused('lock.unlock', { pin: '1113' });
    expect(third).toMatchObject({ code: 'pin_incorrect', message: 'That PIN is not right. Wait 30 seconds before trying again.' });
    expect(await ok('lock.status')).toMatchObject({ locked: true, tries_left: 0, retry_at: '2026-11-23T09:00:30.000Z' });

    // The right PIN during the wait is not even checked.
    const early = await refused('lock.unlock', { pin: '2468' });
    expect(early).toMatchObject({ code: 'pin_wait', status: 429, message: 'Too many wrong PINs. Try again in 30 seconds.' });
    clock.advance(29_000);
    expect((await refused('lock.unlock', { pin: '2468' })).message).toBe('Too many wrong PINs. Try again in 1 second.');

    // Each further wrong PIN doubles the wait, up to the cap.
    clock.advance(1_000);
    expect((await refused('lock.unlock', { pin: '9999' })).message).toBe('That PIN is not right. Wait 1 minute before trying again.');
    clock.advance(60_000);
    expect((await refused('lock.unlock', { pin: '9999' })).message).toBe('That PIN is not right. Wait 2 minutes before trying again.');
    clock.advance(120_000);
    expect((await refused('lock.unlock', { pin: '9999' })).message).toBe('That PIN is not right. Wait 2 minutes before trying again.');

    // The count lives in the host's database: a restart does not reset it.
    fx.reopen();
    expect(await call('lock.unlock', { pin: '2468' })).toMatchObject({ ok: false, error: { code: 'pin_wait' } });
    clock.advance(120_000);
    expect(await call('lock.unlock', { pin: '2468' })).toMatchObject({ ok: true, value: { locked: false, tries_left: 3, retry_at: null } });
  });

  it('tries sent together are counted one by one', async () => {
    await ok('lock.setPin', { pin: '2468' });
    await ok('lock.engage');
    const results = await Promise.all(['1', '2', '3', '4', '5'].map((d) => call('lock.unlock', { pin: d.repeat(4) })));
    expect(results.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['pin_incorrect', 'pin_incorrect', 'pin_incorrect', 'pin_wait', 'pin_wait']);
  });

  it('changing or removing the PIN needs the current one', async () => {
    await ok('lock.setPin', { pin: '2468' });
    expect(await refused('lock.setPin', { pin: '1357' })).toMatchObject({ code: 'validation_failed', errors: [{ path: 'current_pin' }] });
    expect(await refused('lock.setPin', { pin: '1357', current_pin: '0000' })).toMatchObject({ code: 'pin_incorrect' });
    expect(await refused('lock.removePin', { current_pin: '0000' })).toMatchObject({ code: 'pin_incorrect' });
    expect(await ok('lock.removePin', { current_pin: '2468' })).toMatchObject({ pin_set: false, locked: false });
    expect(settingsRows().map((r) => r.key)).toEqual(['lock_failures']);
  });

  it("the OS's own check (Touch ID) unlocks instead of the PIN where the desktop app has it", async () => {
    await fx.cleanup();
    let answer = false;
    fx = startTestHost({ localApi: false, hotFolder: false, clock, systemUnlock: { name: 'Touch ID', prompt: async () => answer } });
    expect(await ok('lock.status')).toMatchObject({ system_unlock: null });
    await ok('lock.setPin', { pin: '2468' });
    expect(await ok('lock.engage')).toMatchObject({ locked: true, system_unlock: 'Touch ID' });
    expect(await refused('lock.unlockWithSystem')).toMatchObject({ code: 'system_unlock_failed', message: 'Touch ID did not confirm it was you. Try again, or enter the PIN.' });
    expect(await ok('lock.status')).toMatchObject({ locked: true });
    answer = true;
    expect(await ok('lock.unlockWithSystem')).toMatchObject({ locked: false });
  });

  it('without an OS check, unlocking through it is refused', async () => {
    await ok('lock.setPin', { pin: '2468' });
    await ok('lock.engage');
    expect(await refused('lock.unlockWithSystem')).toMatchObject({ code: 'system_unlock_unavailable' });
    expect(await ok('lock.status')).toMatchObject({ locked: true });
  });
});
