import { isDiskFull } from '../storage/disk-full';
import type { HostComponent } from '../support/host-component';
import type { Clock } from '../support/clock';
import type { PracticeView, SetAsideRecord } from '../../shared/bridge/practice-view';
import { isServiceError } from '../../shared/service-error';
import { setAsideCount, type PullEngine, type PullFeed } from './pull-engine';
import type { SyncLog } from './sync-policy';

export interface PullComponentDeps {
  engine: PullEngine;
  clock: Clock;
  /** The upstream sync talks to now, or null (none configured, or it could not start). */
  feed(): PullFeed | null;
  db: Parameters<typeof setAsideCount>[0];
  /** Whether sync lets other requests go now (not paused, held by a Retry-After, or offline). */
  mayCall?(): boolean;
  /** The feed of service `key` answered (`failure` null) or did not: sync learns whether the service is there from it. */
  onAnswer?(key: string, failure: unknown): void;
  /**
   * Called when a pass has more than one page to write (a bootstrap): what it returns is
   * stopped when the pass ends. The host takes the database's checkpoints off this thread
   * meanwhile (`checkpointInBackground`).
   */
  bulkWrites?(): BulkWrites;
  /** Pages per request (the feed's maximum by default). */
  pageSize?: number;
  /** Steady state: how often to ask for news when nothing else asks (default 2 s). */
  intervalMs?: number;
  /** After the feed said "wait for your push" or failed (default 1 s). */
  retryMs?: number;
  log?: SyncLog;
}

/** What a bootstrap's writes run under (`checkpointInBackground`): waited for between pages when the WAL has grown past its bound. */
export interface BulkWrites {
  catchUp?(): Promise<void>;
  stop(): Promise<void>;
}

export interface PullComponent extends HostComponent {
  /** Pull soon: after start, when a push answered, when the upstream changed. Coalesced. */
  kick(): void;
  /** Pulls until the feed has nothing more (or must wait); tests and the benchmark. */
  pullNow(): Promise<void>;
  status(): PracticeView;
  /** Records of the feed set aside, newest first, with why. */
  setAside(): SetAsideRecord[];
}

/**
 * The pull side as a host component: pulls after start, on a timer and when kicked, page
 * after page until the feed is read, yielding to the desk between pages so the desk stays
 * usable while a new desk bootstraps.
 */
export function createPullComponent(deps: PullComponentDeps): PullComponent {
  const intervalMs = deps.intervalMs ?? 2000;
  const retryMs = deps.retryMs ?? 1000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  let started = false;
  let available: boolean | null = null;
  let lastError: string | null = null;

  let dueAt = Infinity;
  /**
   * Until when kicks do not hurry the next pass: the last one stopped at a record that may
   * be one of this desk's own sends still unanswered, and it will until the push settles.
   * During a drain every answered send kicks; a pass per kick would fetch the same page,
   * and make the upstream serve it, dozens of times a second for nothing.
   */
  let holdUntil = 0;
  /** Runs in `ms`, unless a run is already due sooner: a stream of kicks must not keep postponing it. */
  function schedule(ms: number): void {
    if (!started) return;
    const at = Date.now() + ms;
    if (timer && at >= dueAt) return;
    clearTimeout(timer);
    dueAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      dueAt = Infinity;
      void run();
    }, ms);
    timer.unref?.();
  }

  /** One pass to the end of the feed; returns the wait before the next. */
  async function pass(): Promise<number> {
    const bulk: { writes: BulkWrites | null } = { writes: null };
    try {
      return await pages(() => (bulk.writes ??= deps.bulkWrites?.() ?? null));
    } finally {
      await bulk.writes?.stop();
    }
  }

  async function pages(manyPages: () => BulkWrites | null): Promise<number> {
    const feed = deps.feed();
    if (!feed) return intervalMs;
    for (;;) {
      // Asked before every page, not once per pass: a 429's Retry-After or a 401 that came in
      // during a long bootstrap holds the pull as it holds the push.
      if (deps.mayCall && !deps.mayCall()) return intervalMs;
      let outcome;
      try {
        outcome = await deps.engine.pullPage(feed, deps.pageSize);
        deps.onAnswer?.(feed.key, null);
      } catch (error) {
        deps.onAnswer?.(feed.key, error);
        // Unreachable, paused, a broken page: push carries on; the next pass tries again.
        // A page that could not be stored (a full disk) waits like an unreachable one; the status says why.
        lastError = isDiskFull(error) ? 'disk_full' : isServiceError(error) ? error.code : 'pull_failed';
        deps.log?.('pull.failed', { error: lastError });
        const retryAfterMs = isServiceError(error) && error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : 0;
        return Math.max(retryMs, intervalMs, retryAfterMs);
      }
      lastError = null;
      if (outcome.kind === 'unavailable') {
        if (available !== false) deps.log?.('pull.unavailable', {});
        available = false;
        return intervalMs * 15;
      }
      available = true;
      if (outcome.kind === 'restarted') continue;
      if (outcome.waiting) {
        holdUntil = Date.now() + retryMs;
        return retryMs;
      }
      holdUntil = 0;
      if (!outcome.hasMore) return intervalMs;
      const bulk = manyPages();
      // A bootstrap: let the desk's own work in between pages, and keep the WAL bounded.
      await new Promise((resolve) => setImmediate(resolve));
      await bulk?.catchUp?.();
      if (!started && !manual) return intervalMs;
    }
  }

  let manual = false;
  async function run(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let wait = intervalMs;
      do {
        again = false;
        wait = await pass();
      } while (again && (started || manual));
      // The next regular pass replaces any kick that came in while this one ran.
      clearTimeout(timer);
      timer = undefined;
      dueAt = Infinity;
      schedule(wait);
    })().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    name: 'pull',
    async start() {
      const feed = deps.feed();
      if (feed) deps.engine.ensureState(feed.key);
      started = true;
      schedule(0);
    },
    async stop() {
      started = false;
      clearTimeout(timer);
      await running;
    },
    kick() {
      if (started) schedule(Math.max(50, holdUntil - Date.now()));
    },
    async pullNow() {
      manual = true;
      try {
        await running;
        await run();
      } finally {
        manual = false;
      }
    },
    setAside: () => deps.engine.setAside(),
    status() {
      const feed = deps.feed();
      const state = feed ? deps.engine.state(feed.key) : null;
      return {
        available,
        error: lastError,
        last_pulled_at: state?.last_pulled_at ?? null,
        caught_up_at: state?.bootstrapped_at ?? null,
        behind: state?.behind ?? true,
        received: state?.received ?? 0,
        set_aside: setAsideCount(deps.db),
      };
    },
  };
}
