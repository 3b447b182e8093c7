import { ID_PREFIX } from '../contract/id-prefix';

// Without zod (staff-contract.ts builds the schemas from these): the page's first screen shows
// the role and the emergency banner, and builds no schema before Today's first paint (issue 31).

export const STAFF_ROLES = ['front_desk', 'manager'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const STAFF_ROLE_WORDS: Record<StaffRole, string> = { front_desk: 'front desk', manager: 'manager' };

/**
 * Who is signed in after emergency access with the recovery code (issue 28, item 5): manager
 * rights for this sign-in only, under a name the audit shows as such; signing out ends them.
 */
export const EMERGENCY_SIGN_IN: { id: string; name: string; role: StaffRole } = {
  id: `${ID_PREFIX.staff}_00000000000000000000000000`,
  name: 'Emergency access (recovery code)',
  role: 'manager',
};
