import { z } from 'zod';
import { ID_PREFIX, prefixedId, Timestamp } from '../contract/common';
import { ObjectKey } from '../contract/photo';

export { IDLE_LOCK_DEFAULT_MINUTES, pinWaitSentence, pinWaitText, spokenWait } from './lock-words';

/**
 * Shapes of the session-safety methods: the audit log the privacy officer reads in
 * Settings, and the idle lock that hides PHI from passers-by.
 */

/** `receive`: a record another desk or the practice made arrived through the changes feed (not seen by anyone yet). */
export const AuditAction = z.enum(['view', 'create', 'print', 'export', 'receive', 'correct', 'revoke', 'lock', 'unlock', 'unlock_refused', 'change', 'emergency_access', 'recovery_sheet', 'sign_in', 'sign_in_refused', 'sign_out', 'not_allowed', 'staff_added', 'staff_changed', 'time_out']);
export type AuditAction = z.infer<typeof AuditAction>;

/** Each action as the Audit screen and its CSV say it: one list for both. */
export const AUDIT_ACTION_WORDS: Record<AuditAction, string> = {
  view: 'Viewed',
  create: 'Created',
  print: 'Printed',
  export: 'Exported',
  receive: 'Received from the practice',
  correct: 'Corrected',
  revoke: 'Revoked',
  lock: 'Locked the desk',
  unlock: 'Unlocked the desk',
  unlock_refused: 'Unlock refused (wrong PIN or waiting)',
  change: 'Changed a setting',
  emergency_access: 'Emergency access with the recovery code',
  recovery_sheet: 'Made a new recovery sheet',
  sign_in: 'Signed in',
  sign_in_refused: 'Sign-in refused (wrong PIN, waiting or disabled)',
  sign_out: 'Signed out',
  not_allowed: 'Refused: needs a manager',
  staff_added: 'Added a staff member',
  staff_changed: 'Changed a staff member (name, role, disabled)',
  time_out: 'Signed out by the idle time-out',
};

const AUDITED_PREFIXES = [
  ID_PREFIX.patient,
  ID_PREFIX.insurance_card,
  ID_PREFIX.extraction,
  ID_PREFIX.electronic_eligibility_discovery,
  ID_PREFIX.electronic_eligibility_check,
  ID_PREFIX.inbox_item,
  ID_PREFIX.integration,
  ID_PREFIX.good_faith_estimate,
  ID_PREFIX.collection,
  ID_PREFIX.staff,
];

/**
 * What an audit entry may point at: a record id Coverdesk minted, or a photo's object key.
 * Never free text, so no PHI can reach the log through it.
 */
