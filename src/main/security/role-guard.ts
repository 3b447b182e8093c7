import type { BridgeMethod } from '../../shared/bridge/contract';
import { mayCall, METHOD_ROLES, notAllowedMessage } from '../../shared/bridge/method-roles';
import { ServiceError } from '../../shared/service-error';
import type { AuditLog } from '../audit/audit-log';
import { refusedSubject, type StaffAccounts } from './staff-accounts';

/** Any map of bridge handlers; typed here, not imported from bridge/, so security/ stays below bridge/. */
type SomeBridgeHandlers = { [M in BridgeMethod]?: (input: never) => Promise<unknown> };

/**
 * The bridge handlers behind the staff roles (issue 28, item 2): once the desk has staff, a call
 * needs someone signed in, and a manager's method refuses a front-desk person (audited, naming
 * them), whatever the page shows or hides; someone signed in with a PIN a manager set may only
 * choose their own. Before the first manager exists the desk works as it did (the first-start
 * screen makes them).
 */
export function withStaffRoles<H extends SomeBridgeHandlers>(handlers: H, deps: { staff: Pick<StaffAccounts, 'hasStaff' | 'current' | 'mustChoosePin'>; audit: AuditLog }): H {
  const guarded: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const [method, inner] of Object.entries(handlers) as [BridgeMethod, (input: unknown) => Promise<unknown>][]) {
    guarded[method] =
      METHOD_ROLES[method] === 'anyone'
        ? inner
        : async (input) => {
            if (!deps.staff.hasStaff()) return inner(input);
            const person = deps.staff.current();
            if (person === null) throw new ServiceError('sign_in_required', 'Sign in to continue.', undefined, { status: 401, type: 'authentication_error' });
            // A PIN a manager set is known to them: the person's own comes first, whatever the page does.
            if (method !== 'staff.choosePin' && deps.staff.mustChoosePin()) {
              throw new ServiceError('choose_pin_required', 'Choose your own PIN first: the one you signed in with was set by a manager.', undefined, { status: 403, type: 'permission_error' });
            }
            if (!mayCall(person.role, method)) {
              deps.audit.append('not_allowed', refusedSubject(method));
              throw new ServiceError('not_allowed', notAllowedMessage(method), undefined, { status: 403, type: 'permission_error' });
            }
            return inner(input);
          };
  }
  return guarded as unknown as H;
}
