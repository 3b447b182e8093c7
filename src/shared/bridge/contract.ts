import { z } from 'zod';
import {
  BarcodeReading,
  Check,
  CheckCreate,
  ClearinghouseEntity,
  Discovery,
  ErrorBody,
  Extraction,
  ExtractionCreate,
  Id,
  InboxItem,
  InsuranceCard,
  InsuranceCardCreate,
  ListPage,
  ListParams,
  Patient,
  PatientCreate,
  PhotoContentType,
  PhotoObject,
  Provider,
  ServiceType,
} from '../contract';
import {
  DeskPatientDetail,
  PatientCorrected,
  PatientCorrection,
  DeskPatientRows,
  DeskToday,
  DeskTodayInput,
  DeskTodayChanges,
  DeskTodayChangesInput,
  ConnectionTest,
  DeskSettings,
  DeskSettingsSaved,
  DeskSettingsUpdate,
  ExtractionPreview,
  ExtractionPreviewInput,
  BarcodeTextInput,
  LocalApiStatus,
  DamageReport,
  OnlyHere,
  SyncItem,
  SyncListInput,
  SyncStatus,
  AddIntegrationInput,
  AddedIntegration,
  Integration,
  RevokeIntegrationInput,
} from './desk-contract';
import {
  AuditEntry,
  AuditExport,
  AuditFilter,
  AuditListInput,
  AuditPage,
  AuditRecordInput,
  AuditRows,
  AuditSearchInput,
  IdleLockSettings,
  IdleLockUpdate,
  LockEngageInput,
  LockRemovePinInput,
  LockSetPinInput,
  LockStatus,
  LockUnlockInput,
  NoticeInput,
  NoticeShown,
  SessionLocked,
  AuditVerification,
} from './security-contract';
import {
  StaffAddInput,
  StaffFile,
  StaffFileExportInput,
  StaffFileImported,
  StaffFileImportInput,
  StaffMember,
  StaffSession,
  StaffSetupInput,
  StaffSignInInput,
  StaffChoosePinInput,
  StaffUpdateInput,
} from './staff-contract';
import {
  Appointment,
  AppointmentCreate,
  AppointmentListInput,
  AppointmentSettings,
  AppointmentSettingsUpdate,
  AppointmentWritten,
  AssignPatientInput,
  ChoosePayerInput,
  BatchProgress,
  BatchStart,
  ImportResult,
  ScheduleFileInput,
  ScheduleImportInput,
  SchedulePreview,
  Worklist,
} from './appointment-contract';
import { GfeGetInput, GfeIssueInput, GfePracticeSaved, GfeSelfPayInput, GoodFaithEstimate } from './gfe-contract';
import { BackupListing, BackupRestored, BackupRestoreInput, BackupSettingsUpdate, BackupStatus } from './backup-contract';
import { EmergencyAccessGranted, RecoveryCodeInput, RecoverySheet, RecoveryStatus } from './recovery-contract';
import { Estimate, EstimateQuery, FeeRowInput, FeeRowKey, FeeSchedule, FeeScheduleExport, FeeScheduleImported, FreshnessUpdate } from './estimate-contract';
import { AnswerWaitingLinkInput, ArrivedCardInput, IssuerDirectoryView, IssuersImported, IssuersRefreshed, TieWaitingLinkInput, WaitingLinkInput, WaitingLinkTied } from './digital-card-contract';
import {
  Collection,
  CollectionCreate,
  CollectionDay,
  CollectionDeskSettings,
  CollectionDeskUpdate,
  CollectionListInput,
  CollectionVoidInput,
  EndOfDay,
} from './collection-contract';
import { DuplicateCandidates, FindDuplicatesInput, PossibleDuplicate, PracticeViewDetail, ResolveDuplicateInput } from './practice-view';

const ById = z.strictObject({ id: Id });
const List = ListParams.partial();

/**
 * Every call the renderer may make, declared once: name → zod input and output. The
 * Electron IPC adapter, the preload and the web host's HTTP bridge are all built from
 * this table, and the renderer only ever sees `window.coverdesk`.
 * Records made here are `dashboard`: the channel sets the source, never the renderer.
 */
