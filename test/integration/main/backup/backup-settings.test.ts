import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listBackups } from '@src/main/backup/desk-backup';
import { createHost, type Host } from '@src/main/host/create-host';
import { manualClock } from '@test/support/manual-clock';
import { waitFor } from '@test/support/sync/sync-harness';
import { createVisit } from '@test/support/sync/visits';
import { closedAfterEach } from '@test/support/backup/closing';

const { tempDir, keep } = closedAfterEach();
function desk(options: Partial<Parameters<typeof createHost>[0]> = {}): Host {
  const host = createHost({ dataDir: tempDir('coverdesk-desk-'), localApi: false, hotFolder: false, ...options });
  keep(host);
  return host;
}

describe('Settings → Backups through the bridge', () => {
  it('refuses a folder that is not a full path or does not exist, naming the field, and saves nothing', async () => {
    const host = desk();
    const before = await host.bridge['backups.status']({});
    await expect(host.bridge['backups.update']({ folder: 'backups' })).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'folder', message: expect.stringContaining('folder must be a full path') }],
    });
    const missing = path.join(tempDir('coverdesk-x-'), 'not-there');
    await expect(host.bridge['backups.update']({ folder: missing, keep: 3 })).rejects.toMatchObject({
      errors: [{ path: 'folder', message: expect.stringContaining(`folder ${missing} does not exist`) }],
    });
    expect(await host.bridge['backups.status']({})).toEqual(before);
  });

  it('backs up now and shows the last verified backup; a folder gone since shows the failure and keeps the last verified one', async () => {
    const host = desk();
    await createVisit(host, 1);
    const usb = path.join(tempDir('coverdesk-usb-'), 'usb');
    fs.mkdirSync(usb);
    await host.bridge['backups.update']({ folder: usb, keep: 2 });
    const done = await host.bridge['backups.run']({});
    expect(done.last_failure).toBeNull();
    expect(done.running).toBe(false);
    expect(done.last_verified).toMatchObject({ folder: listBackups(usb)[0], records: expect.any(Number) });

    fs.rmSync(usb, { recursive: true });
    const failed = await host.bridge['backups.run']({});
    expect(failed.last_verified).toEqual(done.last_verified);
    expect(failed.last_failure?.message).toContain(`The backup folder ${usb} could not be written`);
  });

  it('backs up on the schedule while the desk runs: at once with none yet, then every N hours', async () => {
    const clock = manualClock();
    const host = desk({ clock, backupCheckEveryMs: 20 });
    const to = tempDir('coverdesk-scheduled-');
    await host.bridge['backups.update']({ folder: to, every_hours: 4, keep: 5 });
    await host.start();
    // The folder is in place a moment before the outcome is recorded (the backup verifies it off the host's thread).
    await waitFor('the first scheduled backup', async () => listBackups(to).length === 1 && (await host.bridge['backups.status']({})).last_verified !== null);
    expect((await host.bridge['backups.status']({})).next_at).toBe(new Date(clock.now().getTime() + 4 * 3_600_000).toISOString());
    clock.advance(3 * 3_600_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(listBackups(to)).toHaveLength(1);
    clock.advance(3_600_000);
    await waitFor('the next scheduled backup', () => listBackups(to).length === 2);
  });
});
