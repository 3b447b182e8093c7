import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { appointmentHandlers } from '../bridge/appointment-handlers';
import { createAppointmentSettings } from '../appointments/appointment-settings';
import type { AppointmentDeps } from '../appointments/appointment-import';
import { auditHandlers } from '../bridge/audit-handlers';
import { batchHandlers } from '../bridge/batch-handlers';
import { batchProgress } from '../batch/batch-progress';
import { createBatchRunner } from '../batch/batch-runner';
import { deskHandlers, patientCorrectionHandlers } from '../bridge/desk-handlers';
import { extractionHandlers } from '../bridge/extraction-handlers';
import { composeBridgeHandlers, type BridgeHandlers } from '../bridge/handlers';
import { inboxHandlers } from '../bridge/inbox-handlers';
import { lockHandlers } from '../bridge/lock-handlers';
import { staffHandlers } from '../bridge/staff-handlers';
import { noticeHandlers, type SystemNotifier } from '../bridge/notice-handlers';
import { localApiHandlers } from '../bridge/local-api-handlers';
import { practiceHandlers } from '../bridge/practice-handlers';
import { recordHandlers } from '../bridge/record-handlers';
import { inTransaction, openDatabase, type OpenedDatabase } from '../db/open-database';
import { groupCommitFor } from '../db/group-commit';
import { checkDatabaseOnWorker, type BackgroundCheck } from '../db/background-check';
import { createExtractionEngine } from '../extraction/extraction-engine';
import { createExtractionRunner } from '../extraction/extraction-runner';
import { createHotFolderComponent } from '../inbox/hot-folder-component';
import { appointmentRoutes } from '../local-api/appointment-routes';
import { combineRoutes, estimateRoutes } from '../local-api/estimate-routes';
import { barcodeRoutes } from '../local-api/barcode-routes';
import { estimateHandlers } from '../bridge/estimate-handlers';
import { gfeHandlers } from '../bridge/gfe-handlers';
import { gfeRoutes } from '../local-api/gfe-routes';
import { collectionHandlers } from '../bridge/collection-handlers';
import { collectionRoutes } from '../local-api/collection-routes';
import type { CollectionDeps } from '../collections/collection-store';
import { createFeeScheduleStore } from '../estimates/fee-schedule';
import { digitalCardHandlers } from '../bridge/digital-card-handlers';
import { createIssuerDirectory } from '../digital-card/issuer-directory';
import type { DigitalCardDeps } from '../digital-card/read-digital-card';
import { createIssuerRefresher } from '../digital-card/issuer-refresher';
import { createWaitingLinkCompleter } from '../digital-card/waiting-link-completer';
import { DEFAULT_NETWORK_POLICY, type NetworkPolicy } from '../digital-card/guarded-fetch';
import type { EstimateDeps } from '../estimates/estimate-for-check';
import { createLocalApi, type LocalApiDeps } from '../local-api/local-api';
import { createIntegrationTokens } from '../local-api/integration-tokens';
import { createLocalService } from '../operations/local-service';
import { createPhotoStore } from '../photos/photo-store';
import { auditChainKey, sealEntriesFromBeforeTheChain } from '../audit/audit-chain';
import { createAuditLog, workstationUser, type AuditLog } from '../audit/audit-log';
import { withAuditTrail } from '../audit/audited-bridge';
import { withAuditedCreates, withAuditedService } from '../audit/audited-service';
import { databaseFileState } from '../db/database-cipher';
import { checkDatabaseAtStart, damagedMessage, markDamaged, recordsWithoutRow, recoverInto, type DamagedDatabase } from '../db/start-check';
import { ServiceError } from '../../shared/service-error';
import { keyFilePaths, readOrCreateKeyFile } from '../db/database-key';
import { finishInterruptedRestore } from '../backup/desk-restore';
import { createBackupComponent } from '../backup/backup-component';
import { coverdeskVersion, deskIdentity } from '../backup/desk-backup';
import { backupHandlers } from '../bridge/backup-handlers';
import { systemClock, type Clock } from '../support/clock';
import { createEventHub, type EventHub } from '../support/event-hub';
import type { HostComponent } from '../support/host-component';
import { createHostLog, logFilePath, type HostLog } from '../support/host-log';
import { createIdGenerator, type IdGenerator } from '../support/ids';
import type { V1Service } from '../../shared/contract';
import { seedReferenceData } from '../reference/seed-reference-data';
import { settingsHandlers } from '../bridge/settings-handlers';
import { syncHandlers } from '../bridge/sync-handlers';
import { withWorkstationLock } from '../security/locked-bridge';
import { withStaffRoles } from '../security/role-guard';
import { createStaffAccounts, type StaffAccounts } from '../security/staff-accounts';
import { createStaffFile } from '../security/staff-file';
import { createWorkstationLock, type PinPolicy, type SystemUnlock, type WorkstationLock } from '../security/workstation-lock';
import { createFileSecretStore, type SecretStore } from '../settings/secret-store';
import { recoveryFilePath, type ScryptParams } from '../security/recovery-code';
import { createDeskRecovery } from '../security/desk-recovery';
import { recoveryHandlers } from '../bridge/recovery-handlers';
import { readDeskSettings } from '../collections/collection-store';
import { createSettingsStore } from '../settings/settings-store';
import { createEmbeddedSandbox } from '../sync/embedded-sandbox';
import { createSyncComponent, type SyncHostOptions } from '../sync/sync-component';
import { createPullComponent } from '../sync/pull-component';
import { checkpointInBackground } from '../db/background-checkpoints';
import { createPullEngine } from '../sync/pull-engine';
import { withRemotePhotos } from '../sync/remote-photos';
import { upstreamKey } from '../sync/remote-ids';
import { queueRecordsWithoutEntry } from '../sync/send-again';
import { notePossibleDuplicates } from '../desk/find-duplicates';
import { createDiskSpaceMonitor, type DiskSpaceDeps } from '../storage/disk-space';

