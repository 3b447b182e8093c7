import { inTransaction, type Db } from '../db/open-database';
import type { Clock } from '../support/clock';
import type { IdGenerator } from '../support/ids';
import type { RecordChange } from '../operations/local-service';
import type { SyncStatus } from '../../shared/bridge/desk-contract';
import type { Check, CreatableCollection, CreateInputOf, Discovery, Extraction, StoredPhoto, SyncError, V1Service } from '../../shared/contract';
import { equalJitterMs, retryDelayMs, type BackoffPolicy, type Random } from './backoff';
import { classifyFailure } from './failure-kind';
import {
  lastSyncedAt,
  makeUnreachableDue,
  markPaused,
  markRetry,
  markSending,
  markStopped,
  markSynced,
  nextDueAt,
  readyEntries,
  reconcileBlocked,
  requeueInterrupted,
  stateCounts,
  type OutboxEntry,
} from './outbox-queue';
import { fetchReferenceData, replaceReferenceData } from './reference-refresh';
import {
  applyCardFacts,
  applyTerminal,
  cardRemoteId,
  isPolledCollection,
  pendingRemoteRecords,
  setRemoteId,
  storeSpawnedChecks,
  type PolledCollection,
} from './remote-results';
import { cardReferenceId, upstreamPayload } from './upstream-payload';
import { findCardByReference, spawnedChecks } from './upstream-lookups';

export interface SyncPolicy {
  /** Requests in flight at once (sends, polls, probes together). */
  concurrency: number;
  /** Retries of a send; Retry-After is honoured up to `maxRetryAfterMs`. */
  send: BackoffPolicy & { maxRetryAfterMs: number };
  /** Polling a pending discovery, check or extraction. */
  poll: BackoffPolicy;
  /** The light request that asks whether an unreachable upstream is back. */
  probe: BackoffPolicy;
  /** With nothing to send, the same light request this often, so "online" stays true to fact. */
  heartbeatMs: number;
  /** How long the upstream remembers an Idempotency-Key (DESIGN.md §3). */
  idempotencyWindowMs: number;
  /** The upstream's clock may disagree with ours; lookups by time allow this much. */
  clockSkewMs: number;
  referenceRefreshMs: number;
  /** How long `stop()` lets requests in flight finish before leaving them to the next start. */
  stopGraceMs: number;
}

export const DEFAULT_SYNC_POLICY: SyncPolicy = {
  concurrency: 4,
  send: { baseMs: 1_000, capMs: 5 * 60_000, maxRetryAfterMs: 60 * 60_000 },
  poll: { baseMs: 1_000, capMs: 60_000 },
  probe: { baseMs: 2_000, capMs: 30_000 },
  heartbeatMs: 60_000,
  // Shorter than any upstream we know keeps keys (the sandbox: 7 days): erring short only
  // costs a lookup or a question, erring long costs a duplicate.
  idempotencyWindowMs: 24 * 60 * 60_000,
  clockSkewMs: 10 * 60_000,
  referenceRefreshMs: 6 * 60 * 60_000,
  stopGraceMs: 2_000,
};

/** The upstream the worker talks to, and how the desk should describe it. */
export interface UpstreamTarget {
  service: V1Service;
  mode: SyncStatus['mode'];
  url: string | null;
}

/** Ids, counts and codes only: never names, dates of birth or member ids. */
export type SyncLog = (event: string, fields: Record<string, string | number | boolean | null | undefined>) => void;

export interface SyncEngineDeps {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  random?: Random;
  policy?: Partial<SyncPolicy>;
  /** The bytes of a photo this desk stored, to upload it. */
  readPhoto(objectKey: string): Promise<StoredPhoto>;
  /** A local record the worker changed (remote id, results, spawned checks). */
  onRecordChanged?(change: RecordChange): void;
  onStatus?(status: SyncStatus): void;
  log?: SyncLog;
}

export interface SyncEngine {
  /** Runs on its own: timers, retries, polls, probes. Recovers entries a crash left sending. */
  start(): void;
  /** Stops scheduling and waits (briefly) for requests in flight. */
  stop(): Promise<void>;
  /** New credentials or a new upstream: a pause for refused credentials ends. */
  setUpstream(target: UpstreamTarget | null): void;
  /** Something local changed (a new entry, a retry, a discard): look again soon. */
  kick(): void;
  /** Without `start()`: one round of everything due now, awaited (tests step the engine). */
  pump(): Promise<void>;
  status(): SyncStatus;
}

