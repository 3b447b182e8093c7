import { groupCommitFor } from '../db/group-commit';
import { refusingWhenFull } from '../storage/disk-full';
import { photos } from '../db/schema';
import { enqueue, syncInfoFor } from '../outbox/outbox-store';
import { assertDecodableImage } from '../photos/image-check';
import { validatePhoto, type PhotoStore } from '../photos/photo-store';
import { getRow, insertRecord, listRows, toResource } from '../records/record-store';
import type { RowOf } from '../records/tables';
import {
  COLLECTIONS,
  type CallContext,
  type Collection,
  type CreatableCollection,
  type CreateInputOf,
  type ListParams,
  type ResourceOf,
  type V1Service,
} from '../../shared/contract';
import { parseOrThrow } from '../../shared/service-error';
import { buildRecord, type BuildDeps } from './create-builders';

export interface RecordChange {
  collection: Collection | 'photos';
  id: string;
}

export interface LocalServiceDeps extends BuildDeps {
  photos: PhotoStore;
  photoUrl(objectKey: string): string;
  /** Told after each commit, so the UI and the sync worker react without polling. */
  onChange?(change: RecordChange): void;
  /** What else a create writes in its transaction; the host's outbox when absent. */
  effects?: CreateEffects;
}

/** A record just built and inserted, inside its create's transaction. */
export interface CreatedRecord {
  collection: CreatableCollection;
  id: string;
  input: Record<string, unknown>;
  refs: string[];
}

/**
 * What a create does besides inserting the record, in the same transaction. The host
 * queues the record upstream (and serves `sync`); the sandbox is the upstream, so it does
 * neither and lets its clearinghouse resolve pending records.
 */
export interface CreateEffects {
  record(created: CreatedRecord): void;
  photo(objectKey: string): void;
  /** Whether served records say how far they got upstream (`sync`). */
  sync: boolean;
}

/** The host's effects: every record and photo gets its outbox entry (docs/decisions.md, local data and the outbox). */
export function outboxEffects(deps: Pick<LocalServiceDeps, 'db' | 'clock' | 'ids'>): CreateEffects {
  return {
    record: ({ collection, id, input, refs }) => void enqueue(deps, { collection, record_id: id, payload: input, refs }),
    photo: (objectKey) => void enqueue(deps, { collection: 'photos', record_id: objectKey, payload: { object_key: objectKey }, refs: [] }),
    sync: true,
  };
}

/**
 * One create, inside the caller's transaction: the builder, the row, its effects (the
 * host: its outbox entry). Also used where a create is part of a larger write that must
 * land whole (an appointment import creating the patients it names).
 */
export function insertCreated<K extends CreatableCollection>(
  deps: LocalServiceDeps | (BuildDeps & Pick<LocalServiceDeps, 'photoUrl'>),
  effects: CreateEffects,
  collection: K,
  input: CreateInputOf<K>,
  context: CallContext,
): ResourceOf<K> & { sync?: unknown } {
  const built = buildRecord(deps, collection, input, context);
  insertRecord(deps.db, collection, built.row);
  effects.record({ collection, id: built.row.id, input: input as Record<string, unknown>, refs: built.refs });
  // Just written and queued: no need to read either back.
  const created = toResource(deps, collection, built.row as RowOf<K>) as ResourceOf<K> & { sync?: unknown };
  if (effects.sync) created.sync = { state: 'queued', remote_id: null, error: null };
  return created;
}

/**
 * The create path shared by the host and the sandbox: validation by the contract's
 * schemas, the create builders, then the record and its effects (the host: its outbox
 * entry) in one transaction (a savepoint of a group commit). Everything the desk or a scanner creates goes through here.
 */
export function createLocalService(deps: LocalServiceDeps): V1Service {
  const { db } = deps;
  const effects = deps.effects ?? outboxEffects(deps);
  const commits = groupCommitFor(db);

  function present<K extends Collection>(collection: K, rows: RowOf<K>[]): ResourceOf<K>[] {
    const withRemote = rows as unknown as { id: string; remote_id?: string | null }[];
    const hasSync = effects.sync && withRemote.length > 0 && 'remote_id' in withRemote[0];
    const sync = hasSync ? syncInfoFor(db, withRemote.map((r) => ({ id: r.id, remote_id: r.remote_id ?? null }))) : undefined;
    return rows.map((row) => {
      const resource = toResource(deps, collection, row) as ResourceOf<K> & { sync?: unknown };
      if (sync) resource.sync = sync.get((row as { id: string }).id);
      return resource;
    });
  }

  return {
    async create<K extends CreatableCollection>(collection: K, rawInput: unknown, context: CallContext) {
      const input = parseOrThrow(COLLECTIONS[collection].create, rawInput);
      // Creates that arrive together share one durable commit; each is answered after it.
      const resource = await refusingWhenFull(() =>
        commits.run(() => {
          const created = insertCreated(deps, effects, collection, input as CreateInputOf<K>, context);
          context.commit?.(created);
          return created;
        }),
      );
      deps.onChange?.({ collection, id: resource.id });
      return resource;
    },

    async get(collection, id) {
      return present(collection, [getRow(db, collection, id)])[0];
    },

    async list(collection, params?: ListParams) {
      const page = listRows(db, collection, params);
      return { ...page, data: present(collection, page.data) };
    },

    async uploadPhoto(upload) {
      validatePhoto(upload);
      await assertDecodableImage(upload.bytes);
      // A database found damaged refuses before the photo's file is written: no file without its row.
      commits.assertWritable();
      // A photo the disk has no room for is refused as a full disk, as its row would be.
      const stored = await refusingWhenFull(async () => deps.photos.put(upload));
      const created = await refusingWhenFull(() =>
        commits.run(() => {
          const inserted = db
            .insert(photos)
            .values({ ...stored, created_at: deps.clock.now().toISOString() })
            .onConflictDoNothing()
            .run();
          // The same bytes twice are one photo: one row, one trip upstream.
          if (inserted.changes === 0) return false;
          effects.photo(stored.object_key);
          return true;
        }),
      );
      if (created) deps.onChange?.({ collection: 'photos', id: stored.object_key });
      return { object_key: stored.object_key };
    },

    async readPhoto(objectKey) {
      return deps.photos.read(objectKey);
    },
  };
}
