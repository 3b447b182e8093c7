import os from 'node:os';
import { AuditRecordId, type AuditAction, type AuditEntry } from '../../shared/bridge/security-contract';
import { toTimestamp } from '../../shared/contract';
import { parseOrThrow } from '../../shared/service-error';
import type { Db } from '../db/open-database';
import type { Clock } from '../support/clock';

export interface AuditLog {
  /** Appends one entry. The record id must be an id or object key: never free text, never PHI. */
  append(action: AuditAction, recordId: string): AuditEntry;
  /** Newest first, `limit` entries below `before` (a seq). */
  list(input: { limit: number; before?: number }): { data: AuditEntry[]; next_before: number | null };
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
 * not even a bug here could rewrite history).
 */
export function createAuditLog(deps: { db: Db; clock: Clock; actor: string }): AuditLog {
  const sqlite = deps.db.$client;
  const insert = sqlite.prepare('INSERT INTO audit_log (at, actor, action, record_id) VALUES (?, ?, ?, ?) RETURNING seq, at, actor, action, record_id');
  const page = sqlite.prepare('SELECT seq, at, actor, action, record_id FROM audit_log WHERE seq < ? ORDER BY seq DESC LIMIT ?');
  return {
    append(action, recordId) {
      const id = parseOrThrow(AuditRecordId, recordId);
      return insert.get(toTimestamp(deps.clock.now()), deps.actor, action, id) as AuditEntry;
    },
    list({ limit, before }) {
      const rows = page.all(before ?? Number.MAX_SAFE_INTEGER, limit + 1) as AuditEntry[];
      const data = rows.slice(0, limit);
      return { data, next_before: rows.length > limit ? data[data.length - 1].seq : null };
    },
  };
}
