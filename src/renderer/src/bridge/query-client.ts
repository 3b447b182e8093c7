import { keepPreviousData, QueryClient, type Query, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import type { BridgeApi, BridgeError, BridgeInput, BridgeMethod, BridgeOutput, BridgeResult } from '../../../shared/bridge/contract';

/** The query layer's defaults: what the desk reads through the bridge, and when it reads again. */
export function createBridgeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // The bridge is this computer's host, not the network: being offline never pauses a read.
        networkMode: 'always',
        // A host answer is final (a refused input stays refused); the screen shows the error.
        retry: false,
        // Reads refresh on host events (see bridge-invalidation.ts), on the desk's own changes
        // and on a few slow polls; never because the window got focus back. Some reads are
        // audited views on the host: a refresh nobody asked for would be a view nobody made.
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        // A screen that opens reads what it shows, as it always has; while it is open, only the
        // refreshes above read again.
        staleTime: 0,
        // Polls (a pending check, the sync status) keep going while the window is minimised.
        refetchIntervalInBackground: true,
        structuralSharing: shareById,
        refetchOnMount: readsOnMount,
      },
      mutations: { networkMode: 'always', retry: false },
    },
  });
}

/** Answers read ahead at the page's start (`readAhead`) that no screen has shown yet. */
const readAheadAnswers = new WeakSet<object>();

/**
 * Whether a screen opening reads again: always, as before, unless what the query holds is an
 * answer read ahead for this opening (no screen showed it yet): that was the opening's read.
 */
function readsOnMount(query: Query): boolean {
  const data: unknown = query.state.data;
  return !(typeof data === 'object' && data !== null && readAheadAnswers.has(data));
}

/**
 * Reads, at the page's start, what the first screen will show, beside the sign-in gate's calls
 * instead of after them (issue 31: Today's 10,000 rows took the host longer than everything
 * before them, and were asked for only once the gate had answered and the screen had mounted).
 * The screen's first mount takes the answer as its own read; the next opening reads again. The
 * host decides what may be read: before sign-in or while locked it refuses, nothing reaches the
 * page, and the screen reads when it opens (signing in drops every query: `sessionChanged`).
 */
