import type { SyncStatus } from '../../shared/bridge/desk-contract';

/**
 * Tells subscribers (`sync.status`) when the worker's status changed: coalesced, and counts
 * at most every `STATUS_INTERVAL_MS`, so a queue draining a thousand entries is a few
 * events a second for the desk's screens, not a thousand. An urgent change (online,
 * offline, paused) goes at once. A status equal to the last one sent is not sent again.
 */
export interface StatusPublisherDeps {
  onStatus?(status: SyncStatus): void;
  /** The status now; read when the event goes, not when it is asked for. */
  read(): SyncStatus;
  /** False once the database closed (shutdown): nothing to read, nothing to tell. */
  isOpen(): boolean;
}

export type PublishStatus = (urgent?: boolean) => void;

/** Status events are paced for people: wall-clock time, not the injected clock. */
const STATUS_INTERVAL_MS = 250;
/**
 * The most of the thread reading the status may take. Its counts are a scan of the outbox,
 * which grows with it (7 ms at 20,000 entries, 2026-11-27, load 8; a busy local API's bench
 * ends with 160,000, an offline desk's queue or a drain's history can be long): read every
 * 250 ms that was a large share of the thread. A read that took `r` ms waits `r /
 * MAX_READ_SHARE` before the next: counts on screen then change about once a second, which a
 * queue that long does not need faster.
 */
const MAX_READ_SHARE = 0.02;

export function createStatusPublisher(deps: StatusPublisherDeps): PublishStatus {
  let lastPublished = '';
  let lastPublishedAt = 0;
  let nextReadAt = 0;
  let publishTimer: { immediate: boolean; handle: NodeJS.Timeout | NodeJS.Immediate } | null = null;

  return function publish(urgent = false): void {
    if (!deps.onStatus) return;
    const wait = urgent ? 0 : Math.max(0, lastPublishedAt + STATUS_INTERVAL_MS - Date.now(), nextReadAt - Date.now());
    if (publishTimer && (!urgent || publishTimer.immediate)) return;
    if (publishTimer) clearTimeout(publishTimer.handle as NodeJS.Timeout); // only a paced timer reaches here
    const emit = () => {
      publishTimer = null;
      if (!deps.isOpen()) return;
      try {
        const startedAt = Date.now();
        const current = deps.read();
        nextReadAt = Date.now() + (Date.now() - startedAt) / MAX_READ_SHARE;
        const serialised = JSON.stringify(current);
        if (serialised === lastPublished) return;
        lastPublished = serialised;
        lastPublishedAt = Date.now();
        deps.onStatus?.(current);
      } catch {
        // The database closed under us (shutdown); nothing to tell.
      }
    };
    if (wait === 0) publishTimer = { immediate: true, handle: setImmediate(emit) };
    else {
      const handle = setTimeout(emit, wait);
      handle.unref?.();
      publishTimer = { immediate: false, handle };
    }
  };
}
