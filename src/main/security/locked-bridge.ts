import type { BridgeMethod } from '../../shared/bridge/contract';
import { ServiceError } from '../../shared/service-error';
import type { WorkstationLock } from './workstation-lock';

/**
 * What a locked desk may still call: the lock itself, and what the lock screen shows
 * (whether the service is reachable, the idle minutes). Nothing here returns PHI.
 */
export const OPEN_WHILE_LOCKED: readonly BridgeMethod[] = [
  'lock.status',
  'lock.engage',
  'lock.unlock',
  'lock.unlockWithSystem',
  'sync.status',
  'idleLock.get',
  // The manager is away or forgot the PIN: the recovery sheet is the way in (issue 28, item 5).
  'recovery.emergencyAccess',
  // A desk with the old single PIN makes its first manager from the lock screen (proving that PIN).
  'staff.session',
  'staff.setup',
];

/** Any map of bridge handlers; typed here, not imported from bridge/, so security/ stays below bridge/. */
type SomeBridgeHandlers = { [M in BridgeMethod]?: (input: never) => Promise<unknown> };

/**
 * The bridge handlers behind the workstation lock: while the host is locked (a PIN is set
 * and the desk went idle, or the OS locked), every other call is refused, so a page that
 * hides its lock screen still gets no patient data.
 */
export function withWorkstationLock<H extends SomeBridgeHandlers>(handlers: H, lock: Pick<WorkstationLock, 'isLocked'>): H {
  const guarded: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const [method, inner] of Object.entries(handlers) as [BridgeMethod, (input: unknown) => Promise<unknown>][]) {
    guarded[method] = OPEN_WHILE_LOCKED.includes(method)
      ? inner
      : async (input) => {
          if (lock.isLocked()) throw new ServiceError('workstation_locked', 'Coverdesk is locked. Enter the PIN to continue.', undefined, { status: 423, type: 'permission_error' });
          return inner(input);
        };
  }
  return guarded as unknown as H;
}
