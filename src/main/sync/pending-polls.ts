import { inTransaction, type Db } from '../db/open-database';
import type { Clock } from '../support/clock';
import type { IdGenerator } from '../support/ids';
import type { RecordChange } from '../operations/local-service';
import type { Check, Discovery, Extraction, V1Service } from '../../shared/contract';
import { equalJitterMs, retryDelayMs, type Random } from './backoff';
import { classifyFailure } from './failure-kind';
import { applyCardFacts, applyTerminal, cardRemoteId, pendingRemoteRecords, storeSpawnedChecks, type PolledCollection } from './remote-results';
import type { SyncLog, SyncPolicy } from './sync-policy';
import { spawnedChecks } from './upstream-lookups';
import type { UpstreamHealth } from './upstream-health';

/**
 * The records sent upstream whose answer is not final yet (a discovery, check or
 * extraction still `pending` there), and the polling that waits for it: each record on its
 * own backoff, its result stored with its follow-ups (the card's plan facts, the checks a
 * discovery spawned) in one transaction. Which poll goes when is the scheduler's call.
 */
export interface PollTask {
  collection: PolledCollection;
  localId: string;
  remoteId: string;
  localCardId: string;
  /** The service that owes the answer (`upstreamKey`). */
  upstream: string;
  failures: number;
  dueAt: number;
}

export interface PendingPollsDeps {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  random: Random;
  policy: SyncPolicy;
  log: SyncLog;
  health: Pick<UpstreamHealth, 'heard' | 'learnFrom'>;
  /** False after stop (or a closed database): late answers are dropped, the next start redoes them. */
  alive(): boolean;
  changed(collection: RecordChange['collection'], id: string): void;
  /** A result reached this desk: "last sync" moves. */
  succeeded(): void;
}

export interface PendingPolls {
  /** A record just sent (or spawned) whose answer is to be polled, due now. */
  add(task: Pick<PollTask, 'collection' | 'localId' | 'remoteId' | 'localCardId' | 'upstream'>): void;
  /** Once per upstream: the records a previous run left pending that this service owes. */
  load(upstream: string): void;
  /** Due by `now` and not `busy` (in flight), soonest first. */
  due(now: number, busy: (key: string) => boolean): PollTask[];
  /** The soonest due time among polls not `busy`. */
  nextDueAt(busy: (key: string) => boolean): number | null;
  /** Back online: every poll goes now, not at its backoff. */
  makeAllDue(): void;
  /**
   * A new upstream: polls of the previous one end (an answer still on its way is dropped);
   * what it owed is sent to the new one (send-again.ts) and polled there.
   */
  reset(): void;
  poll(service: V1Service, task: PollTask): Promise<void>;
}

export const pollKey = (task: Pick<PollTask, 'collection' | 'localId'>) => `poll:${task.collection}:${task.localId}`;

export function createPendingPolls(deps: PendingPollsDeps): PendingPolls {
  const { db, clock, policy, random, log, health } = deps;
  let polls = new Map<string, PollTask>();
  let loaded = false;
  // Bumped by reset: a poll begun before a switch of service writes nothing after it.
  let generation = 0;
  const nowMs = () => clock.now().getTime();

  function add(task: Pick<PollTask, 'collection' | 'localId' | 'remoteId' | 'localCardId' | 'upstream'>): void {
    polls.set(pollKey(task), { ...task, failures: 0, dueAt: nowMs() });
  }

  async function poll(service: V1Service, task: PollTask): Promise<void> {
    const key = pollKey(task);
    const began = generation;
    const current = () => deps.alive() && began === generation;
    try {
      const remote = (await service.get(task.collection, task.remoteId)) as Extraction | Discovery | Check;
      if (!current()) return;
      health.heard();
      if (remote.status === 'pending') {
        task.failures += 1;
        task.dueAt = nowMs() + equalJitterMs(policy.poll, task.failures, random);
        return;
      }
      // Follow-ups are read before anything is written, then stored in one transaction with
      // the result: a crash in between leaves the record pending, to be polled again.
      const spawned =
        task.collection === 'electronic_eligibility_discoveries' && remote.status === 'success'
          ? await spawnedChecks(service, remote.id, remote.created_at, policy.clockSkewMs)
          : [];
      const cardRemote = cardRemoteId(db, task.upstream, task.localCardId);
      const card = cardRemote && remote.status === 'success' && task.collection !== 'extractions' ? await service.get('insurance_cards', cardRemote) : null;
      if (!current()) return;
      const stored = inTransaction(db, () => {
        applyTerminal(db, task.collection, task.localId, remote);
        if (card) applyCardFacts(db, task.localCardId, card);
        return storeSpawnedChecks(db, deps.ids, task.upstream, { localDiscoveryId: task.localId, localCardId: task.localCardId }, spawned);
      });
      polls.delete(key);
      deps.succeeded();
      log('sync.polled', { collection: task.collection, id: task.localId, status: remote.status, spawned: stored.length });
      for (const check of stored) {
        if (check.pending) add({ collection: 'electronic_eligibility_checks', localId: check.id, remoteId: check.remote_id, localCardId: task.localCardId, upstream: task.upstream });
        deps.changed('electronic_eligibility_checks', check.id);
      }
      deps.changed(task.collection, task.localId);
      if (card) deps.changed('insurance_cards', task.localCardId);
    } catch (failure) {
      if (!current()) return;
      const kind = classifyFailure(failure);
      health.learnFrom(kind);
      if (kind.error.status === 404) {
        // The service that gave the id no longer knows it: nothing to wait for.
        polls.delete(key);
        log('sync.poll_gone', { collection: task.collection, id: task.localId });
        return;
      }
      task.failures += 1;
      task.dueAt = nowMs() + retryDelayMs({ ...policy.poll, maxRetryAfterMs: policy.send.maxRetryAfterMs }, task.failures, random, kind.retryAfterSeconds);
      log('sync.poll_failed', { collection: task.collection, id: task.localId, kind: kind.kind, status: kind.error.status });
    }
  }

  return {
    add,
    load(upstream) {
      if (loaded) return;
      loaded = true;
      for (const p of pendingRemoteRecords(db, upstream)) add({ collection: p.collection, localId: p.id, remoteId: p.remote_id, localCardId: p.insurance_card_id, upstream });
    },
    due(now, busy) {
      return [...polls.values()].filter((t) => t.dueAt <= now && !busy(pollKey(t))).sort((a, b) => a.dueAt - b.dueAt);
    },
    nextDueAt(busy) {
      let soonest: number | null = null;
      for (const task of polls.values()) if (!busy(pollKey(task)) && (soonest === null || task.dueAt < soonest)) soonest = task.dueAt;
      return soonest;
    },
    makeAllDue() {
      const now = nowMs();
      for (const task of polls.values()) task.dueAt = Math.min(task.dueAt, now);
    },
    reset() {
      polls = new Map();
      loaded = false;
      generation += 1;
    },
    poll,
  };
}
