import { app, BrowserWindow, dialog, ipcMain, Notification, powerMonitor, protocol, safeStorage, session, shell, systemPreferences, type WebContents } from 'electron';
import { autoUpdater } from 'electron-updater';
import path from 'node:path';
import { createHost, type Host } from './host/create-host';
import { onlyHere } from './sync/only-here';
import { quitWarning } from '../shared/bridge/only-here';
import { RECOVERED_NOTICE, startDeskKey } from './security/desk-key-start';
import { systemClock } from './support/clock';
import { APP_ENTRY_URL, APP_ORIGIN, APP_SCHEME, APP_SCHEME_PRIVILEGES, createAppProtocolHandler, originOf } from './shell/app-protocol';
import { resolveUpdateFeed, startAutoUpdates } from './shell/auto-update';
import { recoveryCodeScreen } from './shell/recovery-code-screen';
import { forwardBridgeEvents, isTrustedSender, registerBridgeIpc } from './shell/ipc-bridge';
import { applyNavigationPolicy } from './shell/navigation-policy';
import { applyPermissionPolicy } from './shell/permission-policy';
import { START_CHECK_DELAY_MS } from './db/background-check';
import { mainWindowOptions, secureWebPreferences } from './shell/web-preferences';

/**
 * The Electron main process: windows, IPC, the app:// protocol and the OS key store. All
 * the work is the host's (createHost), which is plain Node; everything security-relevant
 * here is a plain module in ./shell, unit-tested with the electron module mocked.
 */

// The dev server (electron-vite dev) is an app origin only in unpackaged builds.
const devRendererUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const appOrigins = [APP_ORIGIN, ...(devRendererUrl && originOf(devRendererUrl) ? [originOf(devRendererUrl)!] : [])];
const webPreferences = secureWebPreferences({ preload: path.join(__dirname, '../preload/index.js'), devTools: !app.isPackaged });
const appWindows = new Set<WebContents>();

/**
 * Errors in the main process are reported by kind and stack frames only: the message line
 * could carry PHI (a value in a failed query, a name in a path).
 */
function report(context: string, error: unknown): void {
  const frames = error instanceof Error && error.stack ? error.stack.split('\n').filter((line) => /^\s+at /.test(line)).join('\n') : '';
  console.error(`${context}: ${error instanceof Error ? error.name : typeof error}${frames ? `\n${frames}` : ''}`);
}

function createWindow(): BrowserWindow {
  const window = new BrowserWindow(mainWindowOptions(webPreferences));
  const contents = window.webContents;
  appWindows.add(contents);
  window.once('closed', () => appWindows.delete(contents));
  window.once('ready-to-show', () => window.show());
  void window.loadURL(devRendererUrl ?? APP_ENTRY_URL);
  return window;
}

// Asked only when the OS key store has lost the desk's key; closed once the desk's window is up.
const recoveryScreen = recoveryCodeScreen({ openWindow: (options) => new BrowserWindow(options) });

/** The host, or null when the person closed the recovery code's screen (nothing changed). */
async function openHost(onRestartNeeded: () => void): Promise<Host | null> {
  const dataDir = path.join(app.getPath('userData'), 'data');
  const opened = await startDeskKey({ protector: safeStorage, platform: process.platform, clock: systemClock, askRecoveryCode: recoveryScreen.ask }, { dataDir });
  if (opened === null) return null;
  if (opened.recovered) void dialog.showMessageBox({ type: 'info', message: 'Coverdesk opened with the recovery code', detail: RECOVERED_NOTICE });
  const encryptionKey = opened.key;
  return createHost({
    dataDir,
    encryptionKey,
    onRestartNeeded,
    startCheck: { delayMs: START_CHECK_DELAY_MS },
    // Touch ID where the Mac has it: the OS's own check instead of the PIN.
    systemUnlock:
      process.platform === 'darwin' && systemPreferences.canPromptTouchID()
        ? { name: 'Touch ID', prompt: () => systemPreferences.promptTouchID('unlock Coverdesk').then(() => true, () => false) }
        : undefined,
    notifier: Notification.isSupported()
      ? {
          show(notice, onClick) {
            const shown = new Notification({ title: notice.title, body: notice.body });
            shown.on('click', () => {
              const [first] = BrowserWindow.getAllWindows();
              if (first?.isMinimized()) first.restore();
              first?.focus();
              onClick();
            });
            shown.show();
            return true;
          },
        }
      : undefined,
  });
}

