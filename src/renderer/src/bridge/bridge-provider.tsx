import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import type { BridgeApi } from '../../../shared/bridge/contract';
import { watchBridgeEvents } from './bridge-invalidation';

const BridgeContext = createContext<BridgeApi | null>(null);

/**
 * The one way the renderer reaches the host: the typed bridge (Electron's preload or the web
 * bridge, chosen once by the entry; a test passes its own) and the query layer that reads
 * through it, refreshed by the host's events for as long as this is mounted.
 */
export function BridgeProvider({ bridge, queries, children }: { bridge: BridgeApi; queries: QueryClient; children: ReactNode }) {
  useEffect(() => watchBridgeEvents(bridge, queries), [bridge, queries]);
  return (
    <BridgeContext.Provider value={bridge}>
      <QueryClientProvider client={queries}>{children}</QueryClientProvider>
    </BridgeContext.Provider>
  );
}

/** The bridge, for changes (creates, updates) and the few reads that are not queries. */
export function useBridge(): BridgeApi {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error('useBridge must be used inside <BridgeProvider>');
  return bridge;
}
