import type { EventHub } from '../support/event-hub';
import type { HostComponent } from '../support/host-component';
import type { HostLog } from '../support/host-log';
import { refreshIssuers, type RefreshDeps, type RefreshOutcome } from './refresh-issuers';

export interface IssuerRefresherDeps {
  refresh: RefreshDeps;
  events: EventHub;
  /** Counts and error names only. */
  log: HostLog['write'];
  /** How old the last refresh may be before the next one (a day: issuers rotate keys and revoke rarely). */
  everyMs?: number;
}

export const ISSUER_REFRESH_EVERY_MS = 24 * 60 * 60 * 1000;
// A desk left idle sends no status events; this much is the longest it waits to notice a day passed.
const LOOK_EVERY_MS = 60 * 60 * 1000;

/**
 * Keeps the trusted issuers fresh by itself (issue 27, item 2: refreshed from the configured
 * directory URLs when online): once the desk is online, and then once a day while it is, a
 * refresh when directory URLs are set. "Refresh now" in Settings stays for the impatient. A
 * refresh that fails keeps what the desk had; the next try is the next day, not the next
 * status event (status events come with every count).
 */
export function createIssuerRefresher(deps: IssuerRefresherDeps): HostComponent & { settled(): Promise<RefreshOutcome | null> } {
  const every = deps.everyMs ?? ISSUER_REFRESH_EVERY_MS;
  let online = false;
  let lastTry = Number.NEGATIVE_INFINITY;
  let running: Promise<RefreshOutcome | null> = Promise.resolve(null);
  let busy = false;
  let stopped = false;
  let unsubscribe: (() => void) | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;

  const maybeRefresh = () => {
    if (stopped || busy || !online || deps.refresh.issuers.directoryUrls().length === 0) return;
    const now = deps.refresh.clock.now().getTime();
    if (now - lastTry < every) return;
    lastTry = now;
    busy = true;
    running = refreshIssuers(deps.refresh)
      .then((outcome) => {
        deps.log('digital_cards.issuers_refreshed', { refreshed: outcome.refreshed, failures: outcome.failures.length, offline: outcome.offline });
        return outcome;
      })
      .catch((error: unknown) => {
        deps.log('digital_cards.issuers_refresh_failed', { error: error instanceof Error ? error.name : 'unknown' });
        return null;
      })
      .finally(() => {
        busy = false;
      });
  };

  return {
    name: 'trusted-issuer-refresh',
    async start() {
      unsubscribe = deps.events.on('sync.status', (status) => {
        online = status.online === true;
        maybeRefresh();
      });
      timer = setInterval(maybeRefresh, Math.min(every, LOOK_EVERY_MS));
      timer.unref?.();
    },
    async stop() {
      stopped = true;
      unsubscribe?.();
      if (timer) clearInterval(timer);
      // The database closes after the components stop: let a refresh in flight store first.
      await running;
    },
    settled: () => running,
  };
}
