import fs from 'node:fs';
import path from 'node:path';
import { createBridgeHandlers, type BridgeHandlers } from '../bridge/handlers';
import { openDatabase, type OpenedDatabase } from '../db/open-database';
import { createLocalService } from '../operations/local-service';
import { createPhotoStore } from '../photos/photo-store';
import { systemClock, type Clock } from '../support/clock';
import { createEventHub, type EventHub } from '../support/event-hub';
import { createIdGenerator, type IdGenerator } from '../support/ids';
import type { V1Service } from '../../shared/contract';
import { seedReferenceData } from './seed-reference-data';

export interface HostOptions {
  dataDir: string;
  clock?: Clock;
  ids?: IdGenerator;
}

export interface Host {
  dataDir: string;
  database: OpenedDatabase;
  /** The host's V1Service: the record and its outbox entry, in one transaction. */
  service: V1Service;
  bridge: BridgeHandlers;
  events: EventHub;
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
 */
export function createHost(options: HostOptions): Host {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? createIdGenerator(clock);
  fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const paths = hostPaths(options.dataDir);

  const database = openDatabase({ file: paths.database });
  seedReferenceData(database.db);
  const events = createEventHub();
  const service = createLocalService({
    db: database.db,
    clock,
    ids,
    photos: createPhotoStore(paths.photos),
    photoUrl: (key) => `/v1/photos/${key}`,
    onChange: (change) => events.emit('records.changed', change),
  });

  return {
    dataDir: options.dataDir,
    database,
    service,
    bridge: createBridgeHandlers({ service, db: database.db }),
    events,
    async close() {
      database.close();
    },
  };
}
