import { inTransactionWithoutFsync, type Db } from '../db/open-database';
import type { Clock } from '../support/clock';
import type { IdGenerator } from '../support/ids';
import type { RecordChange } from '../operations/local-service';
import type { SyncStatus } from '../../shared/bridge/desk-contract';
import type { CreatableCollection, CreateInputOf, StoredPhoto, SyncError, V1Service } from '../../shared/contract';
import { equalJitterMs, retryDelayMs, type Random } from './backoff';
import { classifyFailure } from './failure-kind';
import { isDiskFull } from '../storage/disk-full';
import {
  lastSyncedAt,
  makeUnreachableDue,
  markPaused,
  markRetry,
  markSending,
  markStopped,
  markSynced,
  nextDueAt,
  anyStopped,
  readyEntries,
  reconcileBlocked,
  releaseClaim,
  requeueInterrupted,
  stateCounts,
  type OutboxEntry,
} from './outbox-queue';
import { createPendingPolls, pollKey } from './pending-polls';
import { fetchReferenceData, replaceReferenceData } from './reference-refresh';
import { isPolledCollection, setRemoteId } from './remote-results';
import { createStatusPublisher } from './status-publisher';
import { SYNC_MESSAGES } from './sync-messages';
import { DEFAULT_SYNC_POLICY, type SyncLog, type SyncPolicy, type UpstreamTarget } from './sync-policy';
import { createUpstreamHealth } from './upstream-health';
import { createSendWindow, isOverload } from './send-window';
import { cardReferenceId, upstreamPayload } from './upstream-payload';
import { adoptUnkeyedRemoteIds, upstreamKey } from './remote-ids';
import { readinessFor, sendOwedAnswersAgain } from './send-again';
import { findCardByReference } from './upstream-lookups';

export { DEFAULT_SYNC_POLICY, type SyncLog, type SyncPolicy, type UpstreamTarget } from './sync-policy';

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
  /** Whether the upstream answers (null: not known yet): the status's `online` without counting the outbox. */
  online(): boolean | null;
  /** Whether other requests to the upstream may go now: not paused, not held by a Retry-After, not known offline (the pull side asks). */
  mayCall(): boolean;
  /**
   * Another request to the service `key` (the pull side's, every few seconds) was answered
   * (`failure` null) or failed: no answer at all means offline, so an idle desk learns the
   * service went away within seconds, not at the next heartbeat. About a previous service
   * (a switch since), it is ignored.
   */
  learnFromOther(key: string, failure: unknown): void;
}

/** What a send came to, waiting to be written by the next round. */
type Settled =
  /** `upstream`: the key of the service that answered, which may no longer be the current one. */
  | { kind: 'synced'; entry: OutboxEntry; remoteId: string; upstream: string }
  | { kind: 'retry'; entry: OutboxEntry; error: SyncError; nextAt: number }
  | { kind: 'paused'; entry: OutboxEntry; error: SyncError }
  | { kind: 'stopped'; entry: OutboxEntry; state: 'failed' | 'needs_review'; error: SyncError };

const PROBE_KEY = 'probe';
/** The longest a finished send's outcome waits for others to share its round's commit. */
const ROUND_GATHER_MS = 2;
/** The same while the reserve keeps the window full: the round is off the requests' path then, so it may gather longer. */
const RESERVE_GATHER_MS = 5;
/**
 * The reserve holds this many windows of claims, and is refilled when it falls under one.
 * A round's commit writes each B-tree page its outcomes and claims touch (the outbox, its
 * indexes, the records' and `remote_ids`' remote ids), encrypted: 47.6 pages for a round
 * of 22 entries, 61.1 for 44 (2.17 pages an entry against 1.39), so a drain's rounds are best
 * large. One window's reserve refilled at half made rounds of about 22.
 */
const RESERVE_WINDOWS = 2;
/**
 * While more is ready and the reserve is deep, a finished send's outcome is written by the
 * next refill; this is how long it may wait at most (a slow upstream refills rarely), so the
 * Sync screen and the records' dependents still hear of it soon.
 */
const OUTCOME_WAIT_MS = 50;
/**
 * Kicks (the desk or the local API created something) closer together than this share one
 * round: a busy local API commits a group every millisecond or so, and a round after each
 * cost it 5–12 % of the thread. The first kick after a quiet spell still goes at once.
 */
const KICK_SPACING_MS = 25;
const REFRESH_KEY = 'refresh';

