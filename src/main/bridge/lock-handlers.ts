import type { WorkstationLock } from '../security/workstation-lock';
import type { HandlersFor } from './handlers';

/** The per-workstation PIN and the host-held lock (security/workstation-lock.ts); `lock.engage` is staff-handlers.ts's (it signs the person out). */
export function lockHandlers({ lock }: { lock: WorkstationLock }): HandlersFor<'lock.status' | 'lock.setPin' | 'lock.removePin' | 'lock.unlock' | 'lock.unlockWithSystem'> {
  return {
    'lock.status': async () => lock.status(),
    'lock.setPin': (input) => lock.setPin(input),
    'lock.removePin': (input) => lock.removePin(input),
    'lock.unlock': ({ pin }) => lock.unlock(pin),
    'lock.unlockWithSystem': () => lock.unlockWithSystem(),
  };
}