export interface HostOptions {
  dataDir: string;
  clock?: Clock;
  /** Test-only: what digital-card links may reach (a loopback test server through `allowOrigin`). */
  digitalCardNetwork?: NetworkPolicy;
  ids?: IdGenerator;
  /**
   * The upstream /v1 service (e.g. from `--upstream URL --api-key KEY`). Absent: the one
   * saved in settings, else the sandbox embedded on a loopback port (sandbox mode).
   */
  upstream?: { url: string; apiKey: string };
  /** The local API for scanner software; TCP only with `tcpPort`. `false`: not started. */
  localApi?: false | ({ tcpPort?: number } & Pick<LocalApiDeps, 'platform' | 'pipePrefix' | 'random' | 'maxInFlight'>);
  /** The scan-to-folder inbox; defaults to `<dataDir>/inbox`. `false`: not watched. */
  hotFolder?: false | { dir?: string };
  /**
   * The 256-bit key that encrypts the database and the photos. The desktop app passes the
   * one it keeps wrapped by the OS key store; absent (web host, tests): the user-only key
   * file `<dataDir>/database.key`, made at first start.
   */
  encryptionKey?: Buffer;
  /** Who the audit log names; absent: the operating-system user running Coverdesk. */
  actor?: string;
  /** This workstation's name in the end-of-day report; absent: the computer's host name. */
  deskName?: string;
  /** Where the upstream API key is kept; absent: a user-only file in the data dir. */
  secrets?: SecretStore;
  /** Sync tuning (tests: short backoffs, a seeded jitter); the defaults are the product's. */
  sync?: SyncHostOptions;
  /** Where the host logs; absent: `<dataDir>/logs/coverdesk.log`. */
  log?: HostLog;
  /** Wrong-PIN tries and waits (tests: short waits); the defaults are the product's. */
  pinPolicy?: Partial<PinPolicy>;
  /** A desk with no staff yet shows the first-start screen; default true (see StaffAccountDeps). */
  askFirstManager?: boolean;
  /** The OS check that may unlock instead of the PIN (Touch ID, desktop app on macOS). */
  systemUnlock?: SystemUnlock;
  /** OS notifications (desktop app); absent, the page shows its own toasts. */
  notifier?: SystemNotifier;
  /** How often the batch runner steps (tests: tens of milliseconds); default 500 ms. */
  batchIntervalMs?: number;
  /** How a photo's file is written (tests: one that fails as a full disk does). */
  writePhotoFile?: (file: string, bytes: Uint8Array) => void;
  /** This build's version, written in each backup's manifest; absent: package.json's. */
  version?: string;
  /** How often the backup schedule looks whether one is due (tests: short); default a minute. */
  backupCheckEveryMs?: number;
  /** The recovery code's scrypt cost for new sheets (tests: a small N); absent: the product's. */
  recoveryScrypt?: ScryptParams;
  /** Free-space warning (tests: a measured figure, a margin); the defaults are the product's. */
  diskSpace?: Pick<DiskSpaceDeps, 'freeSpace' | 'marginBytes' | 'intervalMs'>;
  /**
   * SQLite's check of the database, run by `start()` on a worker thread; `false`: not run.
   * `delayMs` waits first: a desk starting for a person (`START_CHECK_DELAY_MS`) leaves the
   * check's second of reading every page until its first screen is up, not beside it.
   */
  startCheck?: false | { timeoutMs?: number; delayMs?: number };
  /**
   * The host must be closed and made again on the same folder: the check found damage (the
   * next start sets the file aside and recovers) or a restore was staged (the next start swaps
   * it in). The web host restarts in place, the desktop app relaunches; absent (tests), the
   * host stays up with writes refused.
   */
  onRestartNeeded?: (reason: HostRestartReason) => void;
}

