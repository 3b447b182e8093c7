import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hostPaths, RESTORING_MESSAGE } from '@src/main/host/create-host';
import { startWebHost, type WebHost } from '@src/main/web-host/start-web-host';
import { closedAfterEach } from '@test/support/backup/closing';

const { tempDir } = closedAfterEach();
let web: WebHost | undefined;
afterEach(async () => {
  await web?.close();
  web = undefined;
});

const person = (first: string) => ({ first_name: first, last_name: 'Restore', date_of_birth: '1981-04-05' });
const patientNames = () => (web!.host.database.sqlite.prepare('SELECT first_name FROM patients ORDER BY first_name').all() as { first_name: string }[]).map((r) => r.first_name);

/** A browser-mode desk with one backup in a chosen folder: Ann before it, Ben after it. */
async function deskWithABackup(): Promise<{ dataDir: string; usb: string; name: string }> {
  const dataDir = tempDir('coverdesk-restore-settings-');
  const usb = tempDir('coverdesk-usb-');
  // Offline (nothing listens on port 9): nothing is sent, so nothing made after the backup comes back from the practice's feed.
  web = await startWebHost({ dataDir, port: 0, localApi: false, hotFolder: false, upstream: { url: 'http://127.0.0.1:9', apiKey: 'sk_test_offline' } });
  await web.host.bridge['patients.create'](person('Ann'));
  await web.host.bridge['backups.update']({ folder: usb });
  expect((await web.host.bridge['backups.run']({})).last_failure).toBeNull();
  await web.host.bridge['patients.create'](person('Ben'));
  const listed = await web.host.bridge['backups.list']({});
  expect(listed).toEqual([{ name: expect.stringMatching(/^coverdesk-backup-/), created_at: expect.any(String), coverdesk_version: expect.any(String), records: expect.any(Number) }]);
  return { dataDir, usb, name: listed[0].name };
}

describe('restoring a backup from Settings → Backups', () => {
  it('restarts the browser-mode desk on the backup, this desk\'s files kept aside, and refuses writes between', async () => {
    const { dataDir, name } = await deskWithABackup();
    const before = web!.host;
    const restored = await before.bridge['backups.restore']({ name });
    expect(restored).toEqual({ restored: name, kept_aside_as: expect.stringMatching(/^\.restore-previous-/) });
    // Staged, not yet swapped: nothing more is written to the files about to be put aside.
    await expect(before.bridge['patients.create'](person('Cal'))).rejects.toMatchObject({ message: RESTORING_MESSAGE });
    await web!.restarted();
    expect(web!.host).not.toBe(before);
    // The desk now holds what the backup held: Ann, not Ben (made after it).
    expect(patientNames()).toEqual(['Ann']);
    // This desk's files before the restore are kept aside in the data folder, Ben in them.
    const kept = path.join(dataDir, restored.kept_aside_as);
    expect(fs.existsSync(path.join(kept, path.basename(hostPaths(dataDir).database)))).toBe(true);
    // The key stays this desk's: none was written by the restore.
    expect(fs.existsSync(path.join(kept, 'database.key'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'database.key'))).toBe(true);
    // And the desk works on it.
    await web!.host.bridge['patients.create'](person('Dee'));
    expect(patientNames()).toEqual(['Ann', 'Dee']);
  });

  it('refuses a name that is not a backup in the folder and a backup changed since it was made, naming the field, changing nothing', async () => {
    const { dataDir, usb, name } = await deskWithABackup();
    const host = web!.host;
    await expect(host.bridge['backups.restore']({ name: '../elsewhere' })).rejects.toMatchObject({ code: 'validation_failed', errors: [{ path: 'name' }] });
    await expect(host.bridge['backups.restore']({ name: 'coverdesk-backup-1999-01-01T00-00-00-000Z' })).rejects.toMatchObject({
      errors: [{ path: 'name', code: 'not_found', message: expect.stringContaining('is not a backup in') }],
    });
    fs.writeFileSync(path.join(usb, name, 'extra.txt'), 'added later');
    await expect(host.bridge['backups.restore']({ name })).rejects.toMatchObject({ errors: [{ path: 'name', code: 'tampered', message: expect.stringContaining('Nothing was restored') }] });
    expect(fs.readdirSync(dataDir).filter((entry) => entry.startsWith('.restore'))).toEqual([]);
    expect(web!.host).toBe(host);
    await host.bridge['patients.create'](person('Cal'));
    expect(patientNames()).toEqual(['Ann', 'Ben', 'Cal']);
  });
});
