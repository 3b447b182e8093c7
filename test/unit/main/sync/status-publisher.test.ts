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

  it('sends counts at most every 250 ms while reading them is cheap', () => {
    const { publish, sent } = publisher(0);
    publish();
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([1]);
    publish();
    vi.advanceTimersByTime(200);
    expect(sent).toEqual([1]);
    vi.advanceTimersByTime(100);
    expect(sent).toEqual([1, 2]);
  });

  it('reads a status that took 20 ms to read no sooner than a second later', () => {
    const { publish, sent } = publisher(20);
    publish();
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([1]);
    publish();
    vi.advanceTimersByTime(900);
    expect(sent).toEqual([1]);
    vi.advanceTimersByTime(200);
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
