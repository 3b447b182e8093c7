/** Injected so tests control time (and the sandbox's resolution delays). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
