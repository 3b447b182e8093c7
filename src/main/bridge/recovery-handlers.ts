import type { DeskRecovery } from '../security/desk-recovery';
import type { HandlersFor } from './handlers';

/** The recovery code on a running desk (security/desk-recovery.ts). */
export function recoveryHandlers({ recovery }: { recovery: DeskRecovery }): HandlersFor<'recovery.status' | 'recovery.setup' | 'recovery.newSheet' | 'recovery.emergencyAccess'> {
  return {
    'recovery.status': async () => recovery.status(),
    'recovery.setup': async () => recovery.setup(),
    'recovery.newSheet': async () => recovery.newSheet(),
    'recovery.emergencyAccess': async (input) => recovery.emergencyAccess(input),
  };
}
