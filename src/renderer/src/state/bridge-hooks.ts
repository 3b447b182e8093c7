import { useCallback, useEffect, useRef, useState } from 'react';
import type { BridgeError, BridgeEvent, BridgeEventPayload, BridgeResult } from '../../../shared/bridge/contract';

export interface Query<T> {
  data: T | null;
  error: BridgeError | null;
  /** True until the first answer; reloads keep showing the previous data. */
  loading: boolean;
  reload(): void;
}

/**
 * A bridge read that re-runs when `key` changes or on `reload()`. At most one request is in
 * flight: reloads asked for meanwhile become one more request when it answers, so a busy
 * host (a sync of thousands of records) is never asked the same thing a hundred times.
 */
export function useBridgeQuery<T>(load: (() => Promise<BridgeResult<T>>) | null, key: string): Query<T> {
  const [state, setState] = useState<{ data: T | null; error: BridgeError | null; loading: boolean }>({ data: null, error: null, loading: load !== null });
  const loadRef = useRef(load);
  loadRef.current = load;
  const flight = useRef<{ key: string; running: boolean; again: boolean }>({ key, running: false, again: false });
  const mounted = useRef(true);

  const run = useCallback((forKey: string) => {
    const current = loadRef.current;
    const f = flight.current;
    if (!current) {
      setState({ data: null, error: null, loading: false });
      return;
    }
    if (f.running && f.key === forKey) {
      f.again = true;
      return;
    }
    flight.current = { key: forKey, running: true, again: false };
    void current().then((result) => {
      const now = flight.current;
      if (!mounted.current || now.key !== forKey) return;
      setState((previous) => (result.ok ? { data: result.value, error: null, loading: false } : { data: previous.data, error: result.error, loading: false }));
      now.running = false;
      if (now.again) run(forKey);
    });
  }, []);

  useEffect(() => {
    mounted.current = true;
    setState({ data: null, error: null, loading: loadRef.current !== null });
    run(key);
    return () => {
      mounted.current = false;
    };
  }, [key, run]);

  const reload = useCallback(() => run(flight.current.key), [run]);
  return { ...state, reload };
}

/** Subscribes to a host event for the component's lifetime; the latest listener is always called. */
export function useBridgeEvent<E extends BridgeEvent>(event: E, listener: (payload: BridgeEventPayload<E>) => void): void {
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => window.coverdesk.on(event, (payload) => ref.current(payload)), [event]);
}

/**
 * Calls `onEvent` at most once per `delayMs` for events `accept` lets through: the sync
 * worker, the local API and the hot folder may report hundreds of changes a second.
 */
export function useGatheredEvent<E extends BridgeEvent>(event: E, onEvent: () => void, delayMs: number, accept: (payload: BridgeEventPayload<E>) => boolean = () => true): void {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const ref = useRef({ onEvent, accept });
  ref.current = { onEvent, accept };
  useBridgeEvent(event, (payload) => {
    if (timer.current || !ref.current.accept(payload)) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      ref.current.onEvent();
    }, delayMs);
  });
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
}

/** Records of these collections changed (created, synced, answered). */
export function useRecordsChanged(collections: readonly string[], onChange: () => void, delayMs = 150): void {
  useGatheredEvent('records.changed', onChange, delayMs, (change) => collections.includes(change.collection));
}

/** The sync worker's status moved: counts, online, a record's sync state. */
export function useSyncStatusChanged(onChange: () => void, delayMs = 1000): void {
  useGatheredEvent('sync.status', onChange, delayMs);
}

/** Unwraps a bridge answer for code that shows its own error: the value, or throws the error. */
export class BridgeCallError extends Error {
  constructor(readonly error: BridgeError) {
    super(error.message);
    this.name = 'BridgeCallError';
  }
}

export async function unwrap<T>(call: Promise<BridgeResult<T>>): Promise<T> {
  const result = await call;
  if (!result.ok) throw new BridgeCallError(result.error);
  return result.value;
}

/** A thrown error as a bridge error, so every failure is shown the same way. */
export function asBridgeError(error: unknown): BridgeError {
  if (error instanceof BridgeCallError) return error.error;
  return { type: 'api_error', code: 'internal_error', message: 'Something went wrong inside Coverdesk. Nothing you entered was lost; try again.', status: 0 };
}
