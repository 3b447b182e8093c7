import type { BridgeApi, BridgeEvent } from '../../../shared/bridge/contract';
import { buildBridgeApi } from '../../../shared/bridge/bridge-api';
import { createEventRelay, EVENT_NAMES } from '../../../shared/bridge/event-relay';
import { EVENT_STREAM_OPENED } from '../../../shared/bridge/web-paths';
import type { EventsGap } from './events-gap';
import { webBridgeCall } from './web-bridge-call';

/**
 * The bridge over HTTP and Server-Sent Events, for the browser mode and end-to-end tests.
 * The per-run secret arrives in the URL fragment (never sent to a server by the browser)
 * and is then sent on every call; a 401 means it is not this run's (`onUnauthorized`). `gap`
 * hears of every answer and of the stream's opening: the page's first reads tell the same one.
 */
export function createWebBridge(secret: string, onUnauthorized: () => void, gap: EventsGap): BridgeApi {
  const source = new EventSource(`/bridge/events?secret=${encodeURIComponent(secret)}`);
  source.addEventListener(EVENT_STREAM_OPENED, (message: MessageEvent<string>) => gap.opened((JSON.parse(message.data) as { told: number }).told));
  // Listened on from the start: what arrives before the page listens is held for it (event-relay.ts).
  const relay = createEventRelay<BridgeEvent>();
  for (const name of EVENT_NAMES) source.addEventListener(name, (message: MessageEvent<string>) => relay.arrived(name, JSON.parse(message.data)));
  return buildBridgeApi(webBridgeCall(secret, onUnauthorized, gap), (event: BridgeEvent, listener) => relay.listen(event, listener));
}
