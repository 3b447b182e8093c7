import type { BridgeApi, BridgeEvent } from '../../../shared/bridge/contract';
import { buildBridgeApi } from '../../../shared/bridge/bridge-api';
import { webBridgeCall } from './web-bridge-call';

/**
 * The bridge over HTTP and Server-Sent Events, for the browser mode and end-to-end tests.
 * The per-run secret arrives in the URL fragment (never sent to a server by the browser)
 * and is then sent on every call; a 401 means it is not this run's (`onUnauthorized`).
 */
export function createWebBridge(secret: string, onUnauthorized: () => void): BridgeApi {
  const source = new EventSource(`/bridge/events?secret=${encodeURIComponent(secret)}`);
  return buildBridgeApi(webBridgeCall(secret, onUnauthorized), (event: BridgeEvent, listener) => {
    const handler = (message: MessageEvent<string>) => listener(JSON.parse(message.data));
    source.addEventListener(event, handler);
    return () => source.removeEventListener(event, handler);
  });
}
