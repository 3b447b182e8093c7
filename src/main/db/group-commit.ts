import { transactionRunner, type Db } from './open-database';

/**
 * Group commit: writes that arrive together share one durable COMMIT. With
 * `synchronous = FULL` every commit waits for the disk, and a busy local API or sandbox
 * would spend nearly all its time there; queued in the same turn of the event loop, each
 * write runs in a savepoint of its own inside one transaction, so a write that throws
 * undoes only itself, and every caller is answered after the COMMIT that made its write
 * durable. Nothing is held open across an await: the whole group runs synchronously.
 */
export interface GroupCommit {
  /** Runs `work` in the next group's transaction; resolves once that group is committed. */
  run<T>(work: () => T): Promise<T>;
  /**
   * From now on every write is refused with `error`, before it touches the file: the start-up
   * check found the database damaged (docs/decisions.md, Storage). Writes already queued are
   * refused too; a group already committed stays.
   */
  refuseWrites(error: Error): void;
  /** Throws the refusal, if writes are refused: for work done before `run` (a photo's file). */
  assertWritable(): void;
}

interface Pending {
  work: () => unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A group this large is committed at once; the rest waits for the next turn. */
const MAX_GROUP = 256;

const byConnection = new WeakMap<object, GroupCommit>();

/**
 * The one group committer of a connection: the create path and the idempotency store must
 * share it, so a request's claim, record and answer can land in the same commit.
 */
export function groupCommitFor(db: Db): GroupCommit {
  let group = byConnection.get(db.$client);
  if (!group) {
    group = createGroupCommit(db);
    byConnection.set(db.$client, group);
  }
  return group;
}

export interface GroupCommitOptions {
  /** Milliseconds, monotonic: when a group waits, and how long a COMMIT takes (tests step it, so the wait does not hang on the machine's load). */
  now?: () => number;
}

export function createGroupCommit(db: Db, options: GroupCommitOptions = {}): GroupCommit {
  const now = options.now ?? (() => performance.now());
  const sqlite = db.$client;
  const inTransaction = transactionRunner(sqlite);
  let queue: Pending[] = [];
  let scheduled = false;
  // The group is what queued while the previous commit ran. Writers that keep a few
  // requests in flight (a scanner, the bench's 8) split into cohorts that commit
  // alternately: one commits while the other is on its way, and a cohort of 1 pays a whole
  // COMMIT for itself. So while writers are busy (the group's first write came within two
  // COMMITs' time of the last commit), a group smaller than the writers lately seen together
  // waits for the rest, never longer than the COMMIT it may save; the cohorts merge. The
  // wait is one timer for that COMMIT's time, cut short by the arrival that completes the
  // group: re-checking every turn of the event loop ran `ready` ~300 times a group and spun
  // the loop while the thread had nothing to do (docs/decisions.md, Local API). A wait that runs out means fewer writers may be
  // about: the next waits for fewer. A write after a quiet spell is alone: it goes at once.
  let expected = 1;
  let commitMs = 0;
  let committedAt = -Infinity;
  let waitingSince: number | null = null;
  let waitTimer: ReturnType<typeof setTimeout> | null = null;
  let refusal: Error | null = null;

  function ready(timedOut = false): void {
    scheduled = false;
    if (waitTimer !== null) {
      clearTimeout(waitTimer);
      waitTimer = null;
    }
    if (refusal) {
      const refused = queue;
      queue = [];
      for (const item of refused) item.reject(refusal);
      return;
    }
    const at = now();
    if (waitingSince === null) {
      waitingSince = at;
      // Nobody is mid-cycle: whoever was writing together has gone quiet.
      if (at - committedAt > 2 * commitMs) expected = 1;
    }
    const short = queue.length < expected;
    const left = commitMs - (at - waitingSince);
    // A wait whose timer ran out is over, whatever fraction of a millisecond is left.
    if (short && left > 0 && !timedOut) {
      // Timers count whole milliseconds: rounded, the wait ends as near its due as they allow.
      waitTimer = setTimeout(waitedOut, Math.max(1, Math.round(left)));
      return;
    }
    waitingSince = null;
    flush(short);
  }

  function waitedOut(): void {
    waitTimer = null;
    ready(true);
  }

  function flush(waitedOut: boolean): void {
    const group = queue.slice(0, MAX_GROUP);
    // Lowered a quarter, not to what came: one late client must not split the writers into
    // cohorts again (halving would let two halves each meet it).
    expected = waitedOut ? Math.max(group.length, expected - Math.ceil(expected / 4)) : Math.max(expected, group.length);
    let written = 0;
    queue = queue.slice(group.length);
    if (queue.length > 0) schedule();
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    let rolledBack = false;
    try {
      inTransaction(() => {
        for (const item of group) {
          try {
            // A nested transaction is a savepoint: a throw rolls back this write alone.
            outcomes.push({ ok: true, value: inTransaction(item.work) });
          } catch (error) {
            outcomes.push({ ok: false, error });
            // Some failures (SQLITE_FULL, I/O errors, RAISE(ROLLBACK)) end the whole
            // transaction, not the savepoint: the writes before are gone, and a write run
            // now would commit on its own while its caller is told it failed.
            if (!sqlite.inTransaction) {
              rolledBack = true;
              throw error;
            }
          }
        }
        written = now();
      });
    } catch (error) {
      if (!rolledBack) {
        // The COMMIT itself failed (disk full, I/O error): nothing of the group is durable.
        for (const item of group) item.reject(error);
        return;
      }
      const ran = outcomes.length;
      const undone = new Error('The database rolled back the transaction this write shared; nothing of it was stored.', { cause: error });
      group.slice(0, ran).forEach((item, i) => {
        const outcome = outcomes[i];
        item.reject(outcome.ok ? undone : outcome.error);
      });
      // The writes after the culprit never ran: they go first in the next group.
      queue = [...group.slice(ran), ...queue];
      if (queue.length > 0) schedule();
      return;
    }
    // The COMMIT alone (what a merged cohort saves), as a moving average: one slow fsync (a
    // checkpoint) does not make every group wait longer.
    committedAt = now();
    const committing = committedAt - written;
    commitMs = commitMs === 0 ? committing : commitMs * 0.8 + committing * 0.2;
    group.forEach((item, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    // setImmediate runs after the I/O callbacks of this turn: requests parsed together
    // are grouped together.
    setImmediate(ready);
  }

  return {
    run<T>(work: () => T): Promise<T> {
      if (refusal) return Promise.reject(refusal);
      return new Promise<T>((resolve, reject) => {
        queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
        // While a short group waits, only the arrival that completes it wakes the committer
        // (in the next turn, so the rest parsed in this one still join).
        if (waitTimer === null || queue.length >= expected) schedule();
      });
    },
    refuseWrites(error: Error) {
      refusal = error;
      // A group waiting for more is refused now, not when its wait runs out.
      if (queue.length > 0) schedule();
    },
    assertWritable() {
      if (refusal) throw refusal;
    },
  };
}
