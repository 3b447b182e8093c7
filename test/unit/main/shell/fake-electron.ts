import { EventEmitter } from 'node:events';
import type { IpcMainInvokeEvent, Session, WebContents, WebFrameMain } from 'electron';

/**
 * Stand-ins for the few Electron objects the shell modules receive. Electron's binary
 * cannot run here, so these record what the modules do with them; nothing of ours is faked.
 */

export interface FakeWebContents extends EventEmitter {
  id: number;
  windowOpenHandler?: (details: { url: string }) => { action: 'allow' | 'deny' };
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'allow' | 'deny' }): void;
  send(channel: string, payload: unknown): void;
  sent: [string, unknown][];
}

let nextId = 1;
export function fakeWebContents(): FakeWebContents {
  const contents = new EventEmitter() as FakeWebContents;
  contents.id = nextId++;
  contents.sent = [];
  contents.setWindowOpenHandler = (handler) => {
    contents.windowOpenHandler = handler;
  };
  contents.send = (channel, payload) => contents.sent.push([channel, payload]);
  return contents;
}

export function asWebContents(contents: FakeWebContents): WebContents {
  return contents as unknown as WebContents;
}

/** An event whose preventDefault is recorded, as Electron's navigation events carry. */
export function navigationEvent(url?: string) {
  return { url, defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
}

export function fakeFrame(url: string, options: { parent?: WebFrameMain | null; destroyed?: boolean } = {}): WebFrameMain {
  return { url, parent: options.parent ?? null, isDestroyed: () => options.destroyed ?? false } as unknown as WebFrameMain;
}

export function invokeEvent(sender: FakeWebContents, senderFrame: WebFrameMain | null): IpcMainInvokeEvent {
  return { sender: asWebContents(sender), senderFrame } as unknown as IpcMainInvokeEvent;
}

export type IpcHandler = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>;
export function fakeIpcMain() {
  const handlers = new Map<string, IpcHandler>();
  return {
    handlers,
    handle(channel: string, handler: IpcHandler) {
      if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      handlers.set(channel, handler);
    },
    removeHandler(channel: string) {
      handlers.delete(channel);
    },
  };
}

export function fakeSession() {
  const recorded: {
    request?: (contents: unknown, permission: string, callback: (granted: boolean) => void, details: Record<string, unknown>) => void;
    check?: (contents: unknown, permission: string, origin: string, details: Record<string, unknown>) => boolean;
    device?: (details: unknown) => boolean;
  } = {};
  const session = {
    setPermissionRequestHandler: (handler: typeof recorded.request) => (recorded.request = handler),
    setPermissionCheckHandler: (handler: typeof recorded.check) => (recorded.check = handler),
    setDevicePermissionHandler: (handler: typeof recorded.device) => (recorded.device = handler),
  };
  /** What the request handler answers for one request. */
  const request = (permission: string, details: Record<string, unknown>) =>
    new Promise<boolean>((resolve) => recorded.request!(null, permission, resolve, { isMainFrame: true, ...details }));
  const check = (permission: string, origin: string, details: Record<string, unknown> = {}) =>
    recorded.check!(null, permission, origin, { isMainFrame: true, ...details });
  return { session: session as unknown as Session, recorded, request, check };
}
