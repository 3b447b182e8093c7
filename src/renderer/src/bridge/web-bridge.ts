import { buildBridgeApi, type BridgeApi, type BridgeEvent, type BridgeResult } from '../../../shared/bridge/contract';

/**
 * The bridge over HTTP and Server-Sent Events, for the browser mode and end-to-end tests.
 * The per-run secret arrives in the URL fragment (never sent to a server by the browser)
 * and is then sent on every call; a 401 means it is not this run's (`onUnauthorized`).
 */
export function createWebBridge(secret: string, onUnauthorized: () => void): BridgeApi {
  const source = new EventSource(`/bridge/events?secret=${encodeURIComponent(secret)}`);
  return buildBridgeApi(
    async (method, input) => {
      try {
        const response = await fetch(`/bridge/${method}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Coverdesk-Secret': secret },
          body: JSON.stringify(input ?? {}),
        });
        // Only a missing or wrong secret answers 401 here (bridge errors travel in a 200).
        if (response.status === 401) onUnauthorized();
        return (await response.json()) as BridgeResult<unknown>;
      } catch {
        return {
          ok: false,
          error: { type: 'api_error', code: 'host_unreachable', message: 'Coverdesk is not running. Start it again, then retry.', status: 0 },
        };
      }
    },
    (event: BridgeEvent, listener) => {
      const handler = (message: MessageEvent<string>) => listener(JSON.parse(message.data));
      source.addEventListener(event, handler);
      return () => source.removeEventListener(event, handler);
    },
  );
}
