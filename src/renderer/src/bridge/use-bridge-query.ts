import { hashKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { BridgeError, BridgeInput, BridgeMethod, BridgeOutput } from '../../../shared/bridge/contract';
import { useBridge } from './bridge-provider';
import { asBridgeError, bridgeKey, bridgeQueryOptions, refreshQuery, type BridgeQueryOptions } from './query-client';

export interface BridgeQuery<T> {
  data: T | null;
  error: BridgeError | null;
  /** True until the first answer; refreshes keep showing the previous data. */
  loading: boolean;
  /** True while `keepPrevious` shows the answer to an earlier input, this one's not in yet. */
  previous: boolean;
  reload(): void;
}

/**
 * A bridge read through the query layer, keyed by method and input; `input` null: nothing to
 * read yet. Host events refresh it (bridge-invalidation.ts), and so does `reload()`.
 */
export function useBridgeQuery<M extends BridgeMethod>(method: M, input: BridgeInput<M> | null, options: BridgeQueryOptions<M> = {}): BridgeQuery<BridgeOutput<M>> {
  const bridge = useBridge();
  const client = useQueryClient();
  const query = useQuery(bridgeQueryOptions(bridge, method, input, options));
  const hash = hashKey(bridgeKey(method, input));
  const reload = useCallback(() => {
    const found = client.getQueryCache().get(hash);
    if (found) refreshQuery(client, found);
  }, [client, hash]);
  return { data: query.data ?? null, error: query.error ? asBridgeError(query.error) : null, loading: query.isLoading, previous: query.isPlaceholderData, reload };
}
