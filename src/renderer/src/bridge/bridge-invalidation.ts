import type { Query, QueryClient } from '@tanstack/react-query';
import type { BridgeApi, BridgeEvent, BridgeEventPayload, BridgeInput, BridgeMethod } from '../../../shared/bridge/contract';
import type { DeskPatientDetail, SyncStatus } from '../../../shared/bridge/desk-contract';
import { catchingUp, followToday, type TodayChangesWanted } from '../today/follow-today';
import { bridgeQueries, refreshAllQueries, refreshQuery, setBridgeData } from './query-client';

/** The collections shown on Today and on a patient's screens. */
export const DESK_COLLECTIONS = ['patients', 'insurance_cards', 'electronic_eligibility_checks', 'electronic_eligibility_discoveries'];
const SCANNED = ['photos', 'inbox_items'];
const OUTBOX = [...DESK_COLLECTIONS, 'extractions', 'photos'];
const SCHEDULE = [...DESK_COLLECTIONS, 'appointments', 'good_faith_estimates'];

interface Refresh<E extends BridgeEvent> {
  event: E;
  method: BridgeMethod;
  /**
   * Events are gathered for this long, then the queries they touched are read once: the sync
   * worker, the local API and the hot folder may report hundreds of changes a second.
   */
  delayMs: number;
  /**
   * Whether this event may change what the query shows; every event of its kind if absent.
   * `previous` is the last event of the same kind (none for the first).
   */
  touches?(payload: BridgeEventPayload<E>, query: Query, previous: BridgeEventPayload<E> | undefined): boolean;
  /**
   * Whether this event is what the query's screen is waiting for (a check's answer while the
   * person looks at it): read at once, once any read of it in flight has answered. A gathering
   * delay there is a wait the person at the window sees, and one record moving is no storm.
   */
  urgent?(payload: BridgeEventPayload<E>, query: Query): boolean;
  /**
   * Instead of reading the query again: what the event says changed, gathered over the delay
   * and handed to `followToday`, which patches Today with those rows only.
   */
  follow?(payload: BridgeEventPayload<E>): Partial<{ id: string; outbox: true }>;
}
type AnyRefresh = { [E in BridgeEvent]: Refresh<E> }[BridgeEvent];

function patientOf(query: Query): { id: string; detail: DeskPatientDetail | undefined } {
  const input = query.queryKey[2] as BridgeInput<'desk.patient'>;
  return { id: input.id, detail: query.state.data as DeskPatientDetail | undefined };
}

/**
 * A change may be this patient's: one of their records, or a new card, check or discovery
 * (which may be theirs). Each read of a patient is an audited view, so other patients'
 * registrations never cause one.
 */
function mayBeTheirs(change: BridgeEventPayload<'records.changed'>, query: Query): boolean {
  const { id, detail } = patientOf(query);
  if (change.id === id) return true;
  if (detail && [...detail.cards, ...detail.checks, ...detail.discoveries].some((record) => record.id === change.id)) return true;
  return DESK_COLLECTIONS.includes(change.collection) && change.collection !== 'patients';
}

/** A check or discovery shown waiting for its answer has moved: most likely that answer. */
function awaitedAnswer(change: BridgeEventPayload<'records.changed'>, query: Query): boolean {
  const { detail } = patientOf(query);
  if (!detail) return false;
  return [...detail.checks, ...detail.discoveries].some((record) => record.id === change.id && record.status === 'pending');
}

/** Sync progress matters to a patient while any of theirs is still on its way or unanswered. */
function travelling(query: Query): boolean {
  const { detail } = patientOf(query);
  if (!detail) return true;
  return (
    [detail.patient, ...detail.cards, ...detail.checks, ...detail.discoveries].some((record) => record.sync && record.sync.state !== 'synced') ||
    detail.checks.some((check) => check.status === 'pending') ||
    detail.discoveries.some((discovery) => discovery.status === 'pending')
  );
}

