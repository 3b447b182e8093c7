import type { AuditAction } from '../../shared/bridge/security-contract';
import type { BridgeMethod } from '../../shared/bridge/contract';
import type { AuditLog } from './audit-log';

interface AuditRule {
  action: Extract<AuditAction, 'view' | 'create'>;
  recordId(input: unknown, output: unknown): string;
}

const viewedId: AuditRule = { action: 'view', recordId: (input) => (input as { id: string }).id };

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
    audited[method] = async (input) => {
      const output = await inner(input);
      audit.append(rule.action, rule.recordId(input, output));
      return output;
    };
  }
  return audited as unknown as H;
}
