import type { DeskRecovery } from '../security/desk-recovery';
import type { HandlersFor } from './handlers';

/** The recovery code on a running desk (security/desk-recovery.ts). */
export function recoveryHandlers({ recovery, onEmergencyAccess }: { recovery: DeskRecovery; onEmergencyAccess?: () => void }): HandlersFor<'recovery.status' | 'recovery.setup' | 'recovery.newSheet' | 'recovery.emergencyAccess'> {
  return {
    'recovery.status': async () => recovery.status(),
    'recovery.setup': async () => recovery.setup(),
    'recovery.newSheet': async () => recovery.newSheet(),
    'recovery.emergencyAccess': async (input) => {
      const granted = recovery.emergencyAccess(input);
      onEmergencyAccess?.();
      return granted;
    },
  };
}
