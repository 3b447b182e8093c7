import type { HttpBindings } from '@hono/node-server';
import type { MiddlewareHandler } from 'hono';
import { ServiceError } from '../../shared/service-error';

/**
 * What can go wrong with a request, as the sync worker must survive it (docs/sandbox.md):
 * `500`, `503` and `429` answers (the last two with Retry-After), `reset` (the connection
 * is reset before the request runs), `lost` (the request runs and commits, then the
 * connection is reset before the answer: the client cannot know it succeeded) and `slow`
 * (the answer comes `slowMs` late).
 */
export const FAULT_KINDS = ['500', '503', '429', 'reset', 'lost', 'slow'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultOptions {
  /** The fraction (0..1) of requests that get each fault; together at most 1. */
  rates: Partial<Record<FaultKind, number>>;
  /** Seeds the random choice: the same seed and request order give the same faults. */
  seed?: number;
  slowMs?: number;
  retryAfterSeconds?: number;
  /** Told of each injected fault (tests, and the CLI's log). */
  onFault?(kind: FaultKind, request: { method: string; path: string }): void;
}

export const DEFAULT_SLOW_MS = 3000;
export const DEFAULT_RETRY_AFTER_SECONDS = 1;

/** mulberry32: small, fast and good enough to pick faults reproducibly. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `--faults` as text: `500=0.05,503=0.05,429=0.05,reset=0.02,lost=0.02,slow=0.1` plus
 * optional `seed=N`, `slow-ms=N`, `retry-after=N`. Errors name the part that is wrong.
 */
export function parseFaultSpec(spec: string): FaultOptions {
  const options: FaultOptions = { rates: {} };
  for (const part of spec.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [key, value, ...extra] = part.split('=');
    const number = Number(value);
    if (extra.length > 0 || value === undefined || value.trim() === '' || !Number.isFinite(number)) {
      throw new Error(`--faults: "${part}" must be NAME=NUMBER.`);
    }
    if ((FAULT_KINDS as readonly string[]).includes(key)) {
      options.rates[key as FaultKind] = number;
    } else if (key === 'seed') {
      options.seed = number;
    } else if (key === 'slow-ms') {
      options.slowMs = number;
    } else if (key === 'retry-after') {
      options.retryAfterSeconds = number;
    } else {
      throw new Error(`--faults: unknown "${key}"; use ${FAULT_KINDS.join(', ')}, seed, slow-ms or retry-after.`);
    }
  }
  validateFaultOptions(options);
  return options;
}

export function validateFaultOptions(options: FaultOptions): void {
  let total = 0;
  for (const [kind, rate] of Object.entries(options.rates)) {
    if (!(rate >= 0 && rate <= 1)) throw new Error(`Fault rate ${kind} must be between 0 and 1.`);
    total += rate;
  }
  if (total > 1 + 1e-9) throw new Error('Fault rates must add up to at most 1.');
  for (const [name, value] of [['slow-ms', options.slowMs], ['retry-after', options.retryAfterSeconds], ['seed', options.seed]] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) throw new Error(`Fault option ${name} must be a whole number of at least 0.`);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resets the TCP (or socket) connection under a request: the client sees ECONNRESET. */
function resetConnection(env: HttpBindings | undefined): void {
  const socket = env?.incoming?.socket;
  if (!socket) throw new Error('Connection faults need a real HTTP server (@hono/node-server).');
  try {
    socket.resetAndDestroy();
  } catch {
    // Unix sockets and pipes have no RST: closing is the nearest thing.
    socket.destroy();
  }
}

/**
 * Fault injection as middleware, run before authentication. One seeded draw per request
 * picks at most one fault; with every rate 0 (the default everywhere) it does nothing.
 */
export function faultInjection(options: FaultOptions): MiddlewareHandler {
  validateFaultOptions(options);
  const random = seededRandom(options.seed ?? 1);
  const slowMs = options.slowMs ?? DEFAULT_SLOW_MS;
  const retryAfterSeconds = options.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;

  function pick(): FaultKind | undefined {
    const draw = random();
    let edge = 0;
    for (const kind of FAULT_KINDS) {
      edge += options.rates[kind] ?? 0;
      if (draw < edge) return kind;
    }
    return undefined;
  }

  return async (c, next) => {
    const kind = pick();
    if (!kind) return next();
    options.onFault?.(kind, { method: c.req.method, path: c.req.path });
    const env = c.env as HttpBindings | undefined;
    switch (kind) {
      case '500':
        throw new ServiceError('internal_error', 'The sandbox failed this request on purpose (fault injection). Retry with the same Idempotency-Key.');
      case '503':
        throw new ServiceError('service_unavailable', 'The sandbox is unavailable on purpose (fault injection). Retry after the Retry-After seconds.', undefined, {
          retryAfterSeconds,
        });
      case '429':
        throw new ServiceError('rate_limited', 'Too many requests (fault injection). Retry after the Retry-After seconds.', undefined, { retryAfterSeconds });
      case 'reset':
        resetConnection(env);
        // Nobody will read this; returning ends the request without running it.
        return c.body(null, 500);
      case 'slow':
        await sleep(slowMs);
        return next();
      case 'lost':
        await next();
        // The handler ran and committed; the answer never leaves.
        resetConnection(env);
        return;
    }
  };
}

/** Adds `ms` to every answer, as a distant upstream would. */
export function latency(ms: number): MiddlewareHandler {
  return async (_c, next) => {
    await sleep(ms);
    await next();
  };
}
