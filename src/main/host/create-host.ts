import fs from 'node:fs';
import path from 'node:path';
import { auditHandlers } from '../bridge/audit-handlers';
import { deskHandlers } from '../bridge/desk-handlers';
import { extractionHandlers } from '../bridge/extraction-handlers';
import { composeBridgeHandlers, type BridgeHandlers } from '../bridge/handlers';
import { inboxHandlers } from '../bridge/inbox-handlers';
import { localApiHandlers } from '../bridge/local-api-handlers';
import { recordHandlers } from '../bridge/record-handlers';
import { openDatabase, type OpenedDatabase } from '../db/open-database';
import { createExtractionEngine } from '../extraction/extraction-engine';
import { createExtractionRunner } from '../extraction/extraction-runner';
import { createHotFolderComponent } from '../inbox/hot-folder-component';
import { createLocalApi } from '../local-api/local-api';
import { createLocalService } from '../operations/local-service';
import { createPhotoStore } from '../photos/photo-store';
import { createAuditLog, workstationUser, type AuditLog } from '../security/audit-log';
import { withAuditTrail } from '../security/audited-bridge';
import { withAuditedService } from '../security/audited-service';
import { databaseFileState } from '../security/database-cipher';
import { keyFilePaths, readOrCreateKeyFile } from '../security/database-key';
import { systemClock, type Clock } from '../support/clock';
import { createEventHub, type EventHub } from '../support/event-hub';
import { createHostLog, logFilePath, type HostLog } from '../support/host-log';
import { createIdGenerator, type IdGenerator } from '../support/ids';
import type { V1Service } from '../../shared/contract';
import { seedReferenceData } from './seed-reference-data';
import { settingsHandlers } from '../bridge/settings-handlers';
import { syncHandlers } from '../bridge/sync-handlers';
import { createFileSecretStore, type SecretStore } from '../settings/secret-store';
import { createSettingsStore } from '../settings/settings-store';
import { createEmbeddedSandbox } from '../sync/embedded-sandbox';
import { createSyncComponent, type SyncHostOptions } from '../sync/sync-component';

export interface HostOptions {
  dataDir: string;
  clock?: Clock;
  ids?: IdGenerator;
  /**
   * The upstream /v1 service (e.g. from `--upstream URL --api-key KEY`). Absent: the one
   * saved in settings, else the sandbox embedded on a loopback port (sandbox mode).
   */
  upstream?: { url: string; apiKey: string };
  /** The local API for scanner software; TCP only with `tcpPort`. `false`: not started. */
  localApi?: false | { tcpPort?: number };
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
  /** Where the upstream API key is kept; absent: a user-only file in the data dir. */
  secrets?: SecretStore;
  /** Sync tuning (tests: short backoffs, a seeded jitter); the defaults are the product's. */
  sync?: SyncHostOptions;
  /** Where the host logs; absent: `<dataDir>/logs/coverdesk.log`. */
  log?: HostLog;
}

/**
 * A part of the host that runs in the background once started (sync worker, local API,
 * hot folder, embedded sandbox). Built by createHost, started by `host.start()`, stopped
 * in reverse order by `host.close()`.
 */
export interface HostComponent {
  name: string;
  start?(): Promise<void>;
  stop?(): Promise<void>;
}

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
  log: HostLog;
  /** Starts the background components. Tests of the store alone never call it. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function hostPaths(dataDir: string) {
  return {
    database: path.join(dataDir, 'coverdesk.sqlite'),
    photos: path.join(dataDir, 'photos'),
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

  const encryptionKey =
    options.encryptionKey ??
    readOrCreateKeyFile({ file: keyFilePaths(options.dataDir).plain, mayCreate: databaseFileState(paths.database) !== 'encrypted' });
  const database = openDatabase({ file: paths.database, key: encryptionKey });
  const db = database.db;
  seedReferenceData(db);
  const log = options.log ?? createHostLog({ file: logFilePath(options.dataDir), clock });
  const actor = options.actor ?? workstationUser();
  const audit = createAuditLog({ db, clock, actor });
  const events = createEventHub();
  const photoUrl = (key: string) => `/v1/photos/${key}`;
  const service = createLocalService({
    db,
    clock,
    ids,
    photos: createPhotoStore(paths.photos, { key: encryptionKey }),
    photoUrl,
    onChange: (change) => events.emit('records.changed', change),
  });

  const components: HostComponent[] = [];
  const localApi = createLocalApi({
    dataDir: options.dataDir,
    db,
    // Scanner software reads and writes PHI too: the same audit trail, naming the channel.
    service: withAuditedService(service, createAuditLog({ db, clock, actor: `${actor} (local API)` })),
    clock,
    ids,
    tcpPort: options.localApi ? options.localApi.tcpPort : undefined,
    log: log.forComponent('local_api'),
  });
  if (options.localApi !== false) components.push(localApi);
  // On-device card reading: the OCR worker starts with the first card, not with the host.
  const extraction = createExtractionEngine({ log: log.forComponent('extraction') });
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
  const embeddedSandbox = createEmbeddedSandbox({ dataDir: options.dataDir, delayMs: options.sync?.sandboxDelayMs, encryptionKey });
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
  });
  // Stopped in reverse: the worker before the sandbox it may be talking to.
  components.push(embeddedSandbox, sync);
  const handlers = composeBridgeHandlers(
    syncHandlers({ db, clock, sync }),
    settingsHandlers({ settings, sync, hotFolder }),
    recordHandlers({ service }),
    inboxHandlers({ db }),
    localApiHandlers({ localApi }),
    extractionHandlers({ service, engine: extraction }),
    deskHandlers({ db, photoUrl }),
    auditHandlers({ audit, db }),
  );
  // Views and creates through the desk are audited here, once, whichever adapter calls.
  const bridge = withAuditTrail(handlers, audit);

  let started: HostComponent[] = [];
  let closed = false;
  return {
    dataDir: options.dataDir,
    clock,
    ids,
    database,
    service,
    bridge,
    events,
    audit,
    log,
    async start() {
      for (const component of components) {
        await component.start?.();
        started.push(component);
      }
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
      database.close();
    },
  };
}