export const AuditRecordId = z.union([
  z.string().regex(new RegExp(`^(${AUDITED_PREFIXES.join('|')})_[0-9A-HJKMNP-TV-Z]{26}$`), 'must be a Coverdesk record id'),
  ObjectKey,
  // The desk itself (`desk:lock`) or one of its settings by its key (`setting:api_key`):
  // names from the code, never a value.
  z.string().regex(/^(desk|setting):[a-z_]{1,64}$/, 'must be a desk subject'),
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

/**
 * The audit screen's rows: one per thing a person did, not one per record read. Entries in
 * a row share who, what and whose record, in a run with no more than a few minutes between
 * them (opening one patient reads the patient, the card, its photos and the checks: one
 * "Viewed" row). `patient_name` and `records` are resolved when read; the log itself holds
 * ids only.
 */
export const AuditRow = z.object({
  /** The newest entry's seq: stable, and where the next page continues below. */
  seq: z.number().int().positive(),
  first_at: Timestamp,
  last_at: Timestamp,
  actor: z.string(),
  action: AuditAction,
  /** Whose record; null when it is not a patient's (or no longer on this computer). */
  patient_id: z.string().nullable(),
  patient_name: z.string().nullable(),
  /** Plain words for the kinds touched, e.g. "patient, insurance card, 2 card photos". */
  records: z.string(),
  /** How many log entries this row stands for. */
  entries: z.number().int().positive(),
  record_ids: z.array(z.string()),
});
export type AuditRow = z.infer<typeof AuditRow>;

export const AuditFilter = z.strictObject({
  action: AuditAction.optional(),
  actor: z.string().trim().min(1).max(200).optional(),
  /** Part of the patient's name, any case. */
  patient: z.string().trim().min(1).max(100).optional(),
  /** Inclusive bounds on when it happened. */
  from: Timestamp.optional(),
  to: Timestamp.optional(),
});
export type AuditFilter = z.infer<typeof AuditFilter>;

export const AuditSearchInput = AuditFilter.extend({
  limit: z.number().int().min(1).max(500).default(100),
  before: z.number().int().positive().optional(),
});
export const AuditRows = z.object({ data: z.array(AuditRow), next_before: z.number().int().positive().nullable(), actors: z.array(z.string()) });
export type AuditRows = z.infer<typeof AuditRows>;
/** The filtered rows as a CSV file the privacy officer saves. */
export const AuditExport = z.object({ filename: z.string(), content_type: z.literal('text/csv'), csv: z.string(), rows: z.number().int().min(0) });
export type AuditExport = z.infer<typeof AuditExport>;

/** Views and creates are recorded by the host itself; printing and exporting happen in the UI. */
export const AuditRecordInput = z.strictObject({ action: z.enum(['print', 'export']), record_id: AuditRecordId });

const IdleMinutes = z.number().int().min(1).max(60);
/**
 * `minutes`: the desk's idle limit (no one signed in, or a desk without staff). `by_role`: each
 * role's own limit once staff sign in (issue 28, item 2), the desk's minutes until a manager sets it.
 */
export const IdleLockSettings = z.object({ minutes: IdleMinutes, by_role: z.object({ front_desk: IdleMinutes, manager: IdleMinutes }) });
export type IdleLockSettings = z.infer<typeof IdleLockSettings>;
export const IdleLockUpdate = z
  .strictObject({ minutes: IdleMinutes.optional(), by_role: z.strictObject({ front_desk: IdleMinutes.optional(), manager: IdleMinutes.optional() }).optional() })
  .refine((value) => value.minutes !== undefined || value.by_role !== undefined, { message: 'minutes or by_role is required', path: ['minutes'] });
export type IdleLockUpdate = z.infer<typeof IdleLockUpdate>;
/** Why the page locks: `idle` is the time-out (audited as one, signing the person out). */
export const LockEngageInput = z.strictObject({ reason: z.enum(['idle', 'manual']).optional() });

/** Pushed when the operating system locks the workstation or goes to sleep: hide PHI at once. */
export const SessionLocked = z.object({ reason: z.enum(['system_lock', 'system_suspend']) });

/**
 * The per-workstation PIN. Without one the idle lock is a privacy screen that one button
 * lifts. With one, locking is the host's state: while locked it answers nothing but the
 * lock's own methods, and it counts wrong PINs itself (the renderer's count is never
 * trusted): a few free tries, then a wait that grows with every further wrong one.
 */
export const Pin = z.string().regex(/^[0-9]{4,12}$/, 'must be 4 to 12 digits');
export const LockStatus = z.object({
  pin_set: z.boolean(),
  locked: z.boolean(),
  /** Wrong PINs may be tried again from then; null when no wait is running. */
  retry_at: Timestamp.nullable(),
  /** Wrong tries left before a wait starts. */
  tries_left: z.number().int().min(0),
  /** The operating system's own check that can unlock instead of the PIN ("Touch ID"), or null. */
  system_unlock: z.string().nullable(),
});
export type LockStatus = z.infer<typeof LockStatus>;

export const LockSetPinInput = z.strictObject({ pin: Pin, current_pin: z.string().max(50).optional() });
export const LockRemovePinInput = z.strictObject({ current_pin: z.string().max(50) });
export const LockUnlockInput = z.strictObject({ pin: z.string().max(50) });

/**
 * A check answered while the desk is on another screen. The host shows the operating
 * system's notification where it has one (the desktop app) and says so; otherwise
 * (`shown: false`, the browser) the page shows its own toast. The notification's words are
 * the host's and name no patient: it may show on a locked screen.
 */
export const NoticeInput = z.strictObject({ kind: z.literal('check_answered'), check_id: prefixedId(ID_PREFIX.electronic_eligibility_check) });
export type NoticeInput = z.infer<typeof NoticeInput>;
export const NoticeShown = z.object({ shown: z.boolean() });

/**
 * What the audit chain's check found (issue 28): every entry sealed and in place, or the
 * first one that is not. `seq` is the entry's number, `position` its place in the log
 * (1 = the oldest); `message` says it in plain words.
 */
export const AuditVerification = z.discriminatedUnion('intact', [
  z.object({ intact: z.literal(true), count: z.number().int().nonnegative(), message: z.string() }),
  z.object({
    intact: z.literal(false),
    count: z.number().int().nonnegative(),
    problem: z.enum(['changed', 'removed', 'inserted']),
    seq: z.number().int().positive(),
    position: z.number().int().positive(),
    message: z.string(),
  }),
]);
export type AuditVerification = z.infer<typeof AuditVerification>;
