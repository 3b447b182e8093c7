import type { Db } from './open-database';

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

export function createGroupCommit(db: Db): GroupCommit {
  const sqlite = db.$client;
  let queue: Pending[] = [];
  let scheduled = false;

  function flush(): void {
    scheduled = false;
    const group = queue.slice(0, MAX_GROUP);
    queue = queue.slice(group.length);
    if (queue.length > 0) schedule();
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    let rolledBack = false;
    try {
      sqlite.transaction(() => {
        for (const item of group) {
          try {
            // A nested transaction is a savepoint: a throw rolls back this write alone.
            outcomes.push({ ok: true, value: sqlite.transaction(item.work)() });
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
      })();
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
    setImmediate(flush);
  }

  return {
    run<T>(work: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
        schedule();
      });
    },
  };
}
