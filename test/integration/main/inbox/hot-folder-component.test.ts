import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import type { InboxItem } from '@src/shared/contract';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { makePng } from '@test/support/images';

let fx: HostFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
});

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('watches the folder saved in Settings from the moment it is saved, and reads each drop with the on-device engine', async () => {
  let now = Date.parse('2026-11-23T09:00:00.000Z');
  // A clock the test moves: the hot folder waits for files to stand still by it.
  fx = startTestHost({ clock: { now: () => new Date(now) }, localApi: false });
  await fx.host.start();
  const call = (method: string, input: unknown) => dispatchBridgeCall(fx!.host.bridge, method, input);
  expect(fs.existsSync(path.join(fx.dataDir, 'inbox', 'processed'))).toBe(true);

  const scans = path.join(fx.dataDir, 'scans');
  fs.mkdirSync(scans);
  expect(await call('settings.update', { hot_folder: scans })).toMatchObject({ ok: true, value: { hot_folder: scans } });
  expect(fs.existsSync(path.join(scans, 'processed'))).toBe(true);

  fs.writeFileSync(path.join(scans, 'visit-7.front.png'), makePng(40, 24, [250, 250, 250]));
  fs.writeFileSync(path.join(scans, 'visit-7.back.png'), makePng(40, 24, [240, 240, 240]));
  const item = await waitFor('the scanned card', async () => {
    now += 2_000;
    const listed = await call('inbox.list', {});
    const items = listed.ok ? (listed.value as { data: InboxItem[] }).data : [];
    return items.find((i) => i.extraction_status !== 'pending');
  });
  // Blank photos: the engine ran and said there was nothing to read, instead of no engine at all.
  expect(item.extraction_status).toBe('failure');
  expect(item.extraction_failure_reason).not.toBe('no_engine');
  expect(fs.readdirSync(path.join(scans, 'processed')).sort()).toEqual(['visit-7.back.png', 'visit-7.front.png']);
});

it('starts the desk when the saved folder cannot be used (an unmounted share), and watches one that works once saved', async () => {
  fx = startTestHost({ localApi: false });
  const call = (method: string, input: unknown) => dispatchBridgeCall(fx!.host.bridge, method, input);
  // A path under a plain file: the folder can never be made, like a share that is not mounted.
  const blocker = path.join(fx.dataDir, 'not-a-folder');
  fs.writeFileSync(blocker, '');
  expect(await call('settings.update', { hot_folder: path.join(blocker, 'scans') })).toMatchObject({ ok: true });

  await expect(fx.host.start()).resolves.toBeUndefined();
  const scans = path.join(fx.dataDir, 'scans');
  expect(await call('settings.update', { hot_folder: scans })).toMatchObject({ ok: true, value: { hot_folder: scans } });
  expect(fs.existsSync(path.join(scans, 'processed'))).toBe(true);
});