export type HostRestartReason = 'damaged' | 'restored';

/** What a create is refused with once a backup is staged to be restored, until the restart. */
export const RESTORING_MESSAGE = 'A backup is being restored: Coverdesk restarts on it, and nothing was saved. Enter this again once it has restarted.';

/** What a create is refused with once the check has found damage, until the restart. */
export const DATABASE_DAMAGED_MESSAGE =
  'Coverdesk found damage in its database and stopped saving to it: nothing was saved. Coverdesk restarts to set the file aside and recover what can be read; if it does not, close it and open it again.';

export interface Host {
  dataDir: string;
  clock: Clock;
  ids: IdGenerator;
  database: OpenedDatabase;
  /** The host's V1Service: the record and its outbox entry, in one transaction. */
  service: V1Service;
  bridge: BridgeHandlers;
  events: EventHub;
  /** Append-only: who viewed, created, printed or exported which record. */
  audit: AuditLog;
  /** The per-workstation PIN and the lock the bridge sits behind. */
  lock: WorkstationLock;
  /** The desk's staff and who is signed in (issue 28). */
  staff: StaffAccounts;
  log: HostLog;
  /** The database was damaged at start: set aside, and what was read back (null: it was healthy). */
  damaged: DamagedDatabase | null;
  /** What `start()`'s check of the database answered (it does not hold the start). */
  checked: Promise<BackgroundCheck | null>;
  /** Starts the background components. Tests of the store alone never call it. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function hostPaths(dataDir: string) {
  return {
    database: path.join(dataDir, 'coverdesk.sqlite'),
    photos: path.join(dataDir, 'photos'),
    recovery: recoveryFilePath(dataDir),
  };
}

/**
 * The composition root: everything the Electron main process runs, as plain Node with no
 * `electron` import, so the desktop app, the web host and the tests build the same thing.
 * Building starts nothing that listens or ticks; `start()` does.
 */
export function createHost(options: HostOptions): Host {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? createIdGenerator(clock);
  fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const paths = hostPaths(options.dataDir);
  // A restore stopped mid-swap is finished (or, stopped before it was ready, dropped) before anything is read.
  finishInterruptedRestore({ ...paths, dataDir: options.dataDir, keyFile: keyFilePaths(options.dataDir).plain });

  const encryptionKey =
    options.encryptionKey ??
    readOrCreateKeyFile({ file: keyFilePaths(options.dataDir).plain, mayCreate: databaseFileState(paths.database) !== 'encrypted' });
  // A damaged file is never opened for work: it is set aside, a fresh one started, and what
  // can be read of the old one copied in (docs/decisions.md, Storage).
  const damage = checkDatabaseAtStart({ file: paths.database, key: encryptionKey, now: clock.now() });
  const database = openDatabase({ file: paths.database, key: encryptionKey });
  const db = database.db;
  seedReferenceData(db);
  const log = options.log ?? createHostLog({ file: logFilePath(options.dataDir), clock });
  let damaged: DamagedDatabase | null = null;
  if (damage) {
    const recovered = recoverInto(database.sqlite, damage.keptAs, encryptionKey);
    // Records read back whose outbox entry was not: queued again, so none stays only here.
    const requeued = inTransaction(db, () => queueRecordsWithoutEntry({ db, clock, ids }));
    const report = { ...damage, ...recovered, recoveredEntries: recovered.recoveredEntries + requeued.length, missingRecords: recordsWithoutRow(database.sqlite) };
    damaged = { ...report, message: damagedMessage(report) };
    log.write('db.damaged_at_start', {
      kept_as: path.basename(damage.keptAs),
      problems: damage.problems.length,
      recovered_entries: recovered.recoveredEntries,
      recovered_rows: recovered.recoveredRows,
      unreadable_entries: recovered.unreadableEntries.length,
    });
  }
  const actor = options.actor ?? workstationUser();
  const auditKey = auditChainKey(encryptionKey);
  // The checkpoint: entries from before the chain are sealed once, so verify covers them from now on.
  const sealedAtStart = sealEntriesFromBeforeTheChain(db.$client, auditKey);
  if (sealedAtStart > 0) log.write('audit.checkpoint', { sealed: sealedAtStart });
  // The signed-in person names every desk entry, with the workstation's OS user (issue 28).
  let staff: StaffAccounts | null = null;
  const deskActor = () => {
    const person = staff?.current();
    return person ? `${person.name} (${actor})` : actor;
  };
  const audit = createAuditLog({ db, clock, actor: deskActor, key: auditKey });
  const events = createEventHub();
  const photoUrl = (key: string) => `/v1/photos/${key}`;
  const photoStore = createPhotoStore(paths.photos, { key: encryptionKey, writeFile: options.writePhotoFile });
  // Photos of cards pulled from the practice come from the upstream on first view (issue 17).
  const service = withRemotePhotos(
    createLocalService({
      db,
      clock,
      ids,
      photos: photoStore,
      photoUrl,
      onChange: (change) => events.emit('records.changed', change),
    }),
    { db, photos: photoStore, upstream: () => sync.upstream()?.service ?? null },
  );

  const lock = createWorkstationLock({ db, clock, policy: options.pinPolicy, systemUnlock: options.systemUnlock });
  // The OS locked the screen or slept: with a PIN set, the host locks too.
  staff = createStaffAccounts({ db, clock, ids, audit, lock, policy: options.pinPolicy, askFirstManager: options.askFirstManager });
  const staffAccounts = staff;
  events.on('session.locked', () => {
    staffAccounts.signOut('lock');
    if (lock.engage().locked) audit.append('lock', 'desk:lock');
  });

  // Desk-local appointments (issue 16): the bridge and the local API share these deps. The
  // patients an import registers are audited as creates, naming the channel, as any create is.
  const appointmentDepsFor = (channelAudit: AuditLog): AppointmentDeps => ({
    db,
    clock,
    ids,
    settings: createAppointmentSettings({ db }),
    practice: () => settings.read(),
    photoUrl,
    onChange: (change) => {
      if (change.collection !== 'appointments') channelAudit.append('create', change.id);
      events.emit('records.changed', change);
    },
  });
  const appointmentDeps = appointmentDepsFor(audit);
  // What the patient owes today (issue 30): the fee schedule and the estimates made from it.
  const estimateDeps: EstimateDeps = { db, clock, fees: createFeeScheduleStore({ db, clock }), appointmentSettings: appointmentDeps.settings };
  // Good Faith Estimates for self-pay visits (issue 30, item 5): the bridge and the local API share these.
  const gfeDeps = {
    db,
    clock,
    ids,
    fees: estimateDeps.fees,
    practice: () => settings.read(),
    onChange: (change: { collection: 'good_faith_estimates'; id: string }) => events.emit('records.changed', change),
  };
  const localApiAudit = createAuditLog({ db, clock, actor: `${actor} (local API)`, key: auditKey });
  const integrations = createIntegrationTokens({ db, clock, ids, audit });
  // What was collected at the window (issue 30): each entry audited on the channel it came through.
  const collectionDepsFor = (channelAudit: AuditLog): CollectionDeps => ({
    db,
    clock,
    ids,
    audit: channelAudit,
    desk: options.deskName ?? os.hostname(),
    estimates: estimateDeps,
    onChange: (change) => events.emit('records.changed', change),
  });

  // Digital cards (issue 27): verified against the desk's trusted issuers; a link waits while offline.
  const issuerDirectory = createIssuerDirectory({ db, clock });
  const digitalCardNetwork = options.digitalCardNetwork ?? DEFAULT_NETWORK_POLICY;
  const digitalCard: DigitalCardDeps = { db, clock, issuers: issuerDirectory, network: digitalCardNetwork, online: () => sync.engine.online() !== false, log: log.forComponent('digital-card') };
  const components: HostComponent[] = [];
  // A link read offline completes when the upstream answers again; the desk is told, never filled silently.
  components.push(createWaitingLinkCompleter({ digitalCard, events, log: log.write }));
  // The trusted issuers refreshed from their directories once online, then daily.
  components.push(createIssuerRefresher({ refresh: { issuers: issuerDirectory, network: digitalCardNetwork, clock }, events, log: log.write }));
  const localApi = createLocalApi({
    dataDir: options.dataDir,
    db,
    // Scanner software reads and writes PHI too: the same audit trail, naming the channel.
    service: withAuditedService(service, localApiAudit),
    clock,
    ids,
    ...(options.localApi || {}),
    log: log.forComponent('local_api'),
    integrations,
    actorFor: (name) => `${actor} (local API: ${name})`,
    routes: combineRoutes(appointmentRoutes(appointmentDepsFor(localApiAudit)), estimateRoutes(estimateDeps), gfeRoutes({ db, audit: localApiAudit }), collectionRoutes(collectionDepsFor(localApiAudit)), barcodeRoutes({ digitalCard })),
  });
  if (options.localApi !== false) components.push(localApi);
  // On-device card reading: the OCR worker starts with the first card, not with the host.
  const extraction = createExtractionEngine({ log: log.forComponent('extraction'), digitalCard });
  components.push(createExtractionRunner({ db, service, engine: extraction, clock, events, log: log.forComponent('extraction') }));
  const settings = createSettingsStore({ db, secrets: options.secrets ?? createFileSecretStore(options.dataDir, { key: encryptionKey }) });

  // The folder: the one the host was started with, else the one saved in Settings, else <dataDir>/inbox.
  const hotFolder = createHotFolderComponent({
    dirOf: () => (options.hotFolder ? options.hotFolder.dir : undefined) ?? settings.read().hot_folder ?? path.join(options.dataDir, 'inbox'),
    db,
    service,
    clock,
    ids,
    events,
    extractor: extraction,
    log: log.forComponent('hot_folder'),
  });
  if (options.hotFolder !== false) components.push(hotFolder);
  const embeddedSandbox = createEmbeddedSandbox({ dataDir: options.dataDir, delayMs: options.sync?.sandboxDelayMs, encryptionKey, x12Dir: options.sync?.sandboxX12Dir });
  const sync = createSyncComponent({
    db,
    clock,
    ids,
    events,
    settings,
    sandbox: embeddedSandbox,
    readPhoto: (key) => service.readPhoto(key),
    upstream: options.upstream,
    options: { ...options.sync, log: options.sync?.log ?? log.write },
    onPushAnswered: () => pull.kick(),
    onUpstreamChanged: () => pull.kick(),
    diskLow: () => diskSpace.low(),
  });
  const diskSpace = createDiskSpaceMonitor({
    dir: options.dataDir,
    ...options.diskSpace,
    log: log.write,
    onChange: () => events.emit('sync.status', sync.status()),
  });
  // The pull side (issue 17): the practice's changes feed into this desk's store.
  const pullEngine = createPullEngine({
    db,
    clock,
    ids,
    audit,
    log: options.sync?.log ?? log.write,
    onRecordChanged: (change) => events.emit('records.changed', change),
    onPatientReceived: (id) => void notePossibleDuplicates(db, id, clock.now().toISOString()),
  });
  const pull = createPullComponent({
    engine: pullEngine,
    clock,
    db,
    feed: () => {
      const upstream = sync.upstream();
      const changes = upstream?.service.changes?.bind(upstream.service);
      return upstream && changes ? { key: upstreamKey(upstream), changes } : null;
    },
    mayCall: () => sync.engine.mayCall(),
    onAnswer: (key, failure) => sync.engine.learnFromOther(key, failure),
    bulkWrites: () =>
      checkpointInBackground({ sqlite: database.sqlite, key: encryptionKey, onError: (error) => log.write('db.checkpoint_worker_failed', { error: error.name }) }),
    intervalMs: options.sync?.pullIntervalMs,
    log: options.sync?.log ?? log.write,
  });
  // Stopped in reverse: the worker before the sandbox it may be talking to.
  components.push(diskSpace, embeddedSandbox, sync, pull);
  // A day's batch of checks: the same deps as appointments, bounded by what sync knows of the upstream.
  const batchDeps = {
    ...appointmentDeps,
    audit,
    onChange: (change: { collection: 'electronic_eligibility_checks'; id: string }) => events.emit('records.changed', change),
    onProgress: (date: string) => events.emit('appointments.progress', batchProgress(appointmentDeps, date)),
  };
  const batchRunner = createBatchRunner({
    ...batchDeps,
    upstream: () => ({ online: sync.engine.online() }),
    intervalMs: options.batchIntervalMs,
    log: log.write,
  });
  // A check answered may make room for the next: step at once rather than at the next tick.
  events.on('records.changed', (change) => {
    if (change.collection === 'electronic_eligibility_checks') batchRunner.wake();
  });
  components.push(batchRunner);
  // Settings → Backups (issue 29): on demand and every N hours while the desk runs.
  const backups = createBackupComponent({
    sqlite: database.sqlite,
    files: paths,
    clock,
    key: encryptionKey,
    version: options.version ?? coverdeskVersion(),
    log: log.write,
    checkEveryMs: options.backupCheckEveryMs,
    dataDir: options.dataDir,
    keyFile: keyFilePaths(options.dataDir).plain,
    onRestoreStaged: () => void stopWriting(new ServiceError('service_unavailable', RESTORING_MESSAGE), 'restored'),
  });
  components.push(backups);
  const handlers = composeBridgeHandlers(
    syncHandlers({ db, clock, sync }),
    practiceHandlers({ db, pull }),
    settingsHandlers({ settings, sync, hotFolder, keyProbe: { clock, timeoutMs: options.sync?.connectionTestTimeoutMs }, onChange: (saved) => events.emit('settings.changed', saved) }),
    // The desk's creates leave their audit entry in their own transaction (audited-service.ts).
    recordHandlers({ service: withAuditedCreates(service, audit), defaultServiceType: () => settings.read().default_service_type }),
    inboxHandlers({ db }),
    localApiHandlers({ localApi, integrations }),
    extractionHandlers({ service, engine: extraction, digitalCard }),
    deskHandlers({ db, clock, photoUrl }),
    patientCorrectionHandlers({ db, clock, ids, audit, photoUrl, onChange: (change) => events.emit('records.changed', change) }),
    auditHandlers({ audit, db, clock }),
    lockHandlers({ lock }),
    // The practice id a backup carries is the one a staff file carries (made once per data folder).
    staffHandlers({ staff: staffAccounts, lock, staffFile: createStaffFile({ db, audit, practiceId: () => deskIdentity(database.sqlite).practice_id }) }),
    noticeHandlers({ notifier: options.notifier, events }),
    appointmentHandlers(appointmentDeps),
    batchHandlers({ ...batchDeps, runner: batchRunner, estimates: estimateDeps }),
    estimateHandlers(estimateDeps),
    digitalCardHandlers({ issuers: issuerDirectory, network: digitalCardNetwork, clock, db }),
    gfeHandlers(gfeDeps),
    backupHandlers({ backups }),
    recoveryHandlers({
      // Emergency access signs in with manager rights for this sign-in (a forgotten PIN is set again in Settings → Staff).
      onEmergencyAccess: () => staffAccounts.grantEmergency(),
      recovery: createDeskRecovery({
        dataDir: options.dataDir,
        key: encryptionKey,
        clock,
        scrypt: options.recoveryScrypt,
        audit,
        desk: options.deskName ?? os.hostname(),
        practiceName: () => readDeskSettings({ db, desk: '' }).practice_name,
      }),
    }),
    {
      'storage.damage': async () =>
        damaged && {
          message: damaged.message,
          kept_as: path.basename(damaged.keptAs),
          problems: damaged.problems.length,
          recovered_entries: damaged.recoveredEntries,
          recovered_rows: damaged.recoveredRows,
          unreadable_rows: damaged.unreadableRows,
          unreadable_entries: damaged.unreadableEntries,
          missing_records: damaged.missingRecords ?? [],
        },
    },
    collectionHandlers(collectionDepsFor(audit)),
  );
  // Views and creates through the desk are audited here, once, whichever adapter calls;
  // and while the workstation is locked, nothing but the lock answers.
  // and once the desk has staff, only a signed-in person's role's methods (method-roles.ts).
  const bridge = withWorkstationLock(withStaffRoles(withAuditTrail(handlers, audit), { staff: staffAccounts, audit }), lock);

  let started: HostComponent[] = [];
  let closed = false;
  let answerChecked: (answer: BackgroundCheck | null) => void = () => {};
  const checked = new Promise<BackgroundCheck | null>((resolve) => (answerChecked = resolve));
  // Parts that only read (or write elsewhere) keep going while a damaged file waits for the restart.
  const keptWhenDamaged = new Set<HostComponent>([localApi, embeddedSandbox, diskSpace]);
  /**
   * The check found damage, or a restore was staged: no write reaches the file again (creates
   * refused with `refusal`, the parts that write in the background stopped), then the host asks
   * for the restart that sets the file aside (or swaps the backup in).
   */
  async function stopWriting(refusal: ServiceError, reason: HostRestartReason | null): Promise<void> {
    groupCommitFor(db).refuseWrites(refusal);
    const writers = started.filter((component) => !keptWhenDamaged.has(component));
    started = started.filter((component) => keptWhenDamaged.has(component));
    for (const component of writers.reverse()) {
      try {
        await component.stop?.();
      } catch (error) {
        log.write('host.stop_failed', { error: error instanceof Error ? error.name : 'unknown' });
      }
    }
    if (!closed && reason) options.onRestartNeeded?.(reason);
  }
  async function stopWritingDamaged(problems: string[]): Promise<void> {
    const refusal = new ServiceError('service_unavailable', DATABASE_DAMAGED_MESSAGE);
    groupCommitFor(db).refuseWrites(refusal);
    log.write('db.damage_found', { problems: problems.length });
    let marked = true;
    try {
      // Before the restart is asked for: a kill from here on still has the next start set the file aside.
      markDamaged(paths.database, problems);
    } catch (error) {
      // A full disk, say. No restart then (it would only find the damage again, and again):
      // writes stay refused, and the sentence asks the person to close and reopen.
      marked = false;
      log.write('db.damage_mark_failed', { error: (error as { code?: string }).code ?? 'error' });
    }
    await stopWriting(refusal, marked ? 'damaged' : null);
  }
  // The start-up check in flight: closing waits for it (bounded by its time limit), or its
  // connection would still hold the file (and make its -shm again) after the desk has closed.
  let checking: Promise<void> = Promise.resolve();
  let checkTimer: ReturnType<typeof setTimeout> | undefined;
  let checkStarted = false;
  function checkInBackground(): void {
    if (options.startCheck === false) return answerChecked(null);
    const delayMs = options.startCheck?.delayMs ?? 0;
    if (delayMs > 0) checkTimer = setTimeout(runCheck, delayMs);
    else runCheck();
  }
  function runCheck(): void {
    if (closed) return;
    checkStarted = true;
    checking = checkDatabaseOnWorker({ file: paths.database, key: encryptionKey, timeoutMs: options.startCheck === false ? undefined : options.startCheck?.timeoutMs }).then(async (answer) => {
      if (closed) return answerChecked(answer);
      if (answer.state === 'damaged') await stopWritingDamaged(answer.problems);
      else if (answer.state !== 'ok') log.write(`db.check_${answer.state}`, {});
      answerChecked(answer);
    });
  }
  return {
    dataDir: options.dataDir,
    clock,
    ids,
    database,
    service,
    bridge,
    events,
    audit,
    lock,
    staff: staffAccounts,
    log,
    damaged,
    checked,
    async start() {
      for (const component of components) {
        await component.start?.();
        started.push(component);
      }
      // Not awaited: the desk works while SQLite reads every page (0.9 s at 100,000 records).
      checkInBackground();
    },
    async close() {
      if (closed) return;
      closed = true;
      // One part failing to stop (a full disk) must not keep the others, or the database, open.
      const stops = [...started.reverse().map((component) => () => component.stop?.()), () => extraction.close()];
      started = [];
      for (const stop of stops) {
        try {
          await stop();
        } catch (error) {
          log.write('host.stop_failed', { error: error instanceof Error ? error.name : 'unknown' });
        }
      }
      // A check still waiting for its turn is not started: the next start checks the file.
      clearTimeout(checkTimer);
      if (!checkStarted) answerChecked(null);
      await checking.catch(() => undefined);
      database.close();
    },
  };
}
