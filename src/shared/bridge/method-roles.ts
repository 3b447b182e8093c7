import type { BridgeMethod } from './contract';
import { STAFF_ROLE_WORDS, type StaffRole } from './staff-role';

/**
 * Who may call each bridge method (issue 28, item 2): the one table, next to the contract, that
 * the host enforces (`src/main/security/role-guard.ts`) and the renderer reads to hide what a
 * role may not open. A `Record` over every method, so a new method does not compile until it is
 * classed here.
 *
 * - `anyone`: answered before anyone signs in (the sign-in screen itself, and what the lock
 *   screen shows); never PHI.
 * - `front_desk`: the day's work: intake, checks, discovery, schedule, collections, sync.
 * - `manager`: also settings, staff, the audit log, integrations, backups.
 */
export type MethodRole = 'anyone' | StaffRole;

export const METHOD_ROLES: Record<BridgeMethod, MethodRole> = {
  'patients.create': 'front_desk',
  'patients.get': 'front_desk',
  'patients.list': 'front_desk',
  'patients.findDuplicates': 'front_desk',
  'patients.possibleDuplicates': 'front_desk',
  'patients.resolveDuplicate': 'front_desk',
  'patients.correct': 'front_desk',
  'photos.upload': 'front_desk',
  'photos.read': 'front_desk',
  'cards.create': 'front_desk',
  'cards.get': 'front_desk',
  'cards.list': 'front_desk',
  'extractions.create': 'front_desk',
  'extractions.get': 'front_desk',
  'extractions.preview': 'front_desk',
  'barcodes.read': 'front_desk',
  'discoveries.create': 'front_desk',
  'discoveries.get': 'front_desk',
  'discoveries.list': 'front_desk',
  'checks.create': 'front_desk',
  'checks.get': 'front_desk',
  'checks.list': 'front_desk',
  'inbox.list': 'front_desk',
  'inbox.resolve': 'front_desk',
  'providers.list': 'front_desk',
  'clearinghouseEntities.list': 'front_desk',
  'desk.today': 'front_desk',
  'desk.todayChanges': 'front_desk',
  'desk.findPatients': 'front_desk',
  'desk.patient': 'front_desk',
  // The sync line and its list are on every screen; retrying and discarding are the day's work.
  'sync.status': 'anyone',
  'sync.list': 'front_desk',
  'sync.retry': 'front_desk',
  'sync.discard': 'front_desk',
  'sync.practice': 'front_desk',
  // A count and a time, no PHI: leaving the page at the sign-in screen still warns of unsent records.
  'sync.onlyHere': 'anyone',
  'storage.damage': 'front_desk',
  // Read by the status line on every screen (which service, online or not); changing them is a manager's.
  'settings.get': 'front_desk',
  'settings.update': 'manager',
  'settings.testConnection': 'manager',
  'localApi.status': 'manager',
  'localApi.regenerateToken': 'manager',
  'localApi.integrations': 'manager',
  'localApi.addIntegration': 'manager',
  'localApi.revokeIntegration': 'manager',
  'audit.list': 'manager',
  // Printing and exporting a record are recorded by the page that did it, whoever it was.
  'audit.record': 'front_desk',
  'audit.search': 'manager',
  'audit.export': 'manager',
  'audit.verify': 'manager',
  'idleLock.get': 'anyone',
  'idleLock.update': 'manager',
  'lock.status': 'anyone',
  'lock.setPin': 'manager',
  'lock.removePin': 'manager',
  'lock.engage': 'anyone',
  'lock.unlock': 'anyone',
  'lock.unlockWithSystem': 'anyone',
  'staff.session': 'anyone',
  'staff.setup': 'anyone',
  'staff.signIn': 'anyone',
  'staff.signOut': 'anyone',
  // Anyone signed in chooses their own PIN after a manager set one for them.
  'staff.choosePin': 'front_desk',
  'staff.list': 'manager',
  'staff.add': 'manager',
  'staff.update': 'manager',
  'staff.exportFile': 'manager',
  'staff.importFile': 'manager',
  'notices.show': 'front_desk',
  'appointments.list': 'front_desk',
  'appointments.create': 'front_desk',
  'appointments.preview': 'front_desk',
  'appointments.import': 'front_desk',
  'appointments.assignPatient': 'front_desk',
  'appointments.choosePayer': 'front_desk',
  'appointments.settings': 'front_desk',
  'appointments.updateSettings': 'manager',
  'appointments.checkDay': 'front_desk',
  'appointments.progress': 'front_desk',
  'appointments.worklist': 'front_desk',
  'feeSchedule.get': 'front_desk',
  'feeSchedule.import': 'manager',
  'feeSchedule.export': 'manager',
  'feeSchedule.updateFreshness': 'manager',
  'feeSchedule.setRow': 'manager',
  'feeSchedule.removeRow': 'manager',
  'estimates.forCheck': 'front_desk',
  'digitalCards.issuers': 'front_desk',
  'digitalCards.importIssuers': 'manager',
  'digitalCards.refreshIssuers': 'manager',
  'digitalCards.waitingLink': 'front_desk',
  'digitalCards.tieWaitingLink': 'front_desk',
  'digitalCards.arrivedForCards': 'front_desk',
  'digitalCards.answerWaitingLink': 'front_desk',
  'gfe.markSelfPay': 'front_desk',
  'gfe.issue': 'front_desk',
  'gfe.get': 'front_desk',
  'gfe.practice': 'front_desk',
  'backups.status': 'manager',
  'backups.update': 'manager',
  'backups.run': 'manager',
  'backups.list': 'manager',
  'backups.restore': 'manager',
  // The recovery code: the sheet is the manager's; emergency access is for when no manager is here.
  'recovery.status': 'manager',
  'recovery.setup': 'manager',
  'recovery.newSheet': 'manager',
  'recovery.emergencyAccess': 'anyone',
  'collections.record': 'front_desk',
  'collections.void': 'front_desk',
  'collections.list': 'front_desk',
  'collections.endOfDay': 'front_desk',
  'collections.deskSettings': 'front_desk',
  'collections.updateDeskSettings': 'manager',
};

/** Whether a person of `role` may call `method`. */
export function mayCall(role: StaffRole, method: BridgeMethod): boolean {
  const needed = METHOD_ROLES[method];
  return needed !== 'manager' || role === 'manager';
}

/** The refusal's sentence, naming the role the call needs. */
export function notAllowedMessage(method: BridgeMethod): string {
  return `Only a ${STAFF_ROLE_WORDS.manager} may do this (${method}). Ask a manager to sign in.`;
}
