import type { QueryClient } from '@tanstack/react-query';
import type { BridgeMethod } from '../../../shared/bridge/contract';
import { mayCall } from '../../../shared/bridge/method-roles';
import type { StaffRole, StaffSession } from '../../../shared/bridge/staff-contract';
import { setBridgeData } from '../bridge/query-client';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import type { ScreenName } from '../state/navigation';

/** Who is at the desk (issue 28): the host's answer, read once and shared by the gate, the lock and the header. */
export function useStaffSession() {
  return useBridgeQuery('staff.session', {});
}

/**
 * Whether the desk signs people in: it has staff, or it is asking for its first manager. A desk
 * without staff that was not asked (tests, benches) works as it did before staff existed.
 */
export function signsIn(session: StaffSession | null): boolean {
  return session !== null && (session.setup_needed || session.people.length > 0 || session.signed_in !== null);
}

/** The role whose screens are shown; null: a desk without staff, where everything is open. */
export function viewerRole(session: StaffSession | null): StaffRole | null {
  return signsIn(session) ? (session?.signed_in?.role ?? null) : null;
}

/**
 * The screens a role may not open, each by the bridge method that its work needs, so the one
 * table (method-roles.ts) decides here as it does in the host. Integrations live in Settings.
 */
const SCREEN_NEEDS: Partial<Record<ScreenName, BridgeMethod>> = {
  settings: 'settings.update',
  audit: 'audit.search',
};

export function mayOpen(role: StaffRole | null, screen: ScreenName): boolean {
  const needs = SCREEN_NEEDS[screen];
  return role === null || needs === undefined || mayCall(role, needs);
}

/** What the host answers before anyone signs in: kept when the rest (PHI) is dropped. */
const KEPT_ON_SWITCH: readonly BridgeMethod[] = ['staff.session', 'idleLock.get', 'lock.status', 'sync.status', 'settings.get'];

/**
 * A new session from the host (signed in, out, or switched): stored, and everything the previous
 * person read is dropped from memory, so nothing of theirs is shown to the next.
 */
export function sessionChanged(queries: QueryClient, session: StaffSession): void {
  setBridgeData(queries, 'staff.session', {}, session);
  queries.removeQueries({ predicate: (query) => !KEPT_ON_SWITCH.some((method) => query.queryKey[1] === method) });
}

/**
 * Type-ahead for the sign-in list: the first person whose name, or one of whose names, starts
 * with what was typed (any case). -1: no one.
 */
export function pickByTyping(names: readonly string[], typed: string): number {
  const wanted = typed.trim().toLowerCase();
  if (!wanted) return -1;
  const whole = names.findIndex((name) => name.toLowerCase().startsWith(wanted));
  if (whole >= 0) return whole;
  return names.findIndex((name) => name.toLowerCase().split(/\s+/).some((word) => word.startsWith(wanted)));
}

/**
 * The Switch user shortcut: Ctrl+Shift+L (⌘⇧L on a Mac). Alt+digits are the screens'; Ctrl+Shift+U
 * is Linux's Unicode input, so not that.
 */
export const SWITCH_USER_KEYS = 'Control+Shift+L';
export function isSwitchUserKey(event: Pick<KeyboardEvent, 'ctrlKey' | 'shiftKey' | 'altKey' | 'metaKey' | 'code'>): boolean {
  return (event.ctrlKey || event.metaKey) && event.shiftKey && !event.altKey && event.code === 'KeyL';
}
