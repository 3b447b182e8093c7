import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { equalJitterMs, fullJitterMs, retryDelayMs } from '@src/main/sync/backoff';

const policy = { baseMs: 1_000, capMs: 300_000, maxRetryAfterMs: 3_600_000 };

describe('full jitter', () => {
  it('waits a uniform time below min(cap, base·2^(n-1))', () => {
    expect(fullJitterMs(policy, 1, () => 0.999)).toBe(999);
    expect(fullJitterMs(policy, 2, () => 0.999)).toBe(1_998);
    expect(fullJitterMs(policy, 4, () => 0.5)).toBe(4_000);
    expect(fullJitterMs(policy, 40, () => 0.999)).toBe(299_700);
    expect(fullJitterMs(policy, 3, () => 0)).toBe(0);
  });

  it('stays within [0, cap] for any attempt count and draw', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.double({ min: 0, max: 0.9999999, noNaN: true }), (n, r) => {
        const wait = fullJitterMs(policy, n, () => r);
        return wait >= 0 && wait <= policy.capMs && Number.isInteger(wait);
      }),
    );
  });
});

describe('Retry-After', () => {
  it('is a floor: never sooner than the upstream asked, even when the jitter draws less', () => {
    expect(retryDelayMs(policy, 1, () => 0, 7)).toBe(7_000);
    expect(retryDelayMs(policy, 1, () => 0.5, 0.2)).toBe(500);
    expect(retryDelayMs(policy, 10, () => 0.9, 2)).toBe(fullJitterMs(policy, 10, () => 0.9));
  });

  it('is bounded, so a server asking for a year does not strand the queue', () => {
    expect(retryDelayMs(policy, 1, () => 0, 365 * 24 * 3600)).toBe(policy.maxRetryAfterMs);
  });

  it('without one, the wait is the jitter alone', () => {
    expect(retryDelayMs(policy, 3, () => 0.25)).toBe(fullJitterMs(policy, 3, () => 0.25));
  });
});

describe('equal jitter (polling)', () => {
  it('waits at least half the ceiling', () => {
    expect(equalJitterMs({ baseMs: 1_000, capMs: 60_000 }, 1, () => 0)).toBe(500);
    expect(equalJitterMs({ baseMs: 1_000, capMs: 60_000 }, 3, () => 0.999)).toBeLessThan(4_000);
    expect(equalJitterMs({ baseMs: 1_000, capMs: 60_000 }, 50, () => 0)).toBe(30_000);
  });
});
