import { app, BrowserWindow, ipcMain, type IpcMainInvokeEvent, type WebPreferences } from 'electron';
import path from 'node:path';
import { BRIDGE_EVENT_NAMES, BRIDGE_METHOD_NAMES } from '../shared/bridge/contract';
import { dispatchBridgeCall } from './bridge/dispatch';
import { createHost, type Host } from './host/create-host';

/** Every window is made from these, and only these, preferences. */
export const WEB_PREFERENCES: WebPreferences = {
  preload: path.join(__dirname, '../preload/index.js'),
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  webSecurity: true,
};

let mainWindow: BrowserWindow | null = null;

/** Only our own top frame may call the host. */
function isTrustedSender(event: IpcMainInvokeEvent): boolean {
  return mainWindow !== null && event.sender === mainWindow.webContents && event.senderFrame === mainWindow.webContents.mainFrame;
}

export function registerBridge(host: Host): void {
  for (const method of BRIDGE_METHOD_NAMES) {
    ipcMain.handle(method, (event, input: unknown) => {
      if (!isTrustedSender(event)) {
        return { ok: false, error: { type: 'permission_error', code: 'forbidden', message: 'This frame may not call Coverdesk.', status: 403 } };
      }
      return dispatchBridgeCall(host.bridge, method, input);
    });
  }
  for (const name of BRIDGE_EVENT_NAMES) {
    host.events.on(name, (payload) => mainWindow?.webContents.send(name, payload));
  }
}

function createWindow(): BrowserWindow {
  const window = new BrowserWindow({ width: 1280, height: 860, show: false, webPreferences: WEB_PREFERENCES });
  window.once('ready-to-show', () => window.show());
  if (process.env.ELECTRON_RENDERER_URL) void window.loadURL(process.env.ELECTRON_RENDERER_URL);
  else void window.loadFile(path.join(__dirname, '../renderer/index.html'));
  return window;
}

async function main(): Promise<void> {
  await app.whenReady();
  const host = createHost({ dataDir: path.join(app.getPath('userData'), 'data') });
  registerBridge(host);
  mainWindow = createWindow();
  app.on('window-all-closed', () => {
    void host.close().finally(() => app.quit());
  });
}

void main();
