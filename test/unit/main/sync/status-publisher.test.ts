import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStatusPublisher } from '@src/main/sync/status-publisher';
import type { SyncStatus } from '@src/shared/bridge/desk-contract';

/**
 * The status publisher paces its reads by what they cost (docs/decisions.md, Sync): counting a
 * long outbox takes milliseconds, and a busy desk asks for the status after every create.
 * Time is vitest's fake clock; a read "takes" time by moving it.
 */
const status = (queued: number): SyncStatus => ({
  online: true,
  mode: 'sandbox',
  upstream_url: null,
  counts: { queued, sending: 0, synced: 0, failed: 0, blocked: 0, needs_review: 0 },
  last_sync_at: null,
  worker: 'running',
  storage: 'ok',
});

function publisher(readCostMs: number) {
  const sent: number[] = [];
  let reads = 0;
  const publish = createStatusPublisher({
    isOpen: () => true,
    onStatus: (s) => sent.push(s.counts.queued),
    read: () => {
      reads += 1;
      vi.setSystemTime(Date.now() + readCostMs);
      // Every read finds a new count, so every read is sent.
      return status(reads);
    },
  });
  return { publish, sent };
}

describe('the sync status publisher', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  // Cheap reads: counts at most every 250 ms. A read that took 20 ms: the next no sooner than a second later.
  it.each([
    { readCostMs: 0, stillWaitingAt: 200, sentBy: 300 },
    { readCostMs: 20, stillWaitingAt: 900, sentBy: 1100 },
  ])('a read that took $readCostMs ms: the next counts still wait at $stillWaitingAt ms and are sent by $sentBy ms', ({ readCostMs, stillWaitingAt, sentBy }) => {
    const { publish, sent } = publisher(readCostMs);
    publish();
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([1]);
    publish();
    vi.advanceTimersByTime(stillWaitingAt);
    expect(sent).toEqual([1]);
    vi.advanceTimersByTime(sentBy - stillWaitingAt);
    expect(sent).toEqual([1, 2]);
  });

  it('still sends an urgent change (online, offline, paused) at once', () => {
    const { publish, sent } = publisher(20);
    publish();
    vi.advanceTimersByTime(1);
    publish(true);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([1, 2]);
  });
});
