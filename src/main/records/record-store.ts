import { desc, lt } from 'drizzle-orm';
import type { Db } from '../db/open-database';
import {
  COLLECTIONS,
  DEFAULT_LIST_LIMIT,
  ListParams,
  type Collection,
  type ListPage,
  type ResourceOf,
} from '../../shared/contract';
import { notFound, parseOrThrow } from '../../shared/service-error';
import { findById, insertRow } from './statements';
import { TABLES, type NewRowOf, type RowOf } from './tables';

export interface RecordStoreDeps {
  db: Db;
  /** Where a caller of this channel can download a photo by its object key. */
  photoUrl(objectKey: string): string;
}

/** Columns that are storage detail, never part of the resource. */
const STORAGE_ONLY = new Set(['remote_id', 'front_photo_object_key', 'back_photo_object_key']);

/** A stored row as the /v1 resource: nulls become absent fields, object keys become URLs. */
export function toResource<K extends Collection>(deps: Pick<RecordStoreDeps, 'photoUrl'>, collection: K, row: RowOf<K>): ResourceOf<K> {
  const resource: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (value !== null && value !== undefined && !STORAGE_ONLY.has(key)) resource[key] = value;
  }
  if (collection === 'insurance_cards') {
    const card = row as RowOf<'insurance_cards'>;
    if (card.front_photo_object_key) resource.front_photo_download_url = deps.photoUrl(card.front_photo_object_key);
    if (card.back_photo_object_key) resource.back_photo_download_url = deps.photoUrl(card.back_photo_object_key);
  }
  return resource as ResourceOf<K>;
}

export function findRow<K extends Collection>(db: Db, collection: K, id: string): RowOf<K> | undefined {
  return findById(db, collection, TABLES[collection])(id) as RowOf<K> | undefined;
}

export function insertRecord<K extends Collection>(db: Db, collection: K, row: NewRowOf<K>): void {
  insertRow(db, collection, TABLES[collection])(row as never);
}

export function getRow<K extends Collection>(db: Db, collection: K, id: string): RowOf<K> {
  const row = findRow(db, collection, id);
  if (!row) throw notFound(COLLECTIONS[collection].noun, id);
  return row;
}

/**
 * Newest first. Ids are ULIDs, so id order is creation order and the cursor is simply the
 * last id of the page: stable under inserts, no offset drift.
 */
export function listRows<K extends Collection>(db: Db, collection: K, params: ListParams = {}): ListPage<RowOf<K>> {
  const { limit = DEFAULT_LIST_LIMIT, cursor } = parseOrThrow(ListParams, params);
  const table = TABLES[collection];
  const rows = db
    .select()
    .from(table)
    .where(cursor ? lt(table.id, cursor) : undefined)
    .orderBy(desc(table.id))
    .limit(limit + 1)
    .all() as RowOf<K>[];
  const has_more = rows.length > limit;
  const data = has_more ? rows.slice(0, limit) : rows;
  return { data, has_more, next_cursor: has_more ? data[data.length - 1].id : null };
}
