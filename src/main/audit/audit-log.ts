import os from 'node:os';
import { AuditRecordId, type AuditAction, type AuditEntry, type AuditVerification } from '../../shared/bridge/security-contract';
import { toTimestamp } from '../../shared/contract';
import { parseOrThrow } from '../../shared/service-error';
import type { Db } from '../db/open-database';
import type { Clock } from '../support/clock';
import { currentActor } from '../support/audit-actor';
import { prepareChainHead, sealAuditEntry, verifyAuditChain } from './audit-chain';

export interface AuditLog {
  /**
   * Appends one entry. The record id must be an id or object key: never free text, never PHI.
   * `actor` is for work finished away from its request (a create committed with its group):
   * it defaults to the work in progress's (`actingAs`), else the log's own.
   */
  append(action: AuditAction, recordId: string, actor?: string): AuditEntry;
  /**
   * One entry per id, in order, chained as that many appends would be (each its own entry
   * and seal), with the chain's head read once: a bootstrap page audits a hundred records.
   * Every id is checked before anything is written.
   */
  appendAll(action: AuditAction, recordIds: readonly string[], actor?: string): AuditEntry[];
  /** Newest first, `limit` entries below `before` (a seq). */
  list(input: { limit: number; before?: number }): { data: AuditEntry[]; next_before: number | null };
  /** Checks the whole chain: intact, or the first entry changed, removed or inserted. */
  verify(): AuditVerification;
}

/** The workstation's user as the operating system knows it: the "who" of every entry. */
export function workstationUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    // A uid with no passwd entry (some containers): still say who, by number.
    return `uid:${process.getuid?.() ?? 'unknown'}`;
  }
}

/**
 * The append-only audit log (table `audit_log`; its triggers refuse UPDATE and DELETE, so
 * not even a bug here could rewrite history), each entry sealed into the chain
 * (`audit-chain.ts`). This is the one place entries are written, whatever the path (desk,
 * local API, batch, sync), so every entry is chained the same way. `key` is the chain's key
 * (`auditChainKey` of the database key).
 */
export function createAuditLog(deps: { db: Db; clock: Clock; actor: string | (() => string); key: Buffer }): AuditLog {
  // A function when the actor changes (the signed-in person, issue 28); read at each entry.
  const ownActor = typeof deps.actor === 'string' ? () => deps.actor as string : deps.actor;
  const sqlite = deps.db.$client;
  const insert = sqlite.prepare('INSERT INTO audit_log (seq, at, actor, action, record_id, hash) VALUES (?, ?, ?, ?, ?, ?)');
  const page = sqlite.prepare('SELECT seq, at, actor, action, record_id FROM audit_log WHERE seq < ? ORDER BY seq DESC LIMIT ?');
  const chainHead = prepareChainHead(sqlite);
  const write = (entry: AuditEntry): AuditEntry => {
    // Reading the head and writing the entry must be one transaction: two entries chained
    // from the same head would break the chain. Inside the caller's transaction (a create's),
    // it simply joins it: no savepoint on the hot path.
    const { seq, previous } = chainHead();
    const sealed = { ...entry, seq };
    insert.run(seq, sealed.at, sealed.actor, sealed.action, sealed.record_id, sealAuditEntry(deps.key, previous, sealed));
    return sealed;
  };
  const writeAlone = sqlite.transaction(write);
  const writeAll = (entries: AuditEntry[]): AuditEntry[] => {
    let { seq, previous } = chainHead();
    return entries.map((entry) => {
      const sealed = { ...entry, seq: seq++ };
      previous = sealAuditEntry(deps.key, previous, sealed);
      insert.run(sealed.seq, sealed.at, sealed.actor, sealed.action, sealed.record_id, previous);
      return sealed;
    });
  };
  const writeAllAlone = sqlite.transaction(writeAll);
  return {
    append(action, recordId, actor) {
      const id = parseOrThrow(AuditRecordId, recordId);
      const entry = { seq: 0, at: toTimestamp(deps.clock.now()), actor: actor ?? currentActor() ?? ownActor(), action, record_id: id };
      return sqlite.inTransaction ? write(entry) : writeAlone(entry);
    },
    appendAll(action, recordIds, actor) {
      const ids = recordIds.map((recordId) => parseOrThrow(AuditRecordId, recordId));
      const at = toTimestamp(deps.clock.now());
      const who = actor ?? currentActor() ?? ownActor();
      const entries = ids.map((record_id) => ({ seq: 0, at, actor: who, action, record_id }));
      if (entries.length === 0) return [];
      return sqlite.inTransaction ? writeAll(entries) : writeAllAlone(entries);
    },
    list({ limit, before }) {
      const rows = page.all(before ?? Number.MAX_SAFE_INTEGER, limit + 1) as AuditEntry[];
      const data = rows.slice(0, limit);
      return { data, next_before: rows.length > limit ? data[data.length - 1].seq : null };
    },
    verify: () => verifyAuditChain(sqlite, deps.key),
  };
}
