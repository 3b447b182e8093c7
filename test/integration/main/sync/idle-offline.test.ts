import { describe, expect, it } from 'vitest';
import type { Sandbox } from '@src/main/sandbox/start-sandbox';
import { closeAfterEach, FAST_POLICY, freePort, startSyncHost, startUpstream, waitFor, type SyncHostFixture } from '@test/support/sync/sync-harness';

/**
 * Issue 26 (Low): with nothing queued, the desk took more than 30 s to notice the service
 * had gone (the heartbeat's minute). The product's own timings here: no heartbeat override.
 */

let upstream: Sandbox | undefined;
let fx: SyncHostFixture | undefined;
closeAfterEach(() => fx, () => upstream);

describe('an idle desk', () => {
  it('shows offline within a few seconds of the service going away, with nothing queued, and online again when it is back', async () => {
    const port = await freePort();
    upstream = await startUpstream(port);
    // Fast backoffs, but the product's heartbeat and pull interval.
    expect(FAST_POLICY.heartbeatMs).toBeUndefined();
    fx = await startSyncHost(upstream.url);
    await waitFor('online', async () => (await fx!.status()).online === true);
    const idle = await fx.status();
    expect(idle.counts.queued + idle.counts.sending).toBe(0);

    await upstream.close();
    const wentAt = Date.now();
    await waitFor('the desk to show offline', async () => (await fx!.status()).online === false, 6_000);
    expect(Date.now() - wentAt).toBeLessThan(6_000);
    // The screens hear it as an event (the banner), not only when they ask.
    expect(fx.statuses.at(-1)?.online).toBe(false);
    expect((await fx.status()).counts.queued).toBe(0);

    upstream = await startUpstream(port);
    await waitFor('the desk to show online again', async () => (await fx!.status()).online === true, 6_000);
  });
});
