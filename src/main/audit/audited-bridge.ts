import type { AuditAction } from '../../shared/bridge/security-contract';
import type { BridgeMethod } from '../../shared/bridge/contract';
import type { AuditLog } from './audit-log';

interface AuditRule {
  action: AuditAction;
  /** The record (or desk subject) the entry names; several give an entry each. */
  recordId(input: unknown, output: unknown): string | string[];
  /** Also audited when the call is refused, as this action (a wrong PIN). */
  refused?: AuditAction;
}

const viewedId: AuditRule = { action: 'view', recordId: (input) => (input as { id: string }).id };
const LOCK = 'desk:lock';
const setting = (key: string): AuditRule => ({ action: 'change', recordId: () => `setting:${key}` });
/** Each setting a save changed, by key (never its value: a service address or key is no one's business here). */
const changedSettings: AuditRule = {
  action: 'change',
  recordId: (input) =>
    Object.entries(input as Record<string, unknown>)
      .filter(([key, value]) => value !== undefined && key !== 'send_waiting_to_new_service')
      .map(([key]) => `setting:${key}`),
};

/**
 * Which desk calls leave an audit entry. Opening one record is a view; lists and searches
 * are not (they refresh every few seconds and would bury the views that matter), and a
 * record opened from a list is audited when it is opened. Creates are not here: the desk
 * creates through `withAuditedCreates`, which writes the entry in the create's own
 * transaction.
 */
export const AUDIT_RULES: Partial<Record<BridgeMethod, AuditRule>> = {
  'photos.upload': { action: 'create', recordId: (_input, output) => (output as { object_key: string }).object_key },

  'patients.get': viewedId,
  'cards.get': viewedId,
  'extractions.get': viewedId,
  'discoveries.get': viewedId,
  'checks.get': viewedId,
  'desk.patient': viewedId,
  'gfe.get': viewedId,
  'photos.read': { action: 'view', recordId: (input) => (input as { object_key: string }).object_key },

  // The desk's own safety and settings (issue 28, item 3): who locked, unlocked, typed a wrong
  // PIN or changed how the desk works, and when.
  // Without a PIN nothing locks, so nothing is audited.
  'lock.engage': { action: 'lock', recordId: (_input, output) => ((output as { locked?: boolean }).locked ? LOCK : []) },
  'lock.unlock': { action: 'unlock', recordId: () => LOCK, refused: 'unlock_refused' },
  'lock.unlockWithSystem': { action: 'unlock', recordId: () => LOCK, refused: 'unlock_refused' },
  'lock.setPin': setting('pin'),
  'lock.removePin': setting('pin'),
  'idleLock.update': setting('idle_lock'),
  'settings.update': changedSettings,
  'appointments.updateSettings': changedSettings,
  'localApi.regenerateToken': setting('local_api_token'),
  'feeSchedule.import': setting('fee_schedule'),
  'feeSchedule.setRow': setting('fee_schedule'),
  'feeSchedule.removeRow': setting('fee_schedule'),
  'feeSchedule.updateFreshness': setting('estimate_freshness'),
};

/**
 * The bridge handlers with the audit trail around them: after a call succeeds, its entry is
 * appended before the answer goes back, so nothing reaches the screen unrecorded.
 */
/** Any map of bridge handlers; typed here, not imported from bridge/, so audit/ stays below bridge/. */
type SomeBridgeHandlers = { [M in BridgeMethod]?: (input: never) => Promise<unknown> };

export function withAuditTrail<H extends SomeBridgeHandlers>(handlers: H, audit: AuditLog): H {
  const audited: Record<string, (input: unknown) => Promise<unknown>> = { ...handlers } as never;
  for (const [method, rule] of Object.entries(AUDIT_RULES) as [BridgeMethod, AuditRule][]) {
    const inner = handlers[method] as ((input: unknown) => Promise<unknown>) | undefined;
    if (!inner) continue;
    const append = (action: AuditAction, ids: string | string[]) => {
      for (const id of typeof ids === 'string' ? [ids] : ids) audit.append(action, id);
    };
    audited[method] = async (input) => {
      let output: unknown;
      try {
        output = await inner(input);
      } catch (error) {
        if (rule.refused) append(rule.refused, rule.recordId(input, undefined));
        throw error;
      }
      append(rule.action, rule.recordId(input, output));
      return output;
    };
  }
  return audited as unknown as H;
}