/** What a send came to, waiting to be written by the next round. */
type Settled =
  | { kind: 'synced'; entry: OutboxEntry; remoteId: string }
  | { kind: 'retry'; entry: OutboxEntry; error: SyncError; nextAt: number }
  | { kind: 'paused'; entry: OutboxEntry; error: SyncError }
  | { kind: 'stopped'; entry: OutboxEntry; state: 'failed' | 'needs_review'; error: SyncError };

interface PollTask {
  collection: PolledCollection;
  localId: string;
  remoteId: string;
  localCardId: string;
  failures: number;
  dueAt: number;
}

/** Status events are paced for people: wall-clock time, not the injected clock. */
const STATUS_INTERVAL_MS = 250;
const PROBE_KEY = 'probe';
const pollKey = (task: PollTask) => `poll:${task.collection}:${task.localId}`;
const REFRESH_KEY = 'refresh';

export function createSyncEngine(deps: SyncEngineDeps): SyncEngine {
  const { db, clock } = deps;
  const policy: SyncPolicy = { ...DEFAULT_SYNC_POLICY, ...deps.policy };
  const random = deps.random ?? Math.random;
  const log: SyncLog = deps.log ?? (() => {});

  let upstream: UpstreamTarget | null = null;
  let online: boolean | null = null;
  let paused: SyncError | null = null;
  let started = false;
  let recovered = false;
  let stopped = false;
  let needsReconcile = true;
  /** Nothing is sent before this (a 429 or 503 with Retry-After holds the whole queue). */
  let holdUntil = 0;
  let probeFailures = 0;
  let probeDueAt = 0;
  let refreshDueAt = 0;
  let refreshFailures = 0;
  let lastContactAt = 0;
  let lastSuccessAt: string | null = lastSyncedAt(db);
  let polls = new Map<string, PollTask>();
  let pollsLoaded = false;
  const inFlight = new Map<string, Promise<void>>();
  const settled: Settled[] = [];
  let timer: NodeJS.Timeout | null = null;
  let scheduled = false;
  let lastPublished = '';
  let publishTimer: { immediate: boolean; handle: NodeJS.Timeout | NodeJS.Immediate } | null = null;
  let lastPublishedAt = 0;

  const nowMs = () => clock.now().getTime();
  const iso = (ms: number) => new Date(ms).toISOString();
  /** After stop (or a closed database) late answers are dropped: the next start redoes them. */
  const alive = () => !stopped && db.$client.open;

  function changed(collection: RecordChange['collection'], id: string): void {
    deps.onRecordChanged?.({ collection, id });
  }

  function markSuccess(): void {
    lastSuccessAt = clock.now().toISOString();
  }

  // ---- online state -------------------------------------------------------------------

  function heardFromUpstream(): void {
    probeFailures = 0;
    lastContactAt = nowMs();
    if (online === true) return;
    const wasOffline = online === false;
    online = true;
    publish(true);
    log('sync.online', {});
    if (wasOffline) {
      // Back: everything that waited only for the network goes now, not at its backoff.
      makeUnreachableDue(db, clock.now().toISOString());
      for (const task of polls.values()) task.dueAt = Math.min(task.dueAt, nowMs());
    }
  }

  function lostUpstream(): void {
    if (online !== false) {
      log('sync.offline', {});
      online = false;
      publish(true);
    }
    probeFailures += 1;
    probeDueAt = nowMs() + equalJitterMs(policy.probe, probeFailures, random);
  }

  function pause(error: SyncError): void {
    if (!paused) log('sync.paused', { status: error.status, code: error.code });
    paused = error;
    publish(true);
  }

  /** What every failed request teaches the worker about the upstream as a whole. */
  function learnFrom(kind: ReturnType<typeof classifyFailure>, status: number | undefined): void {
    if (kind.kind === 'unreachable') lostUpstream();
    else heardFromUpstream();
    if (kind.kind === 'auth') pause(kind.error);
    if (kind.retryAfterSeconds !== undefined && (status === 429 || status === 503)) {
      const until = nowMs() + Math.min(kind.retryAfterSeconds * 1000, policy.send.maxRetryAfterMs);
      holdUntil = Math.max(holdUntil, until);
    }
  }

  // ---- sending ------------------------------------------------------------------------

  async function deliver(service: V1Service, entry: OutboxEntry): Promise<{ remoteId: string }> {
    if (entry.collection === 'photos') {
      const photo = await deps.readPhoto(entry.record_id);
      const uploaded = await service.uploadPhoto(photo);
      return { remoteId: uploaded.object_key };
    }
    const payload = upstreamPayload(db, entry);
    // The worker is an API client of the upstream; the entry id is the Idempotency-Key.
    const collection = entry.collection as CreatableCollection;
    const created = await service.create(collection, payload as CreateInputOf<typeof collection>, { source: 'api', idempotency_key: entry.id });
    return { remoteId: created.id };
  }

  /** DESIGN.md §3: past the upstream's memory of the key, look the card up or ask a person. */
  async function afterWindow(service: V1Service, entry: OutboxEntry): Promise<{ remoteId: string } | 'send' | 'review'> {
    // A photo is named by its bytes: sending it again can only find the same photo.
    if (entry.collection === 'photos') return 'send';
    const reference = entry.collection === 'insurance_cards' ? cardReferenceId(entry) : null;
    if (!reference?.ours) return 'review';
    const found = await findCardByReference(service, reference.value, entry.first_attempt_at!, policy.clockSkewMs);
    return found ? { remoteId: found.id } : 'send';
  }

  function windowPassed(entry: OutboxEntry): boolean {
    return entry.first_attempt_at !== null && nowMs() - Date.parse(entry.first_attempt_at) > policy.idempotencyWindowMs;
  }

  /**
   * Sends one claimed entry and records what happened as a `Settled` outcome. Outcomes are
   * written by the next round, in the same transaction as its claims: one commit (one
   * fsync) per round instead of two per entry. Safe because the upstream is idempotent: an
   * outcome lost to a crash leaves the entry `sending`, and it goes again with its key.
   */
  async function sendEntry(target: UpstreamTarget, entry: OutboxEntry): Promise<void> {
    let remoteId: string;
    try {
      const decided = windowPassed(entry) ? await afterWindow(target.service, entry) : 'send';
      if (decided === 'review') {
        settled.push({
          kind: 'stopped',
          entry,
          state: 'needs_review',
          error: {
            code: 'idempotency_window_passed',
            message:
              'This was first sent long enough ago that the upstream may have forgotten it, and Coverdesk cannot check whether it arrived. Check upstream, then send it again or discard it.',
          },
        });
        return;
      }
      remoteId = (decided === 'send' ? await deliver(target.service, entry) : decided).remoteId;
    } catch (failure) {
      const kind = classifyFailure(failure);
      learnFrom(kind, kind.error.status);
      const attempts = entry.attempts + 1;
      log('sync.send_failed', { entry: entry.id, collection: entry.collection, kind: kind.kind, status: kind.error.status, code: kind.error.code, attempts });
      if (kind.kind === 'auth') settled.push({ kind: 'paused', entry, error: kind.error });
      else if (kind.kind === 'permanent') settled.push({ kind: 'stopped', entry, state: 'failed', error: kind.error });
      else settled.push({ kind: 'retry', entry, error: kind.error, nextAt: nowMs() + retryDelayMs(policy.send, attempts, random, kind.retryAfterSeconds) });
      return;
    }
    heardFromUpstream();
    markSuccess();
    log('sync.sent', { entry: entry.id, collection: entry.collection, attempts: entry.attempts + 1 });
    settled.push({ kind: 'synced', entry, remoteId });
  }

  /** Writes what has settled now, outside a round (a stepped pump, a stop). */
  function flushSettled(): void {
    if (settled.length === 0 || !db.$client.open) return;
    const notices = inTransaction(db, applySettled);
    for (const notice of notices) changed(notice.collection, notice.id);
  }

  /** Writes every settled outcome; call inside a transaction. Returns the records to announce. */
  function applySettled(): RecordChange[] {
    const notices: RecordChange[] = [];
    const now = clock.now().toISOString();
    for (const outcome of settled.splice(0)) {
      const { entry } = outcome;
      notices.push({ collection: entry.collection as RecordChange['collection'], id: entry.record_id });
      switch (outcome.kind) {
        case 'synced':
          setRemoteId(db, entry.collection, entry.record_id, outcome.remoteId);
          markSynced(db, entry.id, outcome.remoteId, now);
          if (isPolledCollection(entry.collection)) {
            // Polled even when the answer was already terminal: the poll stores the result
            // and its follow-ups (plan status, spawned checks) together, crash-safe.
            const localCardId = (entry.payload.insurance_card_id as string | undefined) ?? '';
            addPoll({ collection: entry.collection, localId: entry.record_id, remoteId: outcome.remoteId, localCardId, failures: 0, dueAt: nowMs() });
          }
          break;
        case 'retry':
          markRetry(db, entry.id, now, iso(outcome.nextAt), outcome.error);
          break;
        case 'paused':
          markPaused(db, entry.id, now, outcome.error);
          break;
        case 'stopped':
          markStopped(db, entry.id, outcome.state, now, outcome.error);
          needsReconcile = true;
          if (outcome.state === 'needs_review') log('sync.needs_review', { entry: entry.id, collection: entry.collection });
          break;
      }
    }
    return notices;
  }

  // ---- polling ------------------------------------------------------------------------

  function addPoll(task: PollTask): void {
    polls.set(pollKey(task), task);
  }

  function loadPolls(): void {
    if (pollsLoaded) return;
    pollsLoaded = true;
    for (const p of pendingRemoteRecords(db)) {
      addPoll({ collection: p.collection, localId: p.id, remoteId: p.remote_id, localCardId: p.insurance_card_id, failures: 0, dueAt: nowMs() });
    }
  }

  async function pollRecord(target: UpstreamTarget, task: PollTask): Promise<void> {
    const key = pollKey(task);
    try {
      const remote = (await target.service.get(task.collection, task.remoteId)) as Extraction | Discovery | Check;
      if (!alive()) return;
      heardFromUpstream();
      if (remote.status === 'pending') {
        task.failures += 1;
        task.dueAt = nowMs() + equalJitterMs(policy.poll, task.failures, random);
        return;
      }
      // Follow-ups are read before anything is written, then stored in one transaction with
      // the result: a crash in between leaves the record pending, to be polled again.
      const spawned =
        task.collection === 'electronic_eligibility_discoveries' && remote.status === 'success'
          ? await spawnedChecks(target.service, remote.id, remote.created_at, policy.clockSkewMs)
          : [];
      const cardRemote = cardRemoteId(db, task.localCardId);
      const card =
        cardRemote && remote.status === 'success' && task.collection !== 'extractions' ? await target.service.get('insurance_cards', cardRemote) : null;
      if (!alive()) return;
      const stored = inTransaction(db, () => {
        applyTerminal(db, task.collection, task.localId, remote);
        if (card) applyCardFacts(db, task.localCardId, card);
        return storeSpawnedChecks(db, deps.ids, { localDiscoveryId: task.localId, localCardId: task.localCardId }, spawned);
      });
      polls.delete(key);
      markSuccess();
      log('sync.polled', { collection: task.collection, id: task.localId, status: remote.status, spawned: stored.length });
      for (const check of stored) {
        if (check.pending) {
          addPoll({ collection: 'electronic_eligibility_checks', localId: check.id, remoteId: check.remote_id, localCardId: task.localCardId, failures: 0, dueAt: nowMs() });
        }
        changed('electronic_eligibility_checks', check.id);
      }
      changed(task.collection, task.localId);
      if (card) changed('insurance_cards', task.localCardId);
    } catch (failure) {
      if (!alive()) return;
      const kind = classifyFailure(failure);
      learnFrom(kind, kind.error.status);
      if (kind.error.status === 404) {
        // The upstream does not know it (a different upstream since it was sent): nothing to wait for.
        polls.delete(key);
        log('sync.poll_gone', { collection: task.collection, id: task.localId });
        return;
      }
      task.failures += 1;
      task.dueAt = nowMs() + retryDelayMs({ ...policy.poll, maxRetryAfterMs: policy.send.maxRetryAfterMs }, task.failures, random, kind.retryAfterSeconds);
      log('sync.poll_failed', { collection: task.collection, id: task.localId, kind: kind.kind, status: kind.error.status });
    }
  }

  // ---- probe and reference data -------------------------------------------------------

  async function probe(target: UpstreamTarget): Promise<void> {
    try {
      await target.service.list('providers', { limit: 1 });
      if (!alive()) return;
      heardFromUpstream();
    } catch (failure) {
      if (!alive()) return;
      const kind = classifyFailure(failure);
      if (kind.kind === 'unreachable') lostUpstream();
      else learnFrom(kind, kind.error.status);
      if (kind.kind === 'transient') probeDueAt = nowMs() + equalJitterMs(policy.probe, ++probeFailures, random);
    }
  }

  async function refreshReference(target: UpstreamTarget): Promise<void> {
    try {
      const data = await fetchReferenceData(target.service);
      if (!alive()) return;
      heardFromUpstream();
      const counts = replaceReferenceData(db, data);
      refreshFailures = 0;
      refreshDueAt = nowMs() + policy.referenceRefreshMs;
      log('sync.reference_refreshed', counts);
    } catch (failure) {
      if (!alive()) return;
      const kind = classifyFailure(failure);
      learnFrom(kind, kind.error.status);
      refreshFailures += 1;
      refreshDueAt = nowMs() + equalJitterMs(policy.poll, refreshFailures, random);
    }
  }

  /** Once per engine: entries a crash left `sending` go again with the same key. */
  function recoverInterrupted(): void {
    if (recovered) return;
    recovered = true;
    const count = requeueInterrupted(db, clock.now().toISOString());
    if (count) log('sync.recovered', { entries: count });
  }

  // ---- the scheduler ------------------------------------------------------------------

  function launch(key: string, run: () => Promise<void>): Promise<void> {
    const job = run()
      .catch((error: unknown) => {
        // A bug in the worker must not kill the host; the entry stays where it was and is retried.
        log('sync.job_error', { job: key, error: error instanceof Error ? error.name : 'unknown' });
      })
      .finally(() => {
        inFlight.delete(key);
        schedule();
        publish();
      });
    inFlight.set(key, job);
    return job;
  }

  /**
   * Starts every job due now, within the concurrency bound, after writing what the last
   * jobs settled; the writes and the new claims share one transaction. Returns the jobs.
   */
  function round(): Promise<void>[] {
    const jobs: Promise<void>[] = [];
    if (!alive()) return jobs;
    const target = upstream;
    const now = nowMs();
    const free = () => policy.concurrency - inFlight.size;
    const sending = !!target && !paused && now >= holdUntil;
    if (target) loadPolls();

    const probeDue = online === false ? now >= probeDueAt : online === true && now >= lastContactAt + policy.heartbeatMs;
    if (sending && probeDue && !inFlight.has(PROBE_KEY) && free() > 0) {
      jobs.push(launch(PROBE_KEY, () => probe(target)));
    }
    // The refresh doubles as the first contact: it tells the worker whether the upstream is there.
    if (sending && online !== false && now >= refreshDueAt && !inFlight.has(REFRESH_KEY) && free() > 0) {
      jobs.push(launch(REFRESH_KEY, () => refreshReference(target)));
    }

    const claimed: OutboxEntry[] = [];
    const notices = inTransaction(db, () => {
      const written = applySettled();
      if (needsReconcile) {
        needsReconcile = false;
        const touched = reconcileBlocked(db, iso(now));
        if (touched.length) log('sync.reconciled', { entries: touched.length });
      }
      if (!sending || online !== true) return written;
      for (;;) {
        const budget = free() - claimed.length;
        if (budget <= 0) break;
        const ready = readyEntries(db, iso(now), budget);
        if (ready.length === 0) break;
        for (const entry of ready) if (markSending(db, entry.id, iso(now))) claimed.push(entry);
      }
      return written;
    });
    for (const notice of notices) changed(notice.collection, notice.id);
    for (const entry of claimed) jobs.push(launch(`send:${entry.id}`, () => sendEntry(target!, entry)));

    if (sending && online === true) {
      const due = [...polls.values()].filter((t) => t.dueAt <= now && !inFlight.has(pollKey(t))).sort((a, b) => a.dueAt - b.dueAt);
      for (const task of due) {
        if (free() <= 0) break;
        jobs.push(launch(pollKey(task), () => pollRecord(target!, task)));
      }
    }
    return jobs;
  }

  /**
   * When the scheduler must look again, mirroring what `round` would start: jobs already in
   * flight are left out (their completion reschedules), or a due-but-running job would spin.
   */
  function nextWake(): number | null {
    if (!upstream || paused) return null;
    if (holdUntil > nowMs()) return holdUntil;
    if (online === false) return inFlight.has(PROBE_KEY) ? null : probeDueAt;
    const candidates: number[] = [];
    if (!inFlight.has(REFRESH_KEY)) candidates.push(refreshDueAt);
    if (online === true) {
      if (!inFlight.has(PROBE_KEY)) candidates.push(lastContactAt + policy.heartbeatMs);
      const due = nextDueAt(db);
      if (due) candidates.push(Date.parse(due));
      for (const task of polls.values()) if (!inFlight.has(pollKey(task))) candidates.push(task.dueAt);
    }
    return candidates.length ? Math.min(...candidates) : null;
  }

  function fill(): void {
    if (!started || !alive()) return;
    if (timer) clearTimeout(timer);
    timer = null;
    round();
    const wake = nextWake();
    if (wake !== null) {
      // Capped so a clock jump (sleep, NTP) is noticed within a minute.
      const delay = Math.min(Math.max(wake - nowMs(), 0), 60_000);
      // With every slot busy, a completion reschedules; a timer for "due now" would only spin.
      if (delay > 0 || inFlight.size < policy.concurrency) {
        timer = setTimeout(fill, Math.max(delay, 1));
        timer.unref?.();
      }
    }
    publish();
  }

  function schedule(): void {
    if (!started || scheduled || !alive()) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      fill();
    });
  }

  function status(): SyncStatus {
    return {
      online,
      mode: upstream?.mode ?? 'sandbox',
      upstream_url: upstream?.url ?? null,
      counts: stateCounts(db),
      last_sync_at: lastSuccessAt,
      worker: !started || stopped ? 'absent' : paused ? 'paused' : 'running',
    };
  }

  /**
   * Tells subscribers when the status changed: coalesced, and counts at most every
   * `STATUS_INTERVAL_MS`, so a queue draining a thousand entries is a few events a second
   * for the desk's screens, not a thousand. `urgent` (online, offline, paused) goes at once.
   */
  function publish(urgent = false): void {
    if (!deps.onStatus) return;
    const wait = urgent ? 0 : Math.max(0, lastPublishedAt + STATUS_INTERVAL_MS - Date.now());
    if (publishTimer && (!urgent || publishTimer.immediate)) return;
    if (publishTimer) clearTimeout(publishTimer.handle as NodeJS.Timeout); // only a paced timer reaches here
    const emit = () => {
      publishTimer = null;
      if (!db.$client.open) return;
      try {
        const current = status();
        const serialised = JSON.stringify(current);
        if (serialised === lastPublished) return;
        lastPublished = serialised;
        lastPublishedAt = Date.now();
        deps.onStatus?.(current);
      } catch {
        // The database closed under us (shutdown); nothing to tell.
      }
    };
    if (wait === 0) publishTimer = { immediate: true, handle: setImmediate(emit) };
    else {
      const handle = setTimeout(emit, wait);
      handle.unref?.();
      publishTimer = { immediate: false, handle };
    }
  }

  return {
    start() {
      if (started) return;
      started = true;
      recoverInterrupted();
      needsReconcile = true;
      schedule();
      publish();
    },

    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      const pending = [...inFlight.values()];
      let grace: NodeJS.Timeout | undefined;
      if (pending.length > 0) {
        await Promise.race([
          Promise.allSettled(pending),
          new Promise<void>((resolve) => {
            grace = setTimeout(resolve, policy.stopGraceMs);
            grace.unref?.();
          }),
        ]);
      }
      clearTimeout(grace);
      // What finished in time is written; anything later is redone at the next start.
      flushSettled();
    },

    setUpstream(target) {
      upstream = target;
      paused = null;
      online = null;
      probeFailures = 0;
      holdUntil = 0;
      refreshDueAt = 0;
      // Records sent to a previous upstream are unknown to a new one; those polls end on 404.
      polls = new Map();
      pollsLoaded = false;
      if (alive()) {
        schedule();
        publish();
      }
    },

    kick() {
      needsReconcile = true;
      schedule();
      publish();
    },

    async pump() {
      if (!db.$client.open) return;
      // Stepped by hand: a crash may have left entries sending, exactly as at start().
      recoverInterrupted();
      await Promise.all(round());
      flushSettled();
      publish();
    },

    status,
  };
}
