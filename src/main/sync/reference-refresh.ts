import { notInArray } from 'drizzle-orm';
import { inTransaction, type Db } from '../db/open-database';
import { clearinghouse_entities, providers } from '../db/schema';
import { MAX_LIST_LIMIT, type ClearinghouseEntity, type Provider, type V1Service } from '../../shared/contract';

/** A runaway upstream (a cursor that never ends) must not keep the worker paging for ever. */
const MAX_PAGES = 200;

/** Every record of a reference list, following cursors. */
async function listAll<K extends 'providers' | 'clearinghouse_entities'>(upstream: V1Service, collection: K) {
  const all = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await upstream.list(collection, { limit: MAX_LIST_LIMIT, ...(cursor ? { cursor } : {}) });
    all.push(...result.data);
    if (!result.has_more || !result.next_cursor) break;
    cursor = result.next_cursor;
  }
  return all;
}

export interface ReferenceData {
  providers: Provider[];
  clearinghouse_entities: ClearinghouseEntity[];
}

export async function fetchReferenceData(upstream: V1Service): Promise<ReferenceData> {
  const [providerList, entityList] = await Promise.all([listAll(upstream, 'providers'), listAll(upstream, 'clearinghouse_entities')]);
  return { providers: providerList as Provider[], clearinghouse_entities: entityList as ClearinghouseEntity[] };
}

/**
 * Replaces the local cache with the upstream's lists, in one transaction so the desk never
 * sees half a list. An empty list is not applied: an upstream answering "no payers at all"
 * is far likelier broken than true, and an empty picker would stop every check offline.
 */
export function replaceReferenceData(db: Db, data: ReferenceData): { providers: number; clearinghouse_entities: number } {
  return inTransaction(db, () => {
    const counts = { providers: 0, clearinghouse_entities: 0 };
    if (data.providers.length > 0) {
      for (const p of data.providers) {
        db.insert(providers).values({ id: p.id, name: p.name, npi: p.npi }).onConflictDoUpdate({ target: providers.id, set: { name: p.name, npi: p.npi } }).run();
      }
      db.delete(providers).where(notInArray(providers.id, data.providers.map((p) => p.id))).run();
      counts.providers = data.providers.length;
    }
    if (data.clearinghouse_entities.length > 0) {
      for (const e of data.clearinghouse_entities) {
        db.insert(clearinghouse_entities)
          .values({ id: e.id, name: e.name, payer_id: e.payer_id })
          .onConflictDoUpdate({ target: clearinghouse_entities.id, set: { name: e.name, payer_id: e.payer_id } })
          .run();
      }
      db.delete(clearinghouse_entities).where(notInArray(clearinghouse_entities.id, data.clearinghouse_entities.map((e) => e.id))).run();
      counts.clearinghouse_entities = data.clearinghouse_entities.length;
    }
    return counts;
  });
}
