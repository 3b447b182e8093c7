import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@src/main/db/open-database';
import { createHost, type Host } from '@src/main/host/create-host';
import type { Sandbox } from '@src/main/sandbox/start-sandbox';
import { keyFilePaths, readOrCreateKeyFile } from '@src/main/db/database-key';
import { embeddedSandboxPath } from '@src/main/sync/embedded-sandbox';
import { makeTempDir } from '@test/support/temp-dir';
import { closeAfterEach, createVisit, expectExactlyOnce, FAST_POLICY, freePort, SANDBOX_KEY, startUpstream, waitFor, waitForDrained } from '@test/support/sync/sync-harness';

const temp = makeTempDir('coverdesk-sandbox-mode-');
let host: Host | undefined;
let upstream: Sandbox | undefined;
closeAfterEach(() => host, () => upstream);
afterAll(() => temp.cleanup());

function open(options: { upstream?: { url: string; apiKey: string } } = {}): Host {
  return createHost({ dataDir: temp.dir, localApi: false, hotFolder: false, ...options, sync: { policy: FAST_POLICY, timeoutMs: 2_000, sandboxDelayMs: 30 } });
}

// One data dir through the steps below, in order: a desk's life across restarts.
describe('sandbox mode', () => {
  it('embeds the sandbox on loopback when no upstream is set, and syncs to it over HTTP', async () => {
    host = open();
    await host.start();
    const status = await waitFor('the embedded sandbox to answer', async () => {
      const s = await host!.bridge['sync.status']({});
      return s.online ? s : undefined;
    });
    expect(status).toMatchObject({ mode: 'sandbox', worker: 'running' });
    expect(status.upstream_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await host.bridge['settings.get']({})).toMatchObject({ mode: 'sandbox', upstream_url: null });

    const visit = await createVisit(host, 1, { discovery: true });
    await waitForDrained({ host });
    const check = await host.bridge['checks.get']({ id: visit.check.id });
    expect(check).toMatchObject({ status: 'success', sync: { state: 'synced' } });
    expect(fs.existsSync(embeddedSandboxPath(temp.dir))).toBe(true);
  });

  it('keeps every local record through a restart with an unreachable upstream, and queues new ones', async () => {
    const deadPort = await freePort();
    host = open({ upstream: { url: `http://127.0.0.1:${deadPort}`, apiKey: SANDBOX_KEY } });
    await host.start();
    const before = await host.bridge['patients.list']({ limit: 100 });
    expect(before.data.length).toBe(1);
    expect(before.data[0].sync?.state).toBe('synced');
    const visit = await createVisit(host, 2);
    const status = await waitFor('the worker to find the upstream down', async () => {
      const s = await host!.bridge['sync.status']({});
      return s.online === false ? s : undefined;
    });
    expect(status).toMatchObject({ mode: 'upstream', upstream_url: `http://127.0.0.1:${deadPort}` });
    expect(status.counts.queued).toBeGreaterThan(0);
    expect((await host.bridge['checks.get']({ id: visit.check.id })).sync?.state).toBe('queued');
    // Reference data is served from the local cache while offline.
    expect((await host.bridge['providers.list']({})).data.length).toBeGreaterThan(0);
  });

  it('back in sandbox mode, the queued records go to the same embedded sandbox, which kept what it had', async () => {
    host = open();
    await host.start();
    await waitForDrained({ host });
    // Encrypted with the host's key, as everything in the data dir.
    const key = readOrCreateKeyFile({ file: keyFilePaths(temp.dir).plain, mayCreate: false });
    const sandboxDb = openDatabase({ file: embeddedSandboxPath(temp.dir), key });
    try {
      expectExactlyOnce(host.database.db, sandboxDb.db);
    } finally {
      sandboxDb.close();
    }
  });

  it('switches to an upstream saved in settings at once, and back to the sandbox when it is cleared', async () => {
    upstream = await startUpstream(await freePort());
    host = open();
    await host.start();
    await waitForDrained({ host });
    expect(await host.bridge['settings.update']({ upstream_url: upstream.url, api_key: SANDBOX_KEY })).toMatchObject({ mode: 'upstream', upstream_url: upstream.url });
    const visit = await createVisit(host, 3);
    await waitForDrained({ host });
    const remote = (await host.bridge['patients.get']({ id: visit.patient.id })).sync?.remote_id;
    expect(await upstream.service.get('patients', remote!)).toMatchObject({ first_name: visit.patient.first_name });
    expect((await host.bridge['sync.status']({})).upstream_url).toBe(upstream.url);

    expect(await host.bridge['settings.update']({ upstream_url: null })).toMatchObject({ mode: 'sandbox' });
    await waitFor('sandbox mode', async () => (await host!.bridge['sync.status']({})).mode === 'sandbox');
  });

  it('a sandbox that cannot start does not stop the desk: records are kept and queued', async () => {
    const other = makeTempDir('coverdesk-sandbox-broken-');
    try {
      fs.mkdirSync(path.dirname(embeddedSandboxPath(other.dir)), { recursive: true });
      fs.writeFileSync(embeddedSandboxPath(other.dir), 'not a database at all, and not one to be overwritten');
      host = createHost({ dataDir: other.dir, localApi: false, hotFolder: false, sync: { policy: FAST_POLICY } });
      await host.start();
      const visit = await createVisit(host, 4);
      expect((await host.bridge['checks.get']({ id: visit.check.id })).sync?.state).toBe('queued');
      expect(await host.bridge['sync.status']({})).toMatchObject({ mode: 'sandbox', online: null, worker: 'running' });
      await host.close();
    } finally {
      other.cleanup();
    }
  });
});
