import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { BRIDGE_EVENT_NAMES, BRIDGE_METHOD_NAMES, type BridgeEvent, type BridgeResult } from '../../shared/bridge/contract';
import { ServiceError } from '../../shared/service-error';
import { dispatchBridgeCall, toBridgeError } from '../bridge/dispatch';
import type { BridgeHandlers } from '../bridge/handlers';
import type { EventHub } from '../support/event-hub';
import { originOf } from './app-protocol';

export interface SenderPolicy {
  appOrigins: readonly string[];
  /** Whether these web contents belong to a window Coverdesk opened. */
  isAppWindow(contents: WebContents): boolean;
}

/**
 * Only the top frame of one of our windows, showing one of our pages, may call the host.
 * An iframe, a page that navigated elsewhere, or a frame already gone is refused.
 */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>, policy: SenderPolicy): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.isDestroyed()) return false;
  if (frame.parent !== null) return false;
  if (!policy.isAppWindow(event.sender)) return false;
  const origin = originOf(frame.url);
  return origin !== null && policy.appOrigins.includes(origin);
}

const FORBIDDEN = toBridgeError(new ServiceError('forbidden', 'This page may not call Coverdesk.'));

/**
 * One `ipcMain.handle` per bridge method: the sender is checked, then the call goes through
 * `dispatchBridgeCall`, which validates the input with the contract's zod schema and answers
 * `{ok, value} | {ok, error}`. Returns a function that removes the handlers.
 */
export function registerBridgeIpc(deps: {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  handlers: BridgeHandlers;
  isTrusted(event: IpcMainInvokeEvent): boolean;
  /** Told of refused calls (the method only: the input may be PHI). */
  onRefused?(method: string): void;
}): () => void {
  for (const method of BRIDGE_METHOD_NAMES) {
    deps.ipcMain.handle(method, async (event, input: unknown): Promise<BridgeResult<unknown>> => {
      if (!deps.isTrusted(event)) {
        deps.onRefused?.(method);
        return { ok: false, error: FORBIDDEN };
      }
      return dispatchBridgeCall(deps.handlers, method, input);
    });
  }
  return () => BRIDGE_METHOD_NAMES.forEach((method) => deps.ipcMain.removeHandler(method));
}

/** Pushes the host's events to the app's windows (each window's preload passes on the payload only). */
export function forwardBridgeEvents(events: EventHub, send: (event: BridgeEvent, payload: unknown) => void): () => void {
  const offs = BRIDGE_EVENT_NAMES.map((name) => events.on(name, (payload) => send(name, payload)));
  return () => offs.forEach((off) => off());
}
