export interface IdleTimerDeps {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface IdleTimer {
  /** The person did something: the idle clock starts again. Cheap enough for every mouse move. */
  activity(): void;
  /** A new idle limit (Settings changed); counts from the last activity. */
  setLimit(ms: number): void;
  stop(): void;
}

/**
 * Calls `onIdle` once nobody has touched the desk for `limitMs`. Activity only stamps the
 * time; one timer at a time checks the stamp when it fires and re-arms for the rest, so a
 * stream of mouse moves never churns timers. A timer that fires late (the computer slept)
 * still locks: it compares clock times, not ticks.
 */
export function createIdleTimer(deps: IdleTimerDeps, options: { limitMs: number; onIdle(): void }): IdleTimer {
  let limit = options.limitMs;
  let last = deps.now();
  let handle: unknown = null;
  let stopped = false;

  const arm = (ms: number) => {
    if (handle !== null) deps.clearTimeout(handle);
    handle = deps.setTimeout(check, Math.max(0, ms));
  };
  function check() {
    handle = null;
    if (stopped) return;
    const idle = deps.now() - last;
    if (idle >= limit) options.onIdle();
    else arm(limit - idle);
  }
  arm(limit);

  return {
    activity() {
      last = deps.now();
      if (handle === null && !stopped) arm(limit);
    },
    setLimit(ms) {
      limit = ms;
      if (!stopped) arm(limit - (deps.now() - last));
    },
    stop() {
      stopped = true;
      if (handle !== null) deps.clearTimeout(handle);
      handle = null;
    },
  };
}
