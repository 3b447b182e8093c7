import { z } from 'zod';
import { ID_PREFIX, Timestamp } from '../contract/common';
import { ObjectKey } from '../contract/photo';

/**
 * Shapes of the session-safety methods: the audit log the privacy officer reads in
 * Settings, and the idle lock that hides PHI from passers-by.
 */

export const AuditAction = z.enum(['view', 'create', 'print', 'export']);
export type AuditAction = z.infer<typeof AuditAction>;

const AUDITED_PREFIXES = [
  ID_PREFIX.patient,
  ID_PREFIX.insurance_card,
  ID_PREFIX.extraction,
  ID_PREFIX.electronic_eligibility_discovery,
  ID_PREFIX.electronic_eligibility_check,
  ID_PREFIX.inbox_item,
];

/**
 * What an audit entry may point at: a record id Coverdesk minted, or a photo's object key.
 * Never free text, so no PHI can reach the log through it.
 */
export const AuditRecordId = z.union([
  z.string().regex(new RegExp(`^(${AUDITED_PREFIXES.join('|')})_[0-9A-HJKMNP-TV-Z]{26}$`), 'must be a Coverdesk record id'),
  ObjectKey,
]);

export const AuditEntry = z.object({
  seq: z.number().int().positive(),
  at: Timestamp,
  /** The operating-system account signed in at the workstation. */
  actor: z.string(),
  action: AuditAction,
  record_id: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** Newest first; `before` is the `seq` to continue below (the previous page's `next_before`). */
export const AuditListInput = z.strictObject({
  limit: z.number().int().min(1).max(500).default(100),
  before: z.number().int().positive().optional(),
});
export const AuditPage = z.object({ data: z.array(AuditEntry), next_before: z.number().int().positive().nullable() });

/** Views and creates are recorded by the host itself; printing and exporting happen in the UI. */
export const AuditRecordInput = z.strictObject({ action: z.enum(['print', 'export']), record_id: AuditRecordId });

export const IDLE_LOCK_DEFAULT_MINUTES = 5;
export const IdleLockSettings = z.object({ minutes: z.number().int().min(1).max(60) });
export type IdleLockSettings = z.infer<typeof IdleLockSettings>;
export const IdleLockUpdate = z.strictObject({ minutes: IdleLockSettings.shape.minutes });

/** Pushed when the operating system locks the workstation or goes to sleep: hide PHI at once. */
export const SessionLocked = z.object({ reason: z.enum(['system_lock', 'system_suspend']) });