/**
 * The sync worker's scheduler: each round writes what finished sends came to and claims
 * the next ready entries in one transaction, then starts sends, due polls, the probe and
 * the reference refresh within the concurrency bound. What it believes about the upstream
 * is `upstream-health.ts`, the records waiting upstream `pending-polls.ts`, and the
 * `sync.status` events `status-publisher.ts`.
 */
export function createSyncEngine(deps: SyncEngineDeps): SyncEngine {
  const { db, clock } = deps;
  const policy: SyncPolicy = { ...DEFAULT_SYNC_POLICY, ...deps.policy };
  const random = deps.random ?? Math.random;
  const log: SyncLog = deps.log ?? (() => {});

  let upstream: UpstreamTarget | null = null;
  let started = false;
  let recovered = false;
  let stopped = false;
  let needsReconcile = true;
  /** A new service, or a late answer from the previous one: look for what the current one must be sent again. */
  let needsOwedSweep = false;
  let refreshDueAt = 0;
  let refreshFailures = 0;
  let lastSuccessAt: string | null = lastSyncedAt(db);
  const inFlight = new Map<string, Promise<void>>();
  const sendWindow = createSendWindow({ initial: policy.concurrency, max: Math.max(policy.concurrency, policy.maxConcurrency) });
  const busy = (key: string) => inFlight.has(key);
  const settled: Settled[] = [];
  /**
   * Entries claimed (committed `sending`) ahead of a free slot, for `reserveFor`: a send that
   * finishes starts the next at once, in the same turn as its answer, instead of the window
   * waiting for a round's commit to claim it (the upstream sat idle for about that long per
   * send, the drain's largest loss against a bare loop). Only while the engine runs on its own.
   */
  const reserve: OutboxEntry[] = [];
  let reserveFor: UpstreamTarget | null = null;
  /** The last round claimed all it wanted: more are likely ready, so a low reserve is refilled at once. */
  let claimsFilled = false;
  let timer: NodeJS.Timeout | null = null;
  let scheduled = false;
  /** A kick that came within `KICK_SPACING_MS` of the last round waits for this one. */
  let kickTimer: NodeJS.Timeout | null = null;
  let lastFillAt = -Infinity;
  /** The last round could not be written (SQLITE_FULL): sending waits, and tries again in a while. */
  let diskFull = false;

  const nowMs = () => clock.now().getTime();
  const iso = (ms: number) => new Date(ms).toISOString();
  /** After stop (or a closed database) late answers are dropped: the next start redoes them. */
  const alive = () => !stopped && db.$client.open;

  function changed(collection: RecordChange['collection'], id: string): void {
    deps.onRecordChanged?.({ collection, id });
  }

  function markSuccess(): void {
    lastSuccessAt = clock.now().toISOString();
    sendWindow.succeeded();
  }

  const publish = createStatusPublisher({ onStatus: deps.onStatus, read: status, isOpen: () => db.$client.open });
  const health = createUpstreamHealth({
    clock,
    random,
    policy,
    log,
    onChange: () => publish(true),
    onBack: () => {
      makeUnreachableDue(db, clock.now().toISOString());
      polls.makeAllDue();
    },
  });
  const polls = createPendingPolls({ db, clock, ids: deps.ids, random, policy, log, health, alive, changed, succeeded: markSuccess });

  // ---- sending ------------------------------------------------------------------------

  async function deliver(service: V1Service, key: string, entry: OutboxEntry): Promise<{ remoteId: string }> {
    if (entry.collection === 'photos') {
      const photo = await deps.readPhoto(entry.record_id);
      const uploaded = await service.uploadPhoto(photo);
      return { remoteId: uploaded.object_key };
    }
    const payload = upstreamPayload(db, key, entry);
    // The worker is an API client of the upstream; the entry id is the Idempotency-Key.
    const collection = entry.collection as CreatableCollection;
    const created = await service.create(collection, payload as CreateInputOf<typeof collection>, { source: 'api', idempotency_key: entry.id });
    return { remoteId: created.id };
  }

  /** Past the upstream's memory of the key (docs/decisions.md, Sync): look the card up or ask a person. */
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
    const ticket = sendWindow.ticket();
    const key = upstreamKey(target);
    // Sent before a switch of service, answered after: what it says is not about the service the desk talks to now.
    const current = () => upstream === target;
    try {
      const decided = windowPassed(entry) ? await afterWindow(target.service, entry) : 'send';
      if (decided === 'review') {
        settled.push({
          kind: 'stopped',
          entry,
          state: 'needs_review',
          error: {
            code: 'idempotency_window_passed',
            message: SYNC_MESSAGES.idempotencyWindowPassed,
          },
        });
        return;
      }
      remoteId = (decided === 'send' ? await deliver(target.service, key, entry) : decided).remoteId;
    } catch (failure) {
      const kind = classifyFailure(failure);
      if (current()) health.learnFrom(kind);
      if (current() && isOverload(kind.error.status)) sendWindow.overloaded(ticket);
      const attempts = entry.attempts + 1;
      log('sync.send_failed', { entry: entry.id, collection: entry.collection, kind: kind.kind, status: kind.error.status, code: kind.error.code, attempts });
      // A refusal by a previous service is not the current one's: the entry goes again, to it, its attempt not counted.
      if (kind.kind === 'auth' || !current()) settled.push({ kind: 'paused', entry, error: kind.error });
      else if (kind.kind === 'permanent') settled.push({ kind: 'stopped', entry, state: 'failed', error: kind.error });
      else settled.push({ kind: 'retry', entry, error: kind.error, nextAt: nowMs() + retryDelayMs(policy.send, attempts, random, kind.retryAfterSeconds) });
      return;
    }
    if (current()) {
      health.heard();
      markSuccess();
    }
    log('sync.sent', { entry: entry.id, collection: entry.collection, attempts: entry.attempts + 1 });
    settled.push({ kind: 'synced', entry, remoteId, upstream: key });
  }

  /** Writes what has settled now, outside a round (a stepped pump, a stop). */
  function flushSettled(): void {
    if ((settled.length === 0 && reserve.length === 0) || !db.$client.open) return;
    const notices = keepingReserve(() =>
      takingSettled((outcomes) =>
        inTransactionWithoutFsync(db, () => {
          releaseReserve();
          return applySettled(outcomes);
        }),
      ),
    );
    for (const notice of notices) changed(notice.collection, notice.id);
  }

  /**
   * `write` (a whole transaction, its COMMIT included) with the settled outcomes taken: if it
   * fails (a full disk, a COMMIT refused) they are put back, to be written by a later round,
   * not forgotten while their entries stay `sending`.
   */
  function takingSettled<T>(write: (outcomes: Settled[]) => T): T {
    const outcomes = settled.splice(0);
    try {
      return write(outcomes);
    } catch (error) {
      settled.unshift(...outcomes);
      throw error;
    }
  }

  /** Writes these settled outcomes; call inside a transaction. Returns the records to announce. */
  function applySettled(outcomes: Settled[]): RecordChange[] {
    const notices: RecordChange[] = [];
    const now = clock.now().toISOString();
    for (const outcome of outcomes) {
      const { entry } = outcome;
      notices.push({ collection: entry.collection as RecordChange['collection'], id: entry.record_id });
      switch (outcome.kind) {
        case 'synced':
          setRemoteId(db, outcome.upstream, entry.collection, entry.record_id, outcome.remoteId);
          markSynced(db, entry.id, outcome.remoteId, now);
          if (!upstream || upstreamKey(upstream) !== outcome.upstream) {
            // Landed at the previous service after a switch: the current one has not got it.
            needsOwedSweep = true;
          } else if (isPolledCollection(entry.collection)) {
            // Polled even when the answer was already terminal: the poll stores the result
            // and its follow-ups (plan status, spawned checks) together, crash-safe.
            const localCardId = (entry.payload.insurance_card_id as string | undefined) ?? '';
            polls.add({ collection: entry.collection, localId: entry.record_id, remoteId: outcome.remoteId, localCardId, upstream: outcome.upstream });
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

  /** Gives the reserve's claims back (inside a transaction): their requests never left. */
  function releaseReserve(): void {
    for (const entry of reserve.splice(0)) releaseClaim(db, entry);
    reserveFor = null;
  }

  /** `write` (a transaction that may release the reserve): if it fails (a full disk), the claims are still `sending`, so the reserve keeps them. */
  function keepingReserve<T>(write: () => T): T {
    const reserved = [...reserve];
    const reservedFor = reserveFor;
    try {
      return write();
    } catch (error) {
      reserve.splice(0, reserve.length, ...reserved);
      reserveFor = reservedFor;
      throw error;
    }
  }

  /** Whether a reserved entry may go now: to the service it was claimed for, online, a slot free. */
  function mayDrawReserve(): boolean {
    return (
      reserve.length > 0 &&
      started &&
      alive() &&
      !!upstream &&
      upstream === reserveFor &&
      health.online === true &&
      health.open(nowMs()) &&
      sendWindow.size() - inFlight.size > 0
    );
  }

  function drawReserve(jobs?: Promise<void>[]): void {
    while (mayDrawReserve()) {
      const entry = reserve.shift()!;
      const job = launch(`send:${entry.id}`, () => sendEntry(reserveFor!, entry));
      jobs?.push(job);
    }
  }

  // ---- reference data and recovery ---------------------------------------------------

  async function refreshReference(target: UpstreamTarget): Promise<void> {
    try {
      const data = await fetchReferenceData(target.service);
      if (!alive()) return;
      health.heard();
      const counts = replaceReferenceData(db, data);
      refreshFailures = 0;
      refreshDueAt = nowMs() + policy.referenceRefreshMs;
      log('sync.reference_refreshed', counts);
    } catch (failure) {
      if (!alive()) return;
      health.learnFrom(classifyFailure(failure));
      refreshFailures += 1;
      refreshDueAt = nowMs() + equalJitterMs(policy.poll, refreshFailures, random);
    }
  }

  /** Once per engine: entries a crash left `sending` go again with the same key. */
  function recoverInterrupted(): void {
    if (recovered) return;
    const count = requeueInterrupted(db, clock.now().toISOString());
    recovered = true;
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
        // The freed slot goes to a claimed entry now, in this turn: its request leaves with this answer's.
        drawReserve();
        afterJob();
        publish();
      });
    inFlight.set(key, job);
    return job;
  }

  /**
   * Whether a ready entry may go to the service `key` now: every local record it names is
   * there. If not, what that service lacks is queued first (send-again.ts) and the entry
   * waits for it; a record no longer on this desk fails the entry, with the field named.
   */
  function mayGoTo(key: string, entry: OutboxEntry, now: number): boolean {
    const readiness = readinessFor({ db, clock, ids: deps.ids }, key, entry);
    if (readiness.kind === 'ready') return true;
    needsReconcile = true;
    if (readiness.kind === 'missing') {
      markStopped(db, entry.id, 'failed', iso(now), { code: 'dependency_not_synced', message: SYNC_MESSAGES.dependencyNotSynced(readiness.field) });
    } else {
      log('sync.waits_for_resend', { entry: entry.id, collection: entry.collection, entries: readiness.on.length });
    }
    return false;
  }

  /**
   * Starts every job due now, within the concurrency bound, after writing what the last
   * jobs settled; the writes and the new claims share one transaction. Returns the jobs.
   */
  function round(reserving = false): Promise<void>[] {
    const jobs: Promise<void>[] = [];
    if (!alive()) return jobs;
    const target = upstream;
    const now = nowMs();
    const free = () => sendWindow.size() - inFlight.size;
    const sending = !!target && health.open(now);
    const key = target ? upstreamKey(target) : null;

    if (sending && health.probeDue(now) && !inFlight.has(PROBE_KEY) && free() > 0) {
      jobs.push(launch(PROBE_KEY, () => health.probe(target.service, alive)));
    }
    // The refresh doubles as the first contact: it tells the worker whether the upstream is there.
    if (sending && health.online !== false && now >= refreshDueAt && !inFlight.has(REFRESH_KEY) && free() > 0) {
      jobs.push(launch(REFRESH_KEY, () => refreshReference(target)));
    }

    const claimed: OutboxEntry[] = [];
    const mayClaim = sending && health.online === true;
    // Nothing settled, reserved, owed or to claim (offline, paused), and nothing stopped to
    // reconcile: no transaction. An offline desk's local API kicks a round every 25 ms, and each
    // was a BEGIN, the reconcile's look for stopped entries and a COMMIT, writing nothing.
    // Asked at most once a round: when the idle test asks, nothing is settled to write before
    // the reconcile, so its answer still holds there.
    let stopped: boolean | undefined;
    const idle =
      settled.length === 0 && reserve.length === 0 && !(key !== null && needsOwedSweep) && !mayClaim && (!needsReconcile || !(stopped = anyStopped(db)));
    if (idle) {
      needsReconcile = false;
      claimsFilled = false;
    }
    const notices = idle
      ? []
      : keepingReserve(() =>
        takingSettled((outcomes) =>
          inTransactionWithoutFsync(db, () => {
            claimsFilled = false;
            const written = applySettled(outcomes);
            if (key !== null && needsOwedSweep) {
              needsOwedSweep = false;
              const adopted = adoptUnkeyedRemoteIds(db, key);
              if (adopted) log('sync.remote_ids_adopted', { records: adopted });
              const again = sendOwedAnswersAgain({ db, clock, ids: deps.ids }, key);
              if (again) log('sync.sent_again_for_answers', { entries: again });
            }
            if (needsReconcile) {
              needsReconcile = false;
              const touched = reconcileBlocked(db, iso(now), stopped);
              if (touched.length) log('sync.reconciled', { entries: touched.length });
            }
            // Claimed for a service the desk no longer talks to, or one that is not answering now.
            if (reserve.length > 0 && (!sending || health.online !== true || reserveFor !== target)) releaseReserve();
            if (!sending || health.online !== true) return written;
            // The free slots (the reserve goes into them first) and, running on its own, a reserve of `RESERVE_WINDOWS` windows.
            const wanted = free() + (reserving ? sendWindow.size() * RESERVE_WINDOWS : 0) - reserve.length;
            for (;;) {
              const budget = wanted - claimed.length;
              if (budget <= 0) break;
              const ready = readyEntries(db, iso(now), budget);
              if (ready.length === 0) break;
              let claimedAny = false;
              for (const entry of ready) {
                if (!mayGoTo(key!, entry, now)) continue;
                if (markSending(db, entry.id, iso(now))) claimed.push(entry);
                claimedAny = true;
              }
              // Every ready entry waits for records sent again: those new entries are ready next.
              if (!claimedAny && readyEntries(db, iso(now), 1).length === 0) break;
            }
            claimsFilled = claimed.length >= wanted;
            return written;
          }),
        ),
      );
    // After the sweep: the ids a service gave are known before its pending records are loaded.
    if (target) polls.load(key!);
    for (const notice of notices) changed(notice.collection, notice.id);
    if (claimed.length > 0) {
      reserve.push(...claimed);
      reserveFor = target;
    }
    // Oldest claims first; what does not fit in the window waits in the reserve for a slot.
    if (reserving) drawReserve(jobs);
    else for (const entry of reserve.splice(0)) jobs.push(launch(`send:${entry.id}`, () => sendEntry(target!, entry)));

    if (sending && health.online === true) {
      for (const task of polls.due(now, busy)) {
        if (free() <= 0) break;
        jobs.push(launch(pollKey(task), () => polls.poll(target!.service, task)));
      }
    }
    return jobs;
  }

  /**
   * When the scheduler must look again, mirroring what `round` would start: jobs already in
   * flight are left out (their completion reschedules), or a due-but-running job would spin.
   */
  function nextWake(): number | null {
    if (!upstream || health.paused) return null;
    if (health.holdUntil > nowMs()) return health.holdUntil;
    if (health.online === false) return inFlight.has(PROBE_KEY) ? null : health.nextProbeAt;
    const candidates: number[] = [];
    if (!inFlight.has(REFRESH_KEY)) candidates.push(refreshDueAt);
    if (health.online === true) {
      if (!inFlight.has(PROBE_KEY)) candidates.push(health.nextProbeAt!);
      const due = nextDueAt(db);
      if (due) candidates.push(Date.parse(due));
      const pollDue = polls.nextDueAt(busy);
      if (pollDue !== null) candidates.push(pollDue);
    }
    return candidates.length ? Math.min(...candidates) : null;
  }

  function fill(): void {
    if (!started || !alive()) return;
    lastFillAt = performance.now();
    if (timer) clearTimeout(timer);
    timer = null;
    if (kickTimer) clearTimeout(kickTimer);
    kickTimer = null;
    if (lateTimer) clearTimeout(lateTimer);
    lateTimer = null;
    try {
      recoverInterrupted();
      round(true);
      if (diskFull) {
        diskFull = false;
        log('sync.disk_space_back', {});
        publish(true);
      }
    } catch (error) {
      // Thrown from a timer or setImmediate, this would end the host. A full disk (or any
      // failed write) pauses sending instead; the rolled-back round is redone in a while.
      needsReconcile = true;
      needsOwedSweep = true;
      const full = isDiskFull(error);
      if (full !== diskFull || !full) log(full ? 'sync.disk_full' : 'sync.round_failed', { error: error instanceof Error ? error.name : 'unknown' });
      if (full && !diskFull) {
        diskFull = true;
        publish(true);
      }
      timer = setTimeout(fill, policy.diskFullRetryMs);
      timer.unref?.();
      return;
    }
    const wake = nextWake();
    if (wake !== null) {
      // Capped so a clock jump (sleep, NTP) is noticed within a minute.
      const delay = Math.min(Math.max(wake - nowMs(), 0), 60_000);
      // With every slot busy, a completion reschedules; a timer for "due now" would only spin.
      if (delay > 0 || inFlight.size < sendWindow.size()) {
        timer = setTimeout(fill, Math.max(delay, 1));
        timer.unref?.();
      }
    }
    publish();
  }

  /**
   * A finished job frees a slot, which the reserve fills at once when it can. With nearly
   * all of the window still in flight, its round waits (at most `ROUND_GATHER_MS`, or
   * `RESERVE_GATHER_MS` while the reserve keeps the window full) for a few more to finish: a
   * round is a commit, and commits were a drain's largest cost after the requests
   * themselves. The upstream still has the rest of the window to work on meanwhile; a
   * reserve running low is refilled at once, and while it is deep and more is ready the
   * outcomes wait for that refill (at most `OUTCOME_WAIT_MS`), so rounds are large.
   */
  let lateTimer: NodeJS.Timeout | null = null;
  function afterJob(): void {
    const size = sendWindow.size();
    if (size - inFlight.size >= Math.max(1, Math.floor(size / 8))) return schedule();
    // The reserve runs low while more entries are likely ready: refill it before the window empties.
    if (claimsFilled && reserve.length < size * (RESERVE_WINDOWS - 1)) return schedule();
    if (lateTimer || !started) return;
    // More is ready and the reserve is deep: the refill writes this outcome with many others.
    // Else something may wait for it (a card for its patient's remote id): soon.
    const wait = claimsFilled && reserve.length > 0 ? OUTCOME_WAIT_MS : reserve.length > 0 ? RESERVE_GATHER_MS : ROUND_GATHER_MS;
    lateTimer = setTimeout(() => {
      lateTimer = null;
      schedule();
    }, wait);
    lateTimer.unref?.();
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
      online: health.online,
      mode: upstream?.mode ?? 'sandbox',
      upstream_url: upstream?.url ?? null,
      counts: stateCounts(db),
      last_sync_at: lastSuccessAt,
      worker: !started || stopped ? 'absent' : health.paused || diskFull ? 'paused' : 'running',
      storage: diskFull ? 'full' : 'ok',
    };
  }

  return {
    start() {
      if (started) return;
      started = true;
      // A full disk at start: the first round tries again (fill), and says why it waits.
      try {
        recoverInterrupted();
      } catch (error) {
        if (!isDiskFull(error)) throw error;
      }
      needsReconcile = true;
      schedule();
      publish();
    },

    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      if (lateTimer) clearTimeout(lateTimer);
      lateTimer = null;
      if (kickTimer) clearTimeout(kickTimer);
      kickTimer = null;
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
      needsOwedSweep = true;
      health.reset();
      refreshDueAt = 0;
      polls.reset();
      if (alive()) {
        schedule();
        publish();
      }
    },

    kick() {
      needsReconcile = true;
      const since = performance.now() - lastFillAt;
      if (since >= KICK_SPACING_MS) schedule();
      else if (!kickTimer && started && !scheduled) {
        kickTimer = setTimeout(() => {
          kickTimer = null;
          schedule();
        }, KICK_SPACING_MS - since);
        kickTimer.unref?.();
      }
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
    online: () => health.online,
    mayCall: () => !!upstream && health.open(clock.now().getTime()) && health.online !== false,

    learnFromOther(key, failure) {
      if (failure === null || !upstream || upstreamKey(upstream) !== key || !alive()) return;
      // Only silence is news: the pull's own refusals are its business, and an answer is not
      // taken as "online" (the worker's first contact is its reference refresh, and while
      // offline the pull does not ask: the probe finds the way back).
      if (classifyFailure(failure).kind !== 'unreachable') return;
      health.lost();
      // Offline now means a probe is due soon, not the heartbeat a minute away.
      schedule();
    },
  };
}
