import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_EVENT_NAMES, type BridgeEvent } from '../shared/bridge/contract';
import { buildBridgeApi } from '../shared/bridge/bridge-api';

/**
 * Exposes exactly the bridge's named methods as `window.coverdesk`, never ipcRenderer:
 * the renderer can call what the contract lists and nothing else.
 */
const api = buildBridgeApi(
  (method, input) => ipcRenderer.invoke(method, input),
  (event: BridgeEvent, listener) => {
    if (!BRIDGE_EVENT_NAMES.includes(event)) throw new Error(`Unknown bridge event ${String(event)}`);
    const wrapped = (_event: unknown, payload: unknown) => listener(payload);
    ipcRenderer.on(event, wrapped);
    return () => {
      ipcRenderer.removeListener(event, wrapped);
    };
  },
);

contextBridge.exposeInMainWorld('coverdesk', api);
