import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bridgeCalls } from '@test/support/bridge-calls';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';

let first: HostFixture;
let second: HostFixture;
const a = bridgeCalls(() => first.host.bridge);
const b = bridgeCalls(() => second.host.bridge);
beforeEach(() => {
  first = startTestHost({ localApi: false, hotFolder: false });
  second = startTestHost({ localApi: false, hotFolder: false });
});
afterEach(async () => {
  await first.cleanup();
  await second.cleanup();
});

const PASSPHRASE = 'blue heron at noon';
const practiceOf = (fx: HostFixture) => JSON.parse((fx.host.database.sqlite.prepare("SELECT value FROM settings WHERE key = 'practice_id'").get() as { value: string }).value) as string;
/** The second desk joins the first's practice (as a desk set up from its backup would). */
const samePractice = () => {
  second.host.database.sqlite.prepare("INSERT INTO settings (key, value) VALUES ('practice_id', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(JSON.stringify(practiceOf(first)));
};

async function exportedFromFirstDesk() {
  await a.ok('staff.setup', { name: 'Maria Manager', pin: '135790' });
  const ana = await a.ok('staff.add', { name: 'Ana Front', role: 'front_desk', pin: '246801' });
  // The backup's practice id is made on demand: the export makes it.
  const file = await a.ok('staff.exportFile', { passphrase: PASSPHRASE });
  return { ana, file };
}

describe('the staff file (issue 28, item 7)', () => {
  it('carries names, roles and PINs to another desk of the practice: the same PIN signs in there', async () => {
    const { ana, file } = await exportedFromFirstDesk();
    expect(Buffer.from(file.data_base64, 'base64').toString('latin1')).not.toContain('Ana Front');
    samePractice();
    expect(await b.ok('staff.importFile', { passphrase: PASSPHRASE, data_base64: file.data_base64 })).toEqual({ added: 2, updated: 0 });
    expect((await b.ok('staff.signIn', { id: ana.id, pin: '246801' })).signed_in).toEqual({ id: ana.id, name: 'Ana Front', role: 'front_desk' });
    // Imported again after a rename on the first desk: the person is brought in line, not doubled.
    await b.ok('staff.signOut');
    await a.ok('staff.update', { id: ana.id, name: 'Ana Front-Desk' });
    const again = await a.ok('staff.exportFile', { passphrase: PASSPHRASE });
    const manager = (await b.ok('staff.session')).people.find((p: { name: string }) => p.name === 'Maria Manager');
    await b.ok('staff.signIn', { id: manager.id, pin: '135790' });
    expect(await b.ok('staff.importFile', { passphrase: PASSPHRASE, data_base64: again.data_base64 })).toEqual({ added: 0, updated: 1 });
    expect((await b.ok('staff.list')).map((p: { name: string }) => p.name)).toEqual(['Ana Front-Desk', 'Maria Manager']);
  });

  it('a tampered file, a wrong passphrase or another practice’s file is refused and nothing changes', async () => {
    const { file } = await exportedFromFirstDesk();
    const before = second.snapshot();
    const bytes = Buffer.from(file.data_base64, 'base64');
    bytes[bytes.length - 20] ^= 0x01;
    expect(await b.refused('staff.importFile', { passphrase: PASSPHRASE, data_base64: bytes.toString('base64') })).toMatchObject({ code: 'staff_file_unreadable', errors: [{ path: 'data_base64' }] });
    expect(await b.refused('staff.importFile', { passphrase: 'not the passphrase', data_base64: file.data_base64 })).toMatchObject({ code: 'staff_file_unreadable' });
    // The second desk is its own practice until it joins the first's.
    const other = await b.refused('staff.importFile', { passphrase: PASSPHRASE, data_base64: file.data_base64 });
    expect(other).toMatchObject({ code: 'staff_file_other_practice', errors: [{ path: 'data_base64', code: 'other_practice' }] });
    expect(other.message).toContain('another practice');
    expect((second.host.database.sqlite.prepare('SELECT count(*) AS n FROM staff').get() as { n: number }).n).toBe(0);
    expect(second.snapshot().audit_log).toEqual(before.audit_log);
  });

  it('a file that demotes or disables whoever is signed in takes their rights at once', async () => {
    const maria = (await a.ok('staff.setup', { name: 'Maria Manager', pin: '135790' })).signed_in;
    const benAtA = await a.ok('staff.add', { name: 'Ben Manager', role: 'manager', pin: '975310' });
    // Ben manages the first desk from here on (Maria is demoted there).
    await a.ok('staff.signOut');
    await a.ok('staff.signIn', { id: benAtA.id, pin: '975310' });
    // The export makes the practice id the second desk then joins.
    const first = await a.ok('staff.exportFile', { passphrase: PASSPHRASE });
    samePractice();
    await b.ok('staff.importFile', { passphrase: PASSPHRASE, data_base64: first.data_base64 });
    await b.ok('staff.signIn', { id: maria.id, pin: '135790' });

    await a.ok('staff.update', { id: maria.id, role: 'front_desk', name: 'Maria Front' });
    expect(await b.ok('staff.importFile', { passphrase: PASSPHRASE, data_base64: (await a.ok('staff.exportFile', { passphrase: PASSPHRASE })).data_base64 })).toEqual({ added: 0, updated: 1 });
    expect((await b.ok('staff.session')).signed_in).toEqual({ id: maria.id, name: 'Maria Front', role: 'front_desk' });
    expect(await b.refused('staff.list')).toMatchObject({ code: 'not_allowed' });

    // Disabled by the next file, while signed in as a manager again: signed out.
    const ben = (await b.ok('staff.session')).people.find((p: { name: string }) => p.name === 'Ben Manager');
    await b.ok('staff.signOut');
    await b.ok('staff.signIn', { id: ben.id, pin: '975310' });
    await a.ok('staff.update', { id: maria.id, role: 'manager' });
    await a.ok('staff.signOut');
    await a.ok('staff.signIn', { id: maria.id, pin: '135790' });
    await a.ok('staff.update', { id: ben.id, disabled: true });
    await b.ok('staff.importFile', { passphrase: PASSPHRASE, data_base64: (await a.ok('staff.exportFile', { passphrase: PASSPHRASE })).data_base64 });
    expect((await b.ok('staff.session')).signed_in).toBeNull();
    expect(await b.refused('staff.list')).toMatchObject({ code: 'sign_in_required' });
  });
});
