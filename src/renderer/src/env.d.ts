import type { BridgeApi } from '../../shared/bridge/contract';

declare global {
  interface Window {
    coverdesk: BridgeApi;
  }
}
