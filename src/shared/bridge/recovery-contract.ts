import { z } from 'zod';
import { Timestamp } from '../contract/common';

/**
 * The recovery code's bridge shapes (issue 28, item 5): the sheet shown once, the desk's
 * code status, and emergency access. The code travels only in a sheet (once, when made) and
 * in what a person types; it is never stored or logged.
 */

/** What a person typed from the sheet: spaces, dashes and case do not matter. */
export const RecoveryCodeInput = z.strictObject({ code: z.string().min(1).max(100) });

export const RecoveryStatus = z.object({
  /** When the desk's current code was made; null: this desk has none yet. */
  made_at: Timestamp.nullable(),
  /** When it was used (emergency access, a lost key, a restore): a used code works no more. */
  used_at: Timestamp.nullable(),
});
export type RecoveryStatus = z.infer<typeof RecoveryStatus>;

/** The printable recovery sheet: everything on it, shown once. */
export const RecoverySheet = z.object({
  code: z.string(),
  made_at: Timestamp,
  practice_name: z.string().nullable(),
  desk: z.string(),
});
export type RecoverySheet = z.infer<typeof RecoverySheet>;

export const EmergencyAccessGranted = z.object({ granted: z.literal(true), at: Timestamp });

/** What the sheet tells whoever keeps it: one text for the screen and the print. */
export const RECOVERY_SHEET_INSTRUCTIONS = [
  'Keep this sheet locked away, apart from the computer (a safe, the practice manager’s file). Anyone with the code and this computer can open the desk’s records.',
  'Use it when the manager is away or has forgotten the PIN (emergency access, once), when Coverdesk says its encryption key is no longer in this computer’s key store (after a password reset), or to move the desk to a new computer with a backup.',
  'The code works once. After using it, print the new sheet Coverdesk offers and destroy this one. Printing a new sheet makes this one stop working.',
];
