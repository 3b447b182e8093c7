import { notInArray } from 'drizzle-orm';
import { inTransaction, type Db } from '../db/open-database';
import { clearinghouse_entities, providers } from '../db/schema';
import { preparedOnce } from '../records/statements';
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
 * A row the upstream did not change is not written: the refresh is the worker's first contact
 * at every start, and rewriting the 1,247-payer directory (a Drizzle insert built per row, every
 * page of the table encrypted again, a durable commit) took a drain's first 200 ms.
 */
export function replaceReferenceData(db: Db, data: ReferenceData): { providers: number; clearinghouse_entities: number } {
  const upsertProvider = preparedOnce(db, 'reference:upsert-provider', () =>
    db.$client.prepare(
      'INSERT INTO providers (id, name, npi) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name, npi = excluded.npi WHERE name IS NOT excluded.name OR npi IS NOT excluded.npi',
    ),
  );
  const upsertEntity = preparedOnce(db, 'reference:upsert-entity', () =>
    db.$client.prepare(
      'INSERT INTO clearinghouse_entities (id, name, payer_id) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name, payer_id = excluded.payer_id WHERE name IS NOT excluded.name OR payer_id IS NOT excluded.payer_id',
    ),
  );
  return inTransaction(db, () => {
    const counts = { providers: 0, clearinghouse_entities: 0 };
    if (data.providers.length > 0) {
      for (const p of data.providers) upsertProvider.run(p.id, p.name, p.npi);
      db.delete(providers).where(notInArray(providers.id, data.providers.map((p) => p.id))).run();
      counts.providers = data.providers.length;
    }
    if (data.clearinghouse_entities.length > 0) {
      for (const e of data.clearinghouse_entities) upsertEntity.run(e.id, e.name, e.payer_id);
      db.delete(clearinghouse_entities).where(notInArray(clearinghouse_entities.id, data.clearinghouse_entities.map((e) => e.id))).run();
      counts.clearinghouse_entities = data.clearinghouse_entities.length;
    }
    return counts;
  });
}
