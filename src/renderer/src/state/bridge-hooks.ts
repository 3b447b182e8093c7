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
 * A bridge read that re-runs when `key` changes or on `reload()`. Answers that arrive after
 * a newer request started are dropped, so a slow reply never overwrites a fresh one.
 */
export function useBridgeQuery<T>(load: (() => Promise<BridgeResult<T>>) | null, key: string): Query<T> {
  const [state, setState] = useState<{ data: T | null; error: BridgeError | null; loading: boolean }>({ data: null, error: null, loading: load !== null });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const generation = useRef(0);

  useEffect(() => {
    const current = loadRef.current;
    if (!current) {
      setState({ data: null, error: null, loading: false });
      return;
    }
    const mine = ++generation.current;
    void current().then((result) => {
      if (mine !== generation.current) return;
      setState((previous) => (result.ok ? { data: result.value, error: null, loading: false } : { data: previous.data, error: result.error, loading: false }));
    });
  }, [key, tick]);

  useEffect(() => {
    setState((previous) => ({ ...previous, loading: loadRef.current !== null, data: null, error: null }));
  }, [key]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

/** Subscribes to a host event for the component's lifetime; the latest listener is always called. */
export function useBridgeEvent<E extends BridgeEvent>(event: E, listener: (payload: BridgeEventPayload<E>) => void): void {
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => window.coverdesk.on(event, (payload) => ref.current(payload)), [event]);
}

/**
 * Calls `onChange` (at most once per `delayMs`) when a record of these collections changes:
 * the sync worker, the local API and the hot folder all write while the desk looks.
 */
export function useRecordsChanged(collections: readonly string[], onChange: () => void, delayMs = 150): void {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const ref = useRef(onChange);
  ref.current = onChange;
  const wanted = collections.join(',');
  useBridgeEvent('records.changed', (change) => {
    if (!wanted.split(',').includes(change.collection)) return;
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      ref.current();
    }, delayMs);
  });
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
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
