import type { EventHub } from '../support/event-hub';
import type { HostComponent } from '../support/host-component';
import type { HostLog } from '../support/host-log';
import { completeWaitingLinks, type DigitalCardDeps } from './read-digital-card';
import { readWaitingLinks } from './waiting-links';

export interface WaitingLinkCompleterDeps {
  digitalCard: DigitalCardDeps;
  events: EventHub;
  /** Ids and error names only: a link's content is PHI. */
  log: HostLog['write'];
}

/**
 * Finishes the SMART Health Links read while the desk was offline, when the sync worker
 * reports the upstream reachable again (offline, or not yet tried, to online): each finished
 * link is announced as a `records.changed` for `digital_cards`, so the desk asks
 * `digitalCards.waitingLink` and offers the fields. Only on that change, not on every status:
 * status events come with every count, and a link whose server is down would be fetched each time.
 */
export function createWaitingLinkCompleter(deps: WaitingLinkCompleterDeps): HostComponent {
  let wasOnline = false;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let unsubscribe: (() => void) | undefined;

  const complete = () => {
    if (stopped || !readWaitingLinks(deps.digitalCard.db).some((link) => link.result === null)) return;
    running = completeWaitingLinks({ ...deps.digitalCard, onCompleted: ({ waiting_id }) => deps.events.emit('records.changed', { collection: 'digital_cards', id: waiting_id }) })
      .then((done) => done.length > 0 && deps.log('digital_cards.links_completed', { count: done.length, ids: done.map((link) => link.waiting_id).join(',') }))
      .catch((error: unknown) => deps.log('digital_cards.complete_failed', { error: error instanceof Error ? error.name : 'unknown' }));
  };

  return {
    name: 'waiting-digital-cards',
    async start() {
      unsubscribe = deps.events.on('sync.status', (status) => {
        const online = status.online === true;
        if (online && !wasOnline) complete();
        wasOnline = online;
      });
    },
    async stop() {
      stopped = true;
      unsubscribe?.();
      // The database closes after the components stop: let a read in flight write its result first.
      await running;
    },
  };
}
