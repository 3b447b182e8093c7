import type { Clock } from '@src/main/support/clock';

/** A clock that moves only when told: delays, backoffs and expiries become exact. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
}

export function manualClock(start = '2026-11-23T09:00:00.000Z'): ManualClock {
  let now = Date.parse(start);
  return { now: () => new Date(now), advance: (ms) => void (now += ms) };
}
