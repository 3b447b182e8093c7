import { useEffect, useState } from 'react';
import type { ClearinghouseEntity, Provider } from '../../../shared/contract';

export interface ReferenceData {
  providers: Provider[];
  entities: ClearinghouseEntity[];
  loaded: boolean;
}

/** Every page of a reference list: a practice has a handful of providers, payers run to hundreds. */
async function all<T>(list: (input: { limit: number; cursor?: string }) => Promise<{ ok: true; value: { data: T[]; next_cursor: string | null } } | { ok: false }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const result = await list({ limit: 100, ...(cursor ? { cursor } : {}) });
    if (!result.ok) break;
    items.push(...result.value.data);
    if (!result.value.next_cursor) break;
    cursor = result.value.next_cursor;
  }
  return items;
}

let cached: Promise<ReferenceData> | null = null;

/** Providers and payers (clearinghouse entities), read once per page load: they change rarely. */
export function useReferenceData(): ReferenceData {
  const [data, setData] = useState<ReferenceData>({ providers: [], entities: [], loaded: false });
  useEffect(() => {
    cached ??= Promise.all([all((i) => window.coverdesk.providers.list(i)), all((i) => window.coverdesk.clearinghouseEntities.list(i))]).then(
      ([providers, entities]) => ({
        providers: [...providers].sort((a, b) => a.name.localeCompare(b.name)),
        entities: [...entities].sort((a, b) => a.name.localeCompare(b.name)),
        loaded: true,
      }),
    );
    let current = true;
    void cached.then((value) => current && setData(value));
    return () => {
      current = false;
    };
  }, []);
  return data;
}
