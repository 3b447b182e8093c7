import { describe, expect, it } from 'vitest';
import type { FaultKind, FaultOptions } from '@src/main/sandbox/fault-injection';
import type { Sandbox } from '@src/main/sandbox/start-sandbox';
import { closeAfterEach, createVisit, expectExactlyOnce, freePort, startSyncHost, startUpstream, waitForDrained, type SyncHostFixture } from '@test/support/sync/sync-harness';

let fx: SyncHostFixture | undefined;
let upstream: Sandbox | undefined;
closeAfterEach(() => fx, () => upstream);

/**
 * Each fault of the sandbox's injection alone, then all of them together: whatever the
 * network and the upstream do, every operation the desk made arrives exactly once.
 */
const CASES: { name: string; faults: FaultOptions; timeoutMs?: number }[] = [
  { name: '500', faults: { rates: { '500': 0.3 } } },
  { name: '503 with Retry-After', faults: { rates: { '503': 0.12 }, retryAfterSeconds: 1 } },
  { name: '429 with Retry-After', faults: { rates: { '429': 0.12 }, retryAfterSeconds: 1 } },
  { name: 'connection resets', faults: { rates: { reset: 0.3 } } },
  { name: 'answers lost after the commit', faults: { rates: { lost: 0.3 } } },
  { name: 'slow answers (within the time-out)', faults: { rates: { slow: 0.3 }, slowMs: 150 } },
  { name: 'slow answers (past the time-out: the request may have committed)', faults: { rates: { slow: 0.3 }, slowMs: 700 }, timeoutMs: 400 },
  {
    name: 'all of them mixed at 30%',
    faults: { rates: { '500': 0.05, '503': 0.05, '429': 0.05, reset: 0.05, lost: 0.05, slow: 0.05 }, slowMs: 700, retryAfterSeconds: 1 },
    timeoutMs: 400,
  },
];

describe('exactly once under fault injection', () => {
  for (const [i, c] of CASES.entries()) {
    it(c.name, async () => {
      const seen: Partial<Record<FaultKind, number>> = {};
      const port = await freePort();
      upstream = await startUpstream(port, {
        faults: { seed: 1000 + i, ...c.faults, onFault: (kind) => void (seen[kind] = (seen[kind] ?? 0) + 1) },
      });
      fx = await startSyncHost(upstream.url, { sync: { timeoutMs: c.timeoutMs ?? 2_000 } });
      for (let n = 0; n < 3; n++) await createVisit(fx.host, n, { discovery: n !== 1, extraction: n === 1 });

      await waitForDrained(fx, 45_000);

      expectExactlyOnce(fx.host.database.db, upstream.database.db);
      const status = await fx.status();
      expect(status.counts).toMatchObject({ queued: 0, sending: 0, failed: 0, blocked: 0, needs_review: 0 });
      // The faults really happened: each kind asked for was injected at least once.
      for (const kind of Object.keys(c.faults.rates) as FaultKind[]) expect(seen[kind] ?? 0, `${kind} injected`).toBeGreaterThan(0);
    }, 60_000);
  }
});
