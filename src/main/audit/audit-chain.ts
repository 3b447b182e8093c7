import { createHmac, hkdfSync } from 'node:crypto';
import type { AuditVerification } from '../../shared/bridge/security-contract';
import type { Db } from '../db/open-database';

// The two SQLite bindings (the host's Drizzle client, a raw cipher connection) share this much.
type SqliteHandle = Pick<Db['$client'], 'prepare' | 'transaction'>;

/**
 * The audit log's chain of seals (issue 28): each entry carries an HMAC-SHA256 over its own
 * content and the previous entry's seal, so an entry changed, removed or slipped in after
 * the fact breaks the chain where it happened. The key is derived from the database key: who
 * can read the log can check it, and nobody without the key can forge a seal.
 */

/** HKDF's `info`: a seal key is good for this chain only, never for the database or the photos. */
const AUDIT_KEY_LABEL = 'coverdesk audit chain v1';

export function auditChainKey(databaseKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', databaseKey, Buffer.alloc(0), AUDIT_KEY_LABEL, 32));
}

export interface SealedContent {
  seq: number;
  at: string;
  actor: string;
  action: string;
  record_id: string;
}

/**
 * The seal of one entry. The seq is sealed too, so renumbering entries to close a gap is a
 * change; JSON keeps field boundaries unambiguous (an actor ending in a record id's prefix
 * cannot shift text between fields).
 */
export function sealAuditEntry(key: Buffer, previous: string, entry: SealedContent): string {
  return createHmac('sha256', key)
    .update(previous)
    .update('\n')
    .update(JSON.stringify([entry.seq, entry.at, entry.actor, entry.action, entry.record_id]))
    .digest('hex');
}

interface ChainRow extends SealedContent {
  hash: string | null;
}

const LAST_SEALED = `SELECT (SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1) AS hash,
  (SELECT seq FROM sqlite_sequence WHERE name = 'audit_log') AS top`;

/**
 * Where the next entry goes: its seq (the one AUTOINCREMENT would give, taken from
 * `sqlite_sequence` so a removed last entry leaves a gap, never a reused number) and the seal
 * it chains from. Read in the caller's transaction.
 */
export function prepareChainHead(sqlite: SqliteHandle): () => { seq: number; previous: string } {
  const head = sqlite.prepare(LAST_SEALED);
  return () => {
    const row = head.get() as { hash: string | null; top: number | null };
    return { seq: (row.top ?? 0) + 1, previous: row.hash ?? '' };
  };
}

/**
 * The checkpoint: entries written before the chain existed are sealed once, in order, at the
 * first start after the migration, so verification covers them from then on. Only while no
 * entry is sealed yet: a bare entry after the chain began was written around Coverdesk, and
 * sealing it would launder it. Returns how many were sealed.
 */
export function sealEntriesFromBeforeTheChain(sqlite: SqliteHandle, key: Buffer): number {
  return sqlite.transaction(() => {
    if (sqlite.prepare('SELECT 1 FROM audit_log WHERE hash IS NOT NULL LIMIT 1').get()) return 0;
    const rows = sqlite.prepare('SELECT seq, at, actor, action, record_id FROM audit_log ORDER BY seq').all() as SealedContent[];
    const seal = sqlite.prepare('UPDATE audit_log SET hash = ? WHERE seq = ?');
    let previous = '';
    for (const row of rows) {
      previous = sealAuditEntry(key, previous, row);
      seal.run(previous, row.seq);
    }
    return rows.length;
  })();
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** What still stands: the entries before the break (`them`: more than one entry went). */
function intactBefore(n: number, them = false): string {
  const it = them ? 'them' : 'it';
  if (n === 0) return '';
  return n === 1 ? ` The entry before ${it} is intact.` : ` The ${plural(n, 'entry', 'entries')} before ${it} are intact.`;
}

function broken(count: number, problem: 'changed' | 'removed' | 'inserted', seq: number, position: number, message: string): AuditVerification {
  return { intact: false, count, problem, seq, position, message };
}

/**
 * Walks the log oldest first, one entry ahead (to tell a changed entry from one slipped in),
 * and stops at the first entry that breaks the chain. The seqs are contiguous (the log is
 * append-only and AUTOINCREMENT never reuses a number), so a gap is an entry removed, and
 * `sqlite_sequence` remembers the last number handed out, so removing the newest entries
 * shows too.
 */
export function verifyAuditChain(sqlite: SqliteHandle, key: Buffer): AuditVerification {
  const rows = sqlite.prepare('SELECT seq, at, actor, action, record_id, hash FROM audit_log ORDER BY seq').iterate() as IterableIterator<ChainRow>;
  let previous = '';
  let previousSeq = 0;
  let position = 0;
  let step = rows.next();
  try {
    while (!step.done) {
      const row = step.value;
      const ahead = rows.next();
      const next = ahead.done ? null : ahead.value;
      position += 1;
      if (row.seq !== previousSeq + 1) {
        const missing = row.seq - previousSeq - 1;
        return broken(
          position - 1,
          'removed',
          previousSeq + 1,
          position,
          `Not intact: ${missing === 1 ? `entry #${previousSeq + 1} was` : `entries #${previousSeq + 1} to #${row.seq - 1} were`} removed ` +
            `(position ${position} in the log, just before entry #${row.seq}).${intactBefore(position - 1)}`,
        );
      }
      if (row.hash === null) {
        return broken(position - 1, 'inserted', row.seq, position, `Not intact: entry #${row.seq} (position ${position} in the log) was added outside Coverdesk: it carries no seal.${intactBefore(position - 1)}`);
      }
      if (row.hash !== sealAuditEntry(key, previous, row)) {
        // The next entry chains from the entry before this one (numbered one lower, if the
        // entries after were renumbered to make room): this one was slipped in between.
        if (next?.hash && (next.hash === sealAuditEntry(key, previous, next) || next.hash === sealAuditEntry(key, previous, { ...next, seq: next.seq - 1 }))) {
          return broken(position - 1, 'inserted', row.seq, position, `Not intact: entry #${row.seq} (position ${position} in the log) was inserted: the entries around it were chained without it.`);
        }
        const tail = next === null ? ' (or, as it is the newest entry, added outside Coverdesk)' : '';
        return broken(
          position - 1,
          'changed',
          row.seq,
          position,
          `Not intact: entry #${row.seq} (position ${position} in the log) was changed after it was written${tail}: it no longer matches its seal.${intactBefore(position - 1)}`,
        );
      }
      previous = row.hash;
      previousSeq = row.seq;
      step = ahead;
    }
  } finally {
    rows.return?.();
  }
  const top = (sqlite.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'").get() as { seq: number } | undefined)?.seq ?? 0;
  if (top > previousSeq) {
    const first = previousSeq + 1;
    return broken(
      position,
      'removed',
      first,
      position + 1,
      `Not intact: the newest ${top === first ? `entry (#${first}) was` : `entries (#${first} to #${top}) were`} removed (position ${position + 1} in the log onwards).${intactBefore(position, top !== first)}`,
    );
  }
  return { intact: true, count: position, message: `Intact: all ${plural(position, 'entry', 'entries')} match their seals, in order, none missing.` };
}
