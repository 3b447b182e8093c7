import diagnostics from 'node:diagnostics_channel';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';

/**
 * For `--profile`: how busy one thread is, and how many HTTP requests it has in flight over
 * time. Wall-clock alone cannot say what bounds a loop on a shared two-core machine; a
 * thread's own CPU (Linux's per-thread counters) and its requests' concurrency can.
 */

/** The calling thread's CPU time in ms (Linux's scheduler counters, in ns); NaN where the system does not give it. */
export function threadCpuMs(): number {
  try {
    return Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}

export interface InFlightSnapshot {
  /** Requests finished since the counter started. */
  finished: number;
  /** Of them, by method and the path's first two segments (`POST /v1/patients`). */
  byRoute: Record<string, number>;
  /** The integral of requests in flight over time, in request·ms. */
  requestMs: number;
  atMs: number;
}

/**
 * Requests in flight on this thread, seen through node:http's diagnostics channels:
 * `client` counts requests this thread sent until their answer's end, `server` requests it
 * received until its answer's end. Time-weighted: the mean in flight over a span is the
 * difference of two snapshots' `requestMs` over the span's length.
 */
export function countInFlight(side: 'client' | 'server'): () => InFlightSnapshot {
  const start = side === 'client' ? 'http.client.request.start' : 'http.server.request.start';
  const end = side === 'client' ? 'http.client.response.finish' : 'http.server.response.finish';
  let open = 0;
  let finished = 0;
  const byRoute: Record<string, number> = {};
  let requestMs = 0;
  let lastAt = performance.now();
  const advance = () => {
    const now = performance.now();
    requestMs += open * (now - lastAt);
    lastAt = now;
  };
  diagnostics.subscribe(start, () => {
    advance();
    open += 1;
  });
  diagnostics.subscribe(end, (message) => {
    advance();
    open = Math.max(0, open - 1);
    finished += 1;
    const { request } = message as { request: { method?: string; url?: string; path?: string } };
    const route = `${request.method} ${(request.url ?? request.path ?? '').split('?')[0].split('/').slice(0, 3).join('/')}`;
    byRoute[route] = (byRoute[route] ?? 0) + 1;
  });
  return () => {
    advance();
    return { finished, byRoute: { ...byRoute }, requestMs, atMs: lastAt };
  };
}

/** Mean requests in flight between two snapshots. */
export function meanInFlight(from: InFlightSnapshot, to: InFlightSnapshot): number {
  return (to.requestMs - from.requestMs) / Math.max(1e-9, to.atMs - from.atMs);
}

/**
 * A CPU profile of this thread from now until the returned function is called (written by
 * the caller as a `.cpuprofile`, which Chrome's DevTools open).
 */
export async function profileThisThread(): Promise<() => Promise<object>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 250 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    return profile;
  };
}