/**
 * Whether sync may have moved one of the desk's records on: only more entries queued (other
 * patients registered while offline, say) moves nothing already shown, and each read of a
 * patient is an audited view.
 */
function movedOn(status: SyncStatus, previous: SyncStatus | undefined): boolean {
  if (!previous) return true;
  if (status.online !== previous.online || status.worker !== previous.worker || status.last_sync_at !== previous.last_sync_at) return true;
  return (Object.keys(status.counts) as (keyof SyncStatus['counts'])[]).some((state) =>
    state === 'queued' ? status.counts[state] < previous.counts[state] : status.counts[state] !== previous.counts[state],
  );
}

/** Which host events refresh which reads. */
export const EVENT_REFRESHES: readonly AnyRefresh[] = [
  // Today follows changes row by row (issue 31): the records named, then what sync moved.
  { event: 'records.changed', method: 'desk.today', delayMs: 250, touches: (change) => DESK_COLLECTIONS.includes(change.collection), follow: (change) => ({ id: change.id }) },
  // A record synced or failed changes a row's marker without changing the record; the sync
  // worker reports often while it works, so these are gathered up longer.
  { event: 'sync.status', method: 'desk.today', delayMs: 1000, follow: () => ({ outbox: true }) },
  { event: 'records.changed', method: 'desk.patient', delayMs: 150, touches: mayBeTheirs, urgent: awaitedAnswer },
  { event: 'sync.status', method: 'desk.patient', delayMs: 500, touches: (status, query, previous) => movedOn(status, previous) && travelling(query) },
  // A SMART Health Link that completed: its fields are offered on the patient's screen.
  { event: 'records.changed', method: 'digitalCards.arrivedForCards', delayMs: 150, touches: (change) => change.collection === 'digital_cards' },
  { event: 'records.changed', method: 'inbox.list', delayMs: 400, touches: (change) => SCANNED.includes(change.collection) },
  { event: 'records.changed', method: 'sync.list', delayMs: 300, touches: (change) => OUTBOX.includes(change.collection) },
  { event: 'sync.status', method: 'sync.list', delayMs: 500 },
  { event: 'sync.status', method: 'sync.onlyHere', delayMs: 500 },
  { event: 'records.changed', method: 'sync.onlyHere', delayMs: 300, touches: (change) => OUTBOX.includes(change.collection) },
  // The schedule (issue 16): appointments imported, checks made and answered, a batch moving.
  // A batch makes and answers hundreds of checks: the worklist is read again at most once a second.
  { event: 'records.changed', method: 'appointments.worklist', delayMs: 1000, touches: (change) => SCHEDULE.includes(change.collection) },
  { event: 'records.changed', method: 'appointments.list', delayMs: 300, touches: (change) => change.collection === 'appointments' || change.collection === 'patients' },
  { event: 'sync.status', method: 'appointments.worklist', delayMs: 1000 },
  // What was collected (issue 30): the day's report moves with every entry, and with the visits and checks it reads.
  { event: 'records.changed', method: 'collections.endOfDay', delayMs: 500, touches: (change) => change.collection === 'collections' || SCHEDULE.includes(change.collection) },
  { event: 'records.changed', method: 'collections.list', delayMs: 300, touches: (change) => change.collection === 'collections' },
  { event: 'appointments.progress', method: 'appointments.worklist', delayMs: 1000, touches: (progress, query) => (query.queryKey[2] as { date?: string }).date === progress.date },
];

export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}
const GLOBAL_TIMERS: Timers = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Listens to the host's events and refreshes the queries they touch (EVENT_REFRESHES); the
 * sync status an event carries becomes the `sync.status` query's data. Returns the unsubscribe.
 */
