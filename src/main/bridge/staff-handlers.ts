import type { StaffAccounts } from '../security/staff-accounts';
import type { createStaffFile } from '../security/staff-file';
import type { WorkstationLock } from '../security/workstation-lock';
import type { HandlersFor } from './handlers';

type StaffMethod = 'staff.session' | 'staff.setup' | 'staff.signIn' | 'staff.signOut' | 'staff.choosePin' | 'staff.list' | 'staff.add' | 'staff.update' | 'staff.exportFile' | 'staff.importFile' | 'lock.engage';

/**
 * Staff and sign-in (security/staff-accounts.ts). The idle time-out (`lock.engage`, reason
 * `idle`: audited as a time-out) signs the person out once the desk has staff: the next one signs in with their own PIN.
 */
export function staffHandlers({ staff, lock, staffFile }: { staff: StaffAccounts; lock: WorkstationLock; staffFile: ReturnType<typeof createStaffFile> }): HandlersFor<StaffMethod> {
  return {
    'staff.session': async () => staff.session(),
    'staff.setup': (input) => staff.setup(input),
    'staff.signIn': (input) => staff.signIn(input),
    'staff.signOut': async () => staff.signOut(),
    'staff.choosePin': (input) => staff.choosePin(input),
    'staff.list': async () => staff.list(),
    'staff.add': (input) => staff.add(input),
    'staff.update': (input) => staff.update(input),
    'staff.exportFile': (input) => staffFile.exportFile(input),
    'staff.importFile': async (input) => {
      const imported = await staffFile.importFile(input);
      // The file may rename, demote or disable whoever is signed in: their rights follow at once.
      staff.refreshSignedIn();
      return imported;
    },
    'lock.engage': async (input) => {
      staff.signOut(input.reason === 'idle' ? 'time_out' : 'lock');
      return lock.engage();
    },
  };
}
