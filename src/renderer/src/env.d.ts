import type { BridgeApi } from '../../shared/bridge/contract';
import type { FirstReads } from './today/first-reads';

declare global {
  interface Window {
    /**
     * Set by Electron's preload; absent in the browser mode. Only the entry (main.tsx) reads
     * it, to build the BridgeProvider: everything else uses `useBridge()` and the queries.
     */
    coverdesk?: BridgeApi;
    /** The first screen's reads, sent by the page's first script (`first-read.ts`); `main.tsx` takes them over. */
    coverdeskFirstReads?: FirstReads;
  }
}