async function main(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    // One process per database: a second start just brings the first window forward.
    app.quit();
    return;
  }
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
  app.enableSandbox();
  app.on('web-contents-created', (_event, contents) => applyNavigationPolicy(contents, { appOrigins, openExternal: (url) => shell.openExternal(url) }));
  process.on('uncaughtException', (error) => report('Unexpected error', error));
  process.on('unhandledRejection', (reason) => report('Unexpected error', reason));

  await app.whenReady();
  if (process.platform === 'win32') app.setAppUserModelId('com.coverdesk.app');

  let host: Host;
  let restartApp = () => {};
  try {
    // Damage found or a backup staged: the next start sets the file aside or swaps the backup in.
    const opened = await openHost(() => restartApp());
    if (opened === null) {
      app.quit();
      return;
    }
    host = opened;
  } catch (error) {
    // Key and database errors are written for the person at the desk and carry no PHI.
    dialog.showErrorBox('Coverdesk cannot start', error instanceof Error ? error.message : 'Coverdesk could not open its data.');
    app.quit();
    return;
  }

  protocol.handle(APP_SCHEME, createAppProtocolHandler({ rendererDir: path.join(__dirname, '../renderer') }));
  applyPermissionPolicy(session.defaultSession, appOrigins);
  registerBridgeIpc({
    ipcMain,
    handlers: host.bridge,
    isTrusted: (event) => isTrustedSender(event, { appOrigins, isAppWindow: (contents) => appWindows.has(contents) }),
    onRefused: (method) => console.warn(`Refused a bridge call (${method}) from a frame that is not Coverdesk's.`),
  });
  forwardBridgeEvents(host.events, (name, payload) => appWindows.forEach((contents) => contents.send(name, payload)));
  powerMonitor.on('lock-screen', () => host.events.emit('session.locked', { reason: 'system_lock' }));
  powerMonitor.on('suspend', () => host.events.emit('session.locked', { reason: 'system_suspend' }));

  await host.start();
  let window = createWindow();
  recoveryScreen.close();
  app.on('second-instance', () => {
    if (window.isDestroyed()) window = createWindow();
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  if (app.isPackaged) {
    startAutoUpdates({ updater: autoUpdater, feed: resolveUpdateFeed(process.env), log: (message) => console.log(message) });
  }
  // However the app quits (the last window, Cmd+Q, the updater's restart), the host closes
  // first: the sync worker's last outcomes, the local API, the database.
  let hostClosed = false;
  let closing: Promise<void> | undefined;
  const quitAfterHost = () => {
    closing ??= host
      .close()
      .catch((error: unknown) => report('Closing Coverdesk', error))
      .finally(() => {
        hostClosed = true;
        app.quit();
      });
  };
  // Quitting while offline with records only on this computer asks first (issue 29, item 6).
  let lastStatus: { online: boolean | null } = { online: null };
  host.events.on('sync.status', (status) => (lastStatus = status));
  let quitConfirmed = false;
  // True: the person chose to stay (offline with records only here, and they were told so).
  const staysOpen = () => {
    const warning = quitWarning(lastStatus, onlyHere(host.database.db), (iso) => new Date(iso).toLocaleString());
    return (
      warning !== null &&
      dialog.showMessageBoxSync({ type: 'warning', buttons: ['Stay open', 'Quit anyway'], defaultId: 0, cancelId: 0, message: 'Some records exist only on this computer', detail: warning }) === 0
    );
  };
  app.on('before-quit', (event) => {
    if (hostClosed) return;
    event.preventDefault();
    if (!quitConfirmed && !closing) {
      if (staysOpen()) return;
      quitConfirmed = true;
    }
    quitAfterHost();
  });
  // Closing the last window quits too: the same question first, and staying opens the desk again.
  app.on('window-all-closed', () => {
    if (!quitConfirmed && !closing) {
      if (staysOpen()) {
        window = createWindow();
        return;
      }
      quitConfirmed = true;
    }
    quitAfterHost();
  });
  restartApp = () => {
    app.relaunch();
    quitConfirmed = true;
    app.quit();
  };
}

/** Settles once the app is up (or has given up); the shell's tests await it. */
export const started: Promise<void> = main().catch((error: unknown) => {
  report('Coverdesk could not start', error);
  app.quit();
});