export function watchBridgeEvents(bridge: BridgeApi, client: QueryClient, timers: Timers = GLOBAL_TIMERS): () => void {
  type Gathered = { handle: unknown; queries: Set<Query>; wanted: TodayChangesWanted };
  const gathered = new Map<AnyRefresh, Gathered>();
  const lastPayload = new Map<BridgeEvent, unknown>();

  /**
   * The gathering delay starts once the reads an event touched have answered: events that
   * arrive while Today's 10,000 rows are being read wait for that read, then the delay, and are
   * read once. Otherwise a batch keeps the host reading Today back to back (the next refresh is
   * due before the last one answers) and the screens' frames wait behind it.
   */
  const gather = (refresh: AnyRefresh, touched: Query[], followed: Partial<{ id: string; outbox: true }> | undefined) => {
    if (touched.length === 0) return;
    const open = gathered.get(refresh);
    const note = (entry: Gathered) => {
      if (followed?.id !== undefined) entry.wanted.ids.add(followed.id);
      if (followed?.outbox) entry.wanted.outbox = true;
    };
    if (open) {
      touched.forEach((query) => open.queries.add(query));
      note(open);
      return;
    }
    const entry: Gathered = { handle: undefined, queries: new Set(touched), wanted: { ids: new Set(), outbox: false } };
    note(entry);
    gathered.set(refresh, entry);
    const refreshAll = () => {
      gathered.delete(refresh);
      entry.queries.forEach((query) => (refresh.follow ? followToday(bridge, client, query, entry.wanted) : refreshQuery(client, query)));
    };
    const startDelay = () => {
      if (gathered.get(refresh) === entry) entry.handle = timers.setTimeout(refreshAll, refresh.delayMs);
    };
    const reading = touched.flatMap((query) => {
      const read = query.state.fetchStatus === 'fetching' && query.promise ? [query.promise] : [];
      const following = refresh.follow ? catchingUp(query) : undefined;
      return following ? [...read, following] : read;
    });
    if (reading.length === 0) startDelay();
    else void Promise.allSettled(reading).then(startDelay);
  };

  /** Read now (after a read in flight: refreshQuery), and no longer gathered for later. */
  const readNow = (refresh: AnyRefresh, queries: Query[]) => {
    const open = gathered.get(refresh);
    for (const query of queries) {
      open?.queries.delete(query);
      refreshQuery(client, query);
    }
    if (open && open.queries.size === 0) {
      if (open.handle !== undefined) timers.clearTimeout(open.handle);
      gathered.delete(refresh);
    }
  };

  const on = <E extends BridgeEvent>(event: E, payload: BridgeEventPayload<E>) => {
    for (const refresh of EVENT_REFRESHES) {
      if (refresh.event !== event) continue;
      const touches = refresh.touches as Refresh<E>['touches'];
      const urgent = refresh.urgent as Refresh<E>['urgent'];
      const follow = refresh.follow as Refresh<E>['follow'];
      const previous = lastPayload.get(event) as BridgeEventPayload<E> | undefined;
      const touched = bridgeQueries(client, refresh.method).filter((query) => !touches || touches(payload, query, previous));
      const now = urgent ? touched.filter((query) => urgent(payload, query)) : [];
      readNow(refresh, now);
      gather(
        refresh,
        touched.filter((query) => !now.includes(query)),
        follow?.(payload),
      );
    }
    lastPayload.set(event, payload);
  };

  const offs = [
    bridge.on('records.changed', (change) => on('records.changed', change)),
    bridge.on('sync.status', (status) => {
      setBridgeData(client, 'sync.status', {}, status);
      on('sync.status', status);
    }),
    bridge.on('appointments.progress', (progress) => {
      setBridgeData(client, 'appointments.progress', { date: progress.date }, progress);
      on('appointments.progress', progress);
    }),
    bridge.on('settings.changed', (settings) => setBridgeData(client, 'settings.get', {}, settings)),
    // Another database under the same page (a damaged one set aside, a backup restored): nothing
    // cached holds, and a read in flight was answered by the old host, so it reads again after.
    bridge.on('host.restarted', () => refreshAllQueries(client)),
  ];
  return () => {
    offs.forEach((off) => off());
    gathered.forEach(({ handle }) => handle !== undefined && timers.clearTimeout(handle));
    gathered.clear();
  };
}