export const BRIDGE_METHODS = {
  'patients.create': { input: PatientCreate, output: Patient },
  'patients.get': { input: ById, output: Patient },
  'patients.list': { input: List, output: ListPage(Patient) },
  /** Intake asks before creating: patients that may be the same person (practice-view.ts). */
  'patients.findDuplicates': { input: FindDuplicatesInput, output: DuplicateCandidates },
  /** Registrations from different desks that may be one person: to link or tell apart, never merged. */
  'patients.possibleDuplicates': { input: z.strictObject({}), output: z.object({ data: z.array(PossibleDuplicate) }) },
  'patients.resolveDuplicate': { input: ResolveDuplicateInput, output: PossibleDuplicate },
  /** A name or date of birth typed wrong: corrected on this chart, audited, and given to the upstream as creates allow. */
  'patients.correct': { input: PatientCorrection, output: PatientCorrected },

  'photos.upload': {
    input: z.strictObject({ content_type: PhotoContentType, data_base64: z.base64() }),
    output: PhotoObject,
  },
  'photos.read': {
    input: z.strictObject({ object_key: z.string() }),
    output: z.object({ content_type: PhotoContentType, data_base64: z.string() }),
  },

  'cards.create': { input: InsuranceCardCreate, output: InsuranceCard },
  'cards.get': { input: ById, output: InsuranceCard },
  'cards.list': { input: List, output: ListPage(InsuranceCard) },

  'extractions.create': { input: ExtractionCreate, output: Extraction },
  'extractions.get': { input: ById, output: Extraction },

  // The seed's discovery request carries `source`; from the desk it is always `dashboard`.
  'discoveries.create': { input: z.strictObject({ insurance_card_id: Id, service_type: ServiceType.optional() }), output: Discovery },
  'discoveries.get': { input: ById, output: Discovery },
  'discoveries.list': { input: List, output: ListPage(Discovery) },

  'checks.create': { input: CheckCreate, output: Check },
  'checks.get': { input: ById, output: Check },
  'checks.list': { input: List, output: ListPage(Check) },

  'inbox.list': {
    input: z.strictObject({ state: InboxItem.shape.state.optional() }),
    output: z.object({ data: z.array(InboxItem) }),
  },
  'inbox.resolve': {
    input: z.strictObject({ id: Id, state: z.enum(['used', 'dismissed']), insurance_card_id: Id.optional() }),
    output: InboxItem,
  },

  'providers.list': { input: List, output: ListPage(Provider) },
  'clearinghouseEntities.list': { input: List, output: ListPage(ClearinghouseEntity) },

  // Front-desk read models (not /v1): Today's list, patient search, one patient's history.
  // `since` is the start of the desk's local day, which only the renderer knows.
  'desk.today': { input: DeskTodayInput, output: DeskToday },
  /** Today's rows for the records that changed (issue 31): the list patched, not read again. */
  'desk.todayChanges': { input: DeskTodayChangesInput, output: DeskTodayChanges },
  'desk.findPatients': {
    input: z.strictObject({ query: z.string().trim().min(1).max(100), limit: z.number().int().min(1).max(50).default(20) }),
    output: DeskPatientRows,
  },
  'desk.patient': { input: ById, output: DeskPatientDetail },

  // Sync, settings, local API and extraction previews; see desk-contract.ts for the shapes.
  'sync.status': { input: z.strictObject({}), output: SyncStatus },
  'sync.list': { input: SyncListInput, output: z.object({ data: z.array(SyncItem) }) },
  'sync.retry': { input: ById, output: SyncItem },
  'sync.discard': { input: ById, output: z.object({ id: Id, discarded: z.literal(true) }) },
  /** The pull side: how current the desk's copy of the practice is, and what was set aside. */
  'sync.practice': { input: z.strictObject({}), output: PracticeViewDetail },
  /** How many records exist only on this desk (not yet taken by the service), and since when. */
  'sync.onlyHere': { input: z.strictObject({}), output: OnlyHere },
  /** The damage found in the database at start and what was recovered; null: it was healthy. */
  'storage.damage': { input: z.strictObject({}), output: DamageReport.nullable() },
  'settings.get': { input: z.strictObject({}), output: DeskSettings },
  'settings.update': { input: DeskSettingsUpdate, output: DeskSettingsSaved },
  /** Tries the service the settings name now (Settings' "Test connection"). */
  'settings.testConnection': { input: z.strictObject({}), output: ConnectionTest },
  'localApi.status': { input: z.strictObject({}), output: LocalApiStatus },
  'localApi.regenerateToken': { input: z.strictObject({}), output: LocalApiStatus },
  /** Named integrations (issue 28): one token each, shown once, revocable. */
  'localApi.integrations': { input: z.strictObject({}), output: z.array(Integration) },
  'localApi.addIntegration': { input: AddIntegrationInput, output: AddedIntegration },
  'localApi.revokeIntegration': { input: RevokeIntegrationInput, output: Integration },
  'extractions.preview': { input: ExtractionPreviewInput, output: ExtractionPreview },
  /** A barcode's text typed by a scanner (keyboard wedge), read as a photo's barcode is. */
  'barcodes.read': { input: BarcodeTextInput, output: BarcodeReading },

  // Session safety (security-contract.ts): the audit log in Settings, and the idle lock.
  'audit.list': { input: AuditListInput, output: AuditPage },
  'audit.record': { input: AuditRecordInput, output: AuditEntry },
  'idleLock.get': { input: z.strictObject({}), output: IdleLockSettings },
  'idleLock.update': { input: IdleLockUpdate, output: IdleLockSettings },
  // The audit screen: rows with names, one per action, filtered; and the same as CSV.
  'audit.search': { input: AuditSearchInput, output: AuditRows },
  'audit.export': { input: AuditFilter, output: AuditExport },
  /** Checks the audit log's chain of seals: intact, or the first entry changed, removed or inserted. */
  'audit.verify': { input: z.strictObject({}), output: AuditVerification },
  // The per-workstation PIN (security-contract.ts): the host holds the lock and counts tries.
  'lock.status': { input: z.strictObject({}), output: LockStatus },
  'lock.setPin': { input: LockSetPinInput, output: LockStatus },
  'lock.removePin': { input: LockRemovePinInput, output: LockStatus },
  'lock.engage': { input: LockEngageInput, output: LockStatus },
  'lock.unlock': { input: LockUnlockInput, output: LockStatus },
  'lock.unlockWithSystem': { input: z.strictObject({}), output: LockStatus },
  // Staff (staff-contract.ts, issue 28): first start, sign in and switch, and the manager's list.
  'staff.session': { input: z.strictObject({}), output: StaffSession },
  'staff.setup': { input: StaffSetupInput, output: StaffSession },
  'staff.signIn': { input: StaffSignInInput, output: StaffSession },
  'staff.signOut': { input: z.strictObject({}), output: StaffSession },
  'staff.choosePin': { input: StaffChoosePinInput, output: StaffSession },
  'staff.list': { input: z.strictObject({}), output: z.array(StaffMember) },
  'staff.add': { input: StaffAddInput, output: StaffMember },
  'staff.update': { input: StaffUpdateInput, output: StaffMember },
  'staff.exportFile': { input: StaffFileExportInput, output: StaffFile },
  'staff.importFile': { input: StaffFileImportInput, output: StaffFileImported },
  // A check answered while the desk looks elsewhere: the OS notification where there is one.
  'notices.show': { input: NoticeInput, output: NoticeShown },

  // Tomorrow's schedule (appointment-contract.ts): desk-local appointments, imported from the
  // scheduling system's export, matched to patients.
  'appointments.list': { input: AppointmentListInput, output: z.object({ data: z.array(Appointment) }) },
  'appointments.create': { input: AppointmentCreate, output: AppointmentWritten },
  'appointments.preview': { input: ScheduleFileInput, output: SchedulePreview },
  'appointments.import': { input: ScheduleImportInput, output: ImportResult },
  'appointments.assignPatient': { input: AssignPatientInput, output: Appointment },
  'appointments.choosePayer': { input: ChoosePayerInput, output: Appointment },
  'appointments.settings': { input: z.strictObject({}), output: AppointmentSettings },
  'appointments.updateSettings': { input: AppointmentSettingsUpdate, output: AppointmentSettings },
  // Batch eligibility for a day ("Check tomorrow"), its progress, and the day's worklist.
  'appointments.checkDay': { input: BatchStart, output: BatchProgress },
  'appointments.progress': { input: AppointmentListInput, output: BatchProgress },
  'appointments.worklist': { input: AppointmentListInput, output: Worklist },

  // What the patient owes today (estimate-contract.ts): the practice's fee schedule, and the
  // estimate for a visit from a check's answer.
  'feeSchedule.get': { input: z.strictObject({}), output: FeeSchedule },
  'feeSchedule.import': { input: ScheduleFileInput, output: FeeScheduleImported },
  'feeSchedule.export': { input: z.strictObject({}), output: FeeScheduleExport },
  'feeSchedule.updateFreshness': { input: FreshnessUpdate, output: FeeSchedule },
  'feeSchedule.setRow': { input: FeeRowInput, output: FeeSchedule },
  'feeSchedule.removeRow': { input: FeeRowKey, output: FeeSchedule },
  'estimates.forCheck': { input: EstimateQuery, output: Estimate },

  // Digital cards (digital-card-contract.ts): the trusted SMART Health Card issuers in Settings,
  // imported from a file (JSON) or refreshed from the directories that file names.
  'digitalCards.issuers': { input: z.strictObject({}), output: IssuerDirectoryView },
  'digitalCards.importIssuers': { input: ScheduleFileInput, output: IssuersImported },
  'digitalCards.refreshIssuers': { input: z.strictObject({}), output: IssuersRefreshed },
  /**
   * A link read while offline: still `waiting`, or its finished read once the desk was back
   * online (a `records.changed` event for `digital_cards` with its id says when).
   */
  'digitalCards.waitingLink': { input: WaitingLinkInput, output: BarcodeReading },
  /** The card saved while its link waited (Intake's Save): the arrived fields are offered for it. */
  'digitalCards.tieWaitingLink': { input: TieWaitingLinkInput, output: WaitingLinkTied },
  /** A link tied to one of these cards that has arrived and was not yet answered: its reading, else null. */
  'digitalCards.arrivedForCards': { input: ArrivedCardInput, output: BarcodeReading.nullable() },
  /** "Use its details?" answered: used (a corrected card was saved) or declined; not offered again. */
  'digitalCards.answerWaitingLink': { input: AnswerWaitingLinkInput, output: WaitingLinkTied },
  // Good Faith Estimates for self-pay visits (gfe-contract.ts): due on the worklist, issued once, printed.
  'gfe.markSelfPay': { input: GfeSelfPayInput, output: GoodFaithEstimate },
  'gfe.issue': { input: GfeIssueInput, output: GoodFaithEstimate },
  'gfe.get': { input: GfeGetInput, output: GoodFaithEstimate },
  'gfe.practice': { input: z.strictObject({}), output: GfePracticeSaved },
  // Settings → Backups (backup-contract.ts): the folder, the schedule, back up now, the last verified one.
  'backups.status': { input: z.strictObject({}), output: BackupStatus },
  'backups.update': { input: BackupSettingsUpdate, output: BackupStatus },
  'backups.run': { input: z.strictObject({}), output: BackupStatus },
  /** The backups in the chosen folder this desk's key opens, newest first. */
  'backups.list': { input: z.strictObject({}), output: z.array(BackupListing) },
  /**
   * Restores one: checked and staged, then the desk restarts on it (this desk's files kept
   * aside). Refused, nothing changed: another practice's, a newer version's, a changed one.
   */
  'backups.restore': { input: BackupRestoreInput, output: BackupRestored },
  // The recovery code (recovery-contract.ts): the desk's first sheet (once), a new one, and emergency access.
  'recovery.status': { input: z.strictObject({}), output: RecoveryStatus },
  /** Makes the desk's first code if it has none and answers its sheet; null once it has one (shown once). */
  'recovery.setup': { input: z.strictObject({}), output: RecoverySheet.nullable() },
  /** A new code (the old sheet stops working); its sheet, shown once. */
  'recovery.newSheet': { input: z.strictObject({}), output: RecoverySheet },
  /** Verifies and uses up the code; audited. The sign-in turns the grant into one-time manager rights. */
  'recovery.emergencyAccess': { input: RecoveryCodeInput, output: EmergencyAccessGranted },
  // What was collected at the window and the day's report (collection-contract.ts): desk
  // records, append-only; a void is a new entry pointing at the one it undoes.
  'collections.record': { input: CollectionCreate, output: Collection },
  'collections.void': { input: CollectionVoidInput, output: Collection },
  'collections.list': { input: CollectionListInput, output: CollectionDay },
  'collections.endOfDay': { input: CollectionListInput, output: EndOfDay },
  /** Who takes payments at this desk (typed once, remembered) and the practice's name on receipts. */
  'collections.deskSettings': { input: z.strictObject({}), output: CollectionDeskSettings },
  'collections.updateDeskSettings': { input: CollectionDeskUpdate, output: CollectionDeskSettings },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export type BridgeMethod = keyof typeof BRIDGE_METHODS;
export type BridgeInput<M extends BridgeMethod> = z.input<(typeof BRIDGE_METHODS)[M]['input']>;
export type BridgeParsedInput<M extends BridgeMethod> = z.output<(typeof BRIDGE_METHODS)[M]['input']>;
export type BridgeOutput<M extends BridgeMethod> = z.infer<(typeof BRIDGE_METHODS)[M]['output']>;
export const BRIDGE_METHOD_NAMES = Object.keys(BRIDGE_METHODS) as BridgeMethod[];

export function isBridgeMethod(name: string): name is BridgeMethod {
  return Object.hasOwn(BRIDGE_METHODS, name);
}

/** Events the host pushes to the renderer. */
export const BRIDGE_EVENTS = {
  'records.changed': z.object({ collection: z.string(), id: z.string() }),
  /** The sync worker's status whenever it changes (online/offline, counts). */
  'sync.status': SyncStatus,
  /** The OS locked the workstation or went to sleep: the renderer hides PHI at once. */
  'session.locked': SessionLocked,
  /** The person clicked an OS notification from `notices.show`: open what it was about. */
  'notices.opened': NoticeInput,
  /** A day's batch of checks moved (a check made or answered, the batch started or finished). */
  'appointments.progress': BatchProgress,
  /**
   * The host was closed and made again on the same data (issue 29): the check found the
   * database damaged and it was set aside, or a backup was restored. Everything shown is stale.
   */
  'host.restarted': z.object({ reason: z.enum(['damaged', 'restored']) }),
  /**
   * The desk's settings were saved (by this window, another one, or a script on the host): the
   * screens' defaults (provider, visit type, service) follow at once, not at the next slow poll.
   */
  'settings.changed': DeskSettings,
} as const satisfies Record<string, z.ZodType>;

export type BridgeEvent = keyof typeof BRIDGE_EVENTS;
export type BridgeEventPayload<E extends BridgeEvent> = z.infer<(typeof BRIDGE_EVENTS)[E]>;
export const BRIDGE_EVENT_NAMES = Object.keys(BRIDGE_EVENTS) as BridgeEvent[];

/** Every call answers this, so errors cross IPC and HTTP with their codes intact. */
export const BridgeResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: ErrorBody.extend({ status: z.number().int() }) }),
]);
export type BridgeError = ErrorBody & { status: number };
export type BridgeResult<T> = { ok: true; value: T } | { ok: false; error: BridgeError };

/** `window.coverdesk`: `coverdesk.patients.create(input)` for `patients.create`. */
type Split<M extends string> = M extends `${infer D}.${infer V}` ? [D, V] : never;
export type BridgeApi = {
  [D in Split<BridgeMethod>[0]]: {
    [M in BridgeMethod as Split<M>[0] extends D ? Split<M>[1] : never]: (input: BridgeInput<M>) => Promise<BridgeResult<BridgeOutput<M>>>;
  };
} & {
  on<E extends BridgeEvent>(event: E, listener: (payload: BridgeEventPayload<E>) => void): () => void;
};
