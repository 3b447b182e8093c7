import type { Clock } from '../support/clock';
import type { SyncError, V1Service } from '../../shared/contract';
import { equalJitterMs, type Random } from './backoff';
import { classifyFailure, type ClassifiedFailure } from './failure-kind';
import type { SyncLog, SyncPolicy } from './sync-policy';

/**
 * What the worker believes about the upstream as a whole, learnt from every answer (or
 * silence): online or not (`null` until the first contact), paused because the
 * credentials were refused (a 401/403 stops every send until new ones are given), and held
 * until a time a 429 or 503 named in `Retry-After`. Also the probe: the light request that
 * asks whether an unreachable upstream is back, and, while online with nothing to send,
 * the heartbeat that keeps "online" true to fact.
 */
export interface UpstreamHealthDeps {
  clock: Clock;
  random: Random;
  policy: SyncPolicy;
  log: SyncLog;
  /** Online, offline or paused changed: tell the desk at once. */
  onChange(): void;
  /** Back after being offline: what waited only for the network may go now. */
  onBack(): void;
}

export interface UpstreamHealth {
  readonly online: boolean | null;
  readonly paused: SyncError | null;
  /** Nothing is sent before this (a 429 or 503 with Retry-After holds the whole queue). */
  readonly holdUntil: number;
  /** When the probe is next due: soon after a failure while offline, the heartbeat while online. */
  readonly nextProbeAt: number | null;
  /** Neither paused nor held: requests may go. */
  open(now: number): boolean;
  probeDue(now: number): boolean;
  /** Any answer at all (even an error) means the upstream is there. */
  heard(): void;
  /** No answer: offline, and the next probe backs off. */
  lost(): void;
  /** What a failed request teaches about the upstream as a whole. */
  learnFrom(failure: ClassifiedFailure): void;
  /** Lists one provider; `alive` says whether the answer still matters (not stopped). */
  probe(service: V1Service, alive: () => boolean): Promise<void>;
  /** A new upstream or new credentials: nothing known yet, no pause, no hold. */
  reset(): void;
}

export function createUpstreamHealth(deps: UpstreamHealthDeps): UpstreamHealth {
  const { clock, policy, random, log } = deps;
  let online: boolean | null = null;
  let paused: SyncError | null = null;
  let holdUntil = 0;
  let probeFailures = 0;
  let probeDueAt = 0;
  let lastContactAt = 0;

  const nowMs = () => clock.now().getTime();

  function heard(): void {
    probeFailures = 0;
    lastContactAt = nowMs();
    if (online === true) return;
    const wasOffline = online === false;
    online = true;
    deps.onChange();
    log('sync.online', {});
    // Back: everything that waited only for the network goes now, not at its backoff.
    if (wasOffline) deps.onBack();
  }

  function lost(): void {
    if (online !== false) {
      log('sync.offline', {});
      online = false;
      deps.onChange();
    }
    probeFailures += 1;
    probeDueAt = nowMs() + equalJitterMs(policy.probe, probeFailures, random);
  }

  function pause(error: SyncError): void {
    if (!paused) log('sync.paused', { status: error.status, code: error.code });
    paused = error;
    deps.onChange();
  }

  function learnFrom(failure: ClassifiedFailure): void {
    const { status } = failure.error;
    if (failure.kind === 'unreachable') lost();
    else heard();
    if (failure.kind === 'auth') pause(failure.error);
    if (failure.retryAfterSeconds !== undefined && (status === 429 || status === 503)) {
      const until = nowMs() + Math.min(failure.retryAfterSeconds * 1000, policy.send.maxRetryAfterMs);
      holdUntil = Math.max(holdUntil, until);
    }
  }

  const heartbeatAt = () => lastContactAt + policy.heartbeatMs;

  return {
    get online() {
      return online;
    },
    get paused() {
      return paused;
    },
    get holdUntil() {
      return holdUntil;
    },
    get nextProbeAt() {
      return online === false ? probeDueAt : online === true ? heartbeatAt() : null;
    },
    open: (now) => !paused && now >= holdUntil,
    probeDue: (now) => (online === false ? now >= probeDueAt : online === true && now >= heartbeatAt()),
    heard,
    lost,
    learnFrom,

    async probe(service, alive) {
      try {
        await service.list('providers', { limit: 1 });
        if (!alive()) return;
        heard();
      } catch (failure) {
        if (!alive()) return;
        const kind = classifyFailure(failure);
        if (kind.kind === 'unreachable') lost();
        else learnFrom(kind);
        if (kind.kind === 'transient') probeDueAt = nowMs() + equalJitterMs(policy.probe, ++probeFailures, random);
      }
    },

    reset() {
      paused = null;
      online = null;
      probeFailures = 0;
      holdUntil = 0;
    },
  };
}
