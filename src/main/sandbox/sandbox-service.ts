import type { Db } from '../db/open-database';
import { roster } from '../db/schema';
import { seedReferenceData } from '../reference/seed-reference-data';
import type { HotFolderExtractor } from '../inbox/hot-folder';
import { createLocalService, type CreateEffects } from '../operations/local-service';
import type { PhotoStore } from '../photos/photo-store';
import type { Clock } from '../support/clock';
import type { IdGenerator } from '../support/ids';
import { getRow, toResource } from '../records/record-store';
import type { ChangesParams, InsuranceCard, InsuranceCardCreate, ReceivedChangesPage, V1Service } from '../../shared/contract';
import { installChangeTriggers, readChanges } from './changes-feed';
import { createClearinghouse, type Clearinghouse } from './clearinghouse';
import type { X12Roster } from '../x12/x12-roster';
import { SEED_ROSTER } from '../reference/seed-data';

export interface SandboxServiceDeps {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  photos: PhotoStore;
  photoUrl(objectKey: string): string;
  /** Resolution delay of discoveries, checks and extractions (default 1 s). */
  delayMs?: number;
  longPendingMs?: number;
  extractor?: HotFolderExtractor;
  log?(message: string): void;
  /** Real 271 answers to serve (`--x12 DIR`). */
  x12?: X12Roster;
}

export interface SandboxService extends V1Service {
  clearinghouse: Clearinghouse;
  changes(params: ChangesParams): Promise<ReceivedChangesPage>;
  /** A card as the vendor's hosted collection page makes it (a patient filling the form): `source: collection_page`. */
  submitFromCollectionPage(input: InsuranceCardCreate): Promise<InsuranceCard>;
}

/** The sandbox is the upstream: nothing to queue, and no `sync` on what it serves. */
const UPSTREAM_EFFECTS: CreateEffects = { record: () => {}, photo: () => {}, sync: false };

/** Providers, clearinghouse entities and the roster of covered people; idempotent. */
export function seedSandbox(db: Db): void {
  seedReferenceData(db, { payers: 'all' });
  db.insert(roster).values([...SEED_ROSTER]).onConflictDoNothing().run();
}

/**
 * The sandbox's V1Service (docs/architecture.md): the host's create path (same validation, same
 * builders) on the sandbox's own database, with the simulated clearinghouse resolving
 * pending records. Every read first resolves what is due, so a client polling with
 * GET sees each transition as soon as its delay has passed.
 */
export function createSandboxService(deps: SandboxServiceDeps): SandboxService {
  seedSandbox(deps.db);
  installChangeTriggers(deps.db);
  const clearinghouse = createClearinghouse(deps);
  const records = createLocalService({ ...deps, effects: UPSTREAM_EFFECTS, extractionEngine: 'upstream' });
  return {
    clearinghouse,
    create: (collection, input, context) => records.create(collection, input, context),
    async get(collection, id) {
      clearinghouse.resolveDue();
      return records.get(collection, id);
    },
    async list(collection, params) {
      clearinghouse.resolveDue();
      return records.list(collection, params);
    },
    uploadPhoto: (photo) => records.uploadPhoto(photo),
    readPhoto: (objectKey) => records.readPhoto(objectKey),
    submitFromCollectionPage: (input) => records.create('insurance_cards', input, { source: 'api', card_source: 'collection_page' }),
    async changes(params) {
      clearinghouse.resolveDue();
      return readChanges({ db: deps.db, present: (collection, id) => toResource(deps, collection, getRow(deps.db, collection, id)) }, params);
    },
  };
}
