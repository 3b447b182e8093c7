import type { BridgeApi } from '../../shared/bridge/contract';

declare global {
  interface Window {
    /**
     * Set by Electron's preload; absent in the browser mode. Only the entry (main.tsx) reads
     * it, to build the BridgeProvider: everything else uses `useBridge()` and the queries.
     */
    coverdesk?: BridgeApi;
  }
}
