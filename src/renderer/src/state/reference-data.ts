import { useQuery } from '@tanstack/react-query';
import type { ClearinghouseEntity, Provider } from '../../../shared/contract';
import { useBridge } from '../bridge/bridge-provider';
import { bridgeKey, readBridge } from '../bridge/query-client';

export interface ReferenceData {
  providers: Provider[];
  entities: ClearinghouseEntity[];
  loaded: boolean;
}

type Page<T> = { data: T[]; next_cursor: string | null };

/**
 * Every page of a reference list, by name: a practice has a handful of providers, payers run
 * to hundreds. A page that fails ends the list with what was read (as it always did).
 */
async function allByName<T extends { name: string }>(list: (input: { limit: number; cursor?: string }) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    let value: Page<T>;
    try {
      value = await list({ limit: 100, ...(cursor ? { cursor } : {}) });
    } catch {
      break;
    }
    items.push(...value.data);
    if (!value.next_cursor) break;
    cursor = value.next_cursor;
  }
  return items.sort((a, b) => a.name.localeCompare(b.name));
}

const NONE: never[] = [];

// Read once per start of the desk: they change rarely (and never from the desk).
const ONCE = { staleTime: Infinity, gcTime: Infinity } as const;

/** Providers and payers (clearinghouse entities), read once and shared by every screen. */
export function useReferenceData(): ReferenceData {
  const bridge = useBridge();
  const providers = useQuery({ queryKey: bridgeKey('providers.list', 'all-pages'), queryFn: () => allByName((input) => readBridge(bridge, 'providers.list', input)), ...ONCE });
  const entities = useQuery({ queryKey: bridgeKey('clearinghouseEntities.list', 'all-pages'), queryFn: () => allByName((input) => readBridge(bridge, 'clearinghouseEntities.list', input)), ...ONCE });
  return { providers: providers.data ?? NONE, entities: entities.data ?? NONE, loaded: providers.isSuccess && entities.isSuccess };
}