export function readAhead<M extends BridgeMethod>(client: QueryClient, bridge: BridgeApi, method: M, input: BridgeInput<M>, after?: Promise<unknown>): Promise<void> {
  const options = bridgeQueryOptions(bridge, method, input);
  // `after`: asked for once that has settled, so the host answers it first (it serves one call at a time, in no set order).
  const read = options.queryFn as () => Promise<BridgeOutput<M>>;
  const queryFn = after ? () => after.then(read, read) : read;
  return client.prefetchQuery({ ...options, queryFn }).then(() => {
    const query = client.getQueryCache().find({ queryKey: options.queryKey, exact: true });
    const data: unknown = query?.state.data;
    // A screen that mounted meanwhile shared this read (no second one): nothing is left to hand over.
    if (!query || query.getObserversCount() > 0 || typeof data !== 'object' || data === null) return;
    readAheadAnswers.add(data);
    const stop = client.getQueryCache().subscribe((event) => {
      if (event.query !== query || event.type !== 'observerAdded') return;
      stop();
      // After the observer's own mount check (which runs right after it is added), so that
      // check, and React's repeated ones in the same mount, see the answer as this opening's.
      queueMicrotask(() => readAheadAnswers.delete(data));
    });
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** A list item's record id: its own, a Today row's patient, a worklist row's appointment. */
function identity(item: unknown): string | undefined {
  if (!isPlainObject(item)) return undefined;
  for (const key of ['id', 'patient_id'] as const) if (typeof item[key] === 'string') return item[key];
  const appointment = item.appointment;
  return isPlainObject(appointment) && typeof appointment.id === 'string' ? appointment.id : undefined;
}

/**
 * A new answer with every part that equals the last answer's kept as the same object, so a
 * memoised row renders again only when it changed. The query layer's own sharing pairs list
 * items by position: one check answered moves a row to another group and every row after it
 * became a new object, so the 1,000-row worklist rendered whole on each refresh (issue 31).
 * Here list items are paired by their record's id, then by position.
 */
export function shareById(previous: unknown, next: unknown): unknown {
  if (previous === next) return previous;
  if (Array.isArray(previous) && Array.isArray(next)) {
    const byId = new Map<string, unknown>();
    for (const item of previous) {
      const id = identity(item);
      if (id !== undefined) byId.set(id, item);
    }
    let same = previous.length === next.length;
    const shared = next.map((item, i) => {
      const id = identity(item);
      const counterpart = id !== undefined && byId.has(id) ? byId.get(id) : previous[i];
      const kept = shareById(counterpart, item);
      if (kept !== previous[i]) same = false;
      return kept;
    });
    return same ? previous : shared;
  }
  if (isPlainObject(previous) && isPlainObject(next)) {
    const keys = Object.keys(next);
    let same = keys.length === Object.keys(previous).length;
    const shared: Record<string, unknown> = {};
    for (const key of keys) {
      shared[key] = shareById(previous[key], next[key]);
      if (shared[key] !== previous[key] || !(key in previous)) same = false;
    }
    return same ? previous : shared;
  }
  return next;
}

/** One query key per bridge method and input: `['bridge', 'desk.patient', { id }]`. */
export function bridgeKey<M extends BridgeMethod>(method: M, input?: BridgeInput<M> | null | 'all-pages'): QueryKey {
  return input === undefined ? ['bridge', method] : ['bridge', method, input];
}

/** Every query of one method that has an input (a query waiting for one reads nothing). */
export function bridgeQueries(client: QueryClient, method: BridgeMethod): Query[] {
  return client.getQueryCache().findAll({ queryKey: bridgeKey(method), predicate: (query) => query.queryKey[2] != null });
}

/** The failure a bridge read throws inside the query layer, carrying the host's error. */
export class BridgeCallError extends Error {
  constructor(readonly error: BridgeError) {
    super(error.message);
    this.name = 'BridgeCallError';
  }
}

/** Any failure as a bridge error, so every failure is shown the same way. */
export function asBridgeError(error: unknown): BridgeError {
  if (error instanceof BridgeCallError) return error.error;
  return { type: 'api_error', code: 'internal_error', message: 'Something went wrong inside Coverdesk. Nothing you entered was lost; try again.', status: 0 };
}

type BridgeCall<M extends BridgeMethod> = (input: BridgeInput<M>) => Promise<BridgeResult<BridgeOutput<M>>>;

/** `bridge.desk.patient` for `'desk.patient'`: the method by its contract name. */
export function bridgeCall<M extends BridgeMethod>(bridge: BridgeApi, method: M): BridgeCall<M> {
  const [domain, verb] = method.split('.') as [string, string];
  const calls = bridge as unknown as Record<string, Record<string, BridgeCall<M>>>;
  return (input) => calls[domain][verb](input);
}

/** A bridge read for the query layer: the value, or a thrown BridgeCallError. */
export async function readBridge<M extends BridgeMethod>(bridge: BridgeApi, method: M, input: BridgeInput<M>): Promise<BridgeOutput<M>> {
  const result = await bridgeCall(bridge, method)(input);
  if (!result.ok) throw new BridgeCallError(result.error);
  return result.value;
}

/** Puts what a change answered in place of a read's data, so the screen needs no second read. */
export function setBridgeData<M extends BridgeMethod>(client: QueryClient, method: M, input: BridgeInput<M>, value: BridgeOutput<M>): void {
  client.setQueryData(bridgeKey(method, input), value);
}

const queued = new WeakSet<Query>();

/**
 * Reads a query again if a screen shows it (else marks it out of date for the next one). At
 * most one request is in flight: a refresh asked for meanwhile becomes one more request when
 * it answers, so a busy host (a sync of thousands of records) is never asked the same thing
 * a hundred times, and a change made during a read is never missed.
 */
export function refreshQuery(client: QueryClient, query: Query): void {
  const again = () => void client.invalidateQueries({ queryKey: query.queryKey, exact: true });
  const running = query.state.fetchStatus === 'fetching' ? query.promise : undefined;
  if (!running) return again();
  if (queued.has(query)) return;
  queued.add(query);
  void running
    .catch(() => undefined)
    .finally(() => {
      queued.delete(query);
      again();
    });
}

/** Everything shown may be stale (another database under the page, events it missed): all read again. */
export function refreshAllQueries(client: QueryClient): void {
  client.getQueryCache().getAll().forEach((query) => refreshQuery(client, query));
}

export interface BridgeQueryOptions<M extends BridgeMethod> {
  /**
   * The host audits each of these reads as a view of the record. Read whenever a screen
   * opens it (each opening is a view, even straight after another screen showed it), never
   * again unless something of the record may have changed, and dropped from memory as soon
   * as no screen shows it.
   */
  view?: boolean;
  /** While a new input's answer is on its way, keep showing the last input's answer. */
  keepPrevious?: boolean;
  /** A slow poll (ms) for what events may miss; from the current data, `false` for none. */
  poll?: number | ((data: BridgeOutput<M> | undefined) => number | false);
}

/** The query options of one bridge read (what `useBridgeQuery` asks of the query layer). */
export function bridgeQueryOptions<M extends BridgeMethod>(
  bridge: BridgeApi,
  method: M,
  input: BridgeInput<M> | null,
  options: BridgeQueryOptions<M> = {},
): UseQueryOptions<BridgeOutput<M>, Error, BridgeOutput<M>, QueryKey> {
  const { view = false, keepPrevious = false, poll } = options;
  return {
    queryKey: bridgeKey(method, input),
    queryFn: () => readBridge(bridge, method, input as BridgeInput<M>),
    enabled: input !== null,
    ...(view ? { staleTime: Infinity, gcTime: 0, refetchOnMount: 'always' as const } : {}),
    ...(keepPrevious ? { placeholderData: keepPreviousData } : {}),
    ...(poll === undefined ? {} : { refetchInterval: typeof poll === 'number' ? poll : (query: Query<BridgeOutput<M>, Error>) => poll(query.state.data) }),
  };
}
