import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_EVENT_NAMES, type BridgeEvent } from '../shared/bridge/contract';
import { buildBridgeApi } from '../shared/bridge/bridge-api';
import { createEventRelay } from '../shared/bridge/event-relay';

// Every event channel is listened on from the start, never ipcRenderer itself handed out:
// what arrives before the page listens is held for it (event-relay.ts).
const relay = createEventRelay<BridgeEvent>();
for (const name of BRIDGE_EVENT_NAMES) ipcRenderer.on(name, (_event: unknown, payload: unknown) => relay.arrived(name, payload));

/**
 * Exposes exactly the bridge's named methods as `window.coverdesk`, never ipcRenderer:
 * the renderer can call what the contract lists and nothing else.
 */
const api = buildBridgeApi(
  (method, input) => ipcRenderer.invoke(method, input),
  (event: BridgeEvent, listener) => {
    if (!BRIDGE_EVENT_NAMES.includes(event)) throw new Error(`Unknown bridge event ${String(event)}`);
    return relay.listen(event, listener);
  },
);

contextBridge.exposeInMainWorld('coverdesk', api);
