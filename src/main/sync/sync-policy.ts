import type { SyncStatus } from '../../shared/bridge/desk-contract';
import type { V1Service } from '../../shared/contract';
import type { BackoffPolicy } from './backoff';

/**
 * The sync worker's timings and limits, and the shapes its parts share. Apart from the
 * engine so that its parts (upstream health, polling) can take them without importing
 * the scheduler that composes them.
 */
export interface SyncPolicy {
  /**
   * Requests in flight at once (sends, polls, probes together) at start; the window then
   * adapts to the upstream's answers (`send-window.ts`) up to `maxConcurrency`.
   */
  concurrency: number;
  maxConcurrency: number;
  /** Retries of a send; Retry-After is honoured up to `maxRetryAfterMs`. */
  send: BackoffPolicy & { maxRetryAfterMs: number };
  /** Polling a pending discovery, check or extraction. */
  poll: BackoffPolicy;
  /** The light request that asks whether an unreachable upstream is back. */
  probe: BackoffPolicy;
  /** With nothing to send, the same light request this often, so "online" stays true to fact. */
  heartbeatMs: number;
  /** How long the upstream remembers an Idempotency-Key (docs/decisions.md, Sync). */
  idempotencyWindowMs: number;
  /** The upstream's clock may disagree with ours; lookups by time allow this much. */
  clockSkewMs: number;
  referenceRefreshMs: number;
  /** How long `stop()` lets requests in flight finish before leaving them to the next start. */
  stopGraceMs: number;
  /** After a round the disk had no room for, the wait before trying again (space may be back). */
  diskFullRetryMs: number;
}

export const DEFAULT_SYNC_POLICY: SyncPolicy = {
  concurrency: 4,
  maxConcurrency: 32,
  send: { baseMs: 1_000, capMs: 5 * 60_000, maxRetryAfterMs: 60 * 60_000 },
  poll: { baseMs: 1_000, capMs: 60_000 },
  probe: { baseMs: 2_000, capMs: 30_000 },
  // An idle desk hears of an outage from the pull side within seconds (its feed asks every
  // 2 s); this covers a service without a feed: one GET of one provider every 15 s (issue 26).
  heartbeatMs: 15_000,
  // Shorter than any upstream we know keeps keys (the sandbox: 7 days): erring short only
  // costs a lookup or a question, erring long costs a duplicate.
  idempotencyWindowMs: 24 * 60 * 60_000,
  clockSkewMs: 10 * 60_000,
  referenceRefreshMs: 6 * 60 * 60_000,
  stopGraceMs: 2_000,
  diskFullRetryMs: 10_000,
};

/** The upstream the worker talks to, and how the desk should describe it. */
export interface UpstreamTarget {
  service: V1Service;
  mode: SyncStatus['mode'];
  url: string | null;
}

/** Ids, counts and codes only: never names, dates of birth or member ids. */
export type SyncLog = (event: string, fields: Record<string, string | number | boolean | null | undefined>) => void;
