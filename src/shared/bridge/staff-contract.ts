import { z } from 'zod';
import { ID_PREFIX, prefixedId, Timestamp } from '../contract/common';
import { STAFF_ROLES } from './staff-role';

export { EMERGENCY_SIGN_IN, STAFF_ROLE_WORDS } from './staff-role';

/**
 * The people who work at a shared desk (issue 28): each signs in with their own PIN or
 * passphrase, so the audit names a person. A *front desk* person does the day's work
 * (intake, checks, discovery, schedule, sync); a *manager* also settings, staff, audit and
 * integrations. What a role may call is `METHOD_ROLES` (method-roles.ts), enforced by the host.
 */
export const StaffRole = z.enum(STAFF_ROLES);
export type StaffRole = z.infer<typeof StaffRole>;

export const StaffId = prefixedId(ID_PREFIX.staff);
export const StaffName = z.string().trim().min(1, 'must not be empty').max(80, 'must be at most 80 characters');

/**
 * A PIN of at least 6 digits, or a passphrase (anything with a non-digit) of at least 10
 * characters. Longer than the lock's 4-digit PIN: each person's PIN now names them in the audit.
 */
export const StaffSecret = z
  .string()
  .max(200, 'must be at most 200 characters')
  .regex(/^(?:[0-9]{6,12}|(?=[\s\S]*[^0-9])[\s\S]{10,200})$/, 'must be a PIN of 6 to 12 digits or a passphrase of at least 10 characters');

export const StaffMember = z.object({
  id: StaffId,
  name: z.string(),
  role: StaffRole,
  created_at: Timestamp,
  disabled_at: Timestamp.nullable(),
});
export type StaffMember = z.infer<typeof StaffMember>;

/** Who is signed in: what the screens and the host's role check go by. */
export const SignedIn = z.object({ id: StaffId, name: z.string(), role: StaffRole });
export type SignedIn = z.infer<typeof SignedIn>;

/**
 * What the sign-in screen needs, answered to anyone (names are not PHI): whether the desk still
 * needs its first manager, the people who may sign in, and who is signed in now.
 */
export const StaffSession = z.object({
  /** No staff yet: the one first-start screen asks the manager's name and PIN. */
  setup_needed: z.boolean(),
  /** The desk had the single lock PIN: the first manager proves it (see docs/decisions.md). */
  lock_pin_set: z.boolean(),
  signed_in: SignedIn.nullable(),
  /**
   * The signed-in person's PIN was set by a manager (a forgotten one, or after emergency access):
   * the sign-in screen asks them to choose their own (`staff.choosePin`) before the desk opens.
   */
  must_choose_pin: z.boolean(),
  people: z.array(z.object({ id: StaffId, name: z.string() })),
});
export type StaffSession = z.infer<typeof StaffSession>;

/**
 * The first manager. On a desk that already had the single lock PIN, `lock_pin` (that PIN) is
 * required too: whoever makes the first manager of a locked desk must be someone who could
 * unlock it.
 */
export const StaffSetupInput = z.strictObject({ name: StaffName, pin: StaffSecret, lock_pin: z.string().max(50).optional() });
export const StaffSignInInput = z.strictObject({ id: StaffId, pin: z.string().max(200) });
/** The signed-in person's own new PIN, chosen after a manager set one for them. */
export const StaffChoosePinInput = z.strictObject({ pin: StaffSecret });
export const StaffAddInput = z.strictObject({ name: StaffName, role: StaffRole, pin: StaffSecret });
/**
 * A manager's change to one person: any of rename, role, disabled (true) or enabled again
 * (false), and a new PIN (a forgotten one: the person's wrong tries are forgiven with it).
 */
export const StaffUpdateInput = z.strictObject({
  id: StaffId,
  name: StaffName.optional(),
  role: StaffRole.optional(),
  disabled: z.boolean().optional(),
  pin: StaffSecret.optional(),
});

/**
 * The staff file (issue 28, item 7): the list (names, roles, PIN hashes) carried to the
 * practice's other desks, encrypted and sealed with a passphrase the manager types on both
 * desks, the practice id inside. Another practice's file, a tampered one or a wrong
 * passphrase is refused and nothing changes.
 */
export const StaffFilePassphrase = z.string().min(10, 'must be at least 10 characters').max(200, 'must be at most 200 characters');
export const StaffFileExportInput = z.strictObject({ passphrase: StaffFilePassphrase });
export const StaffFile = z.object({ filename: z.string(), data_base64: z.string() });
export type StaffFile = z.infer<typeof StaffFile>;
export const StaffFileImportInput = z.strictObject({ passphrase: z.string().max(200), data_base64: z.base64() });
export const StaffFileImported = z.object({ added: z.number().int().min(0), updated: z.number().int().min(0) });
