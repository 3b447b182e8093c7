import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_ENTRY_URL, APP_ORIGIN } from '@src/main/shell/app-protocol';
import { RECOVERY_CODE_ACTION } from '@src/main/shell/recovery-code-screen';
import { newRecoveryCode } from '@src/main/security/recovery-code';
import { CONTENT_SECURITY_POLICY } from '@src/main/shell/content-security-policy';
import { databaseFileState } from '@src/main/db/database-cipher';
import { BRIDGE_METHOD_NAMES } from '@src/shared/bridge/contract';
import { makeTempDir } from '@test/support/temp-dir';
import { fakeFrame, fakeIpcMain, fakeSession, fakeWebContents, invokeEvent, navigationEvent, type FakeWebContents } from './fake-electron';

/**
 * src/main/index.ts with the `electron` module mocked: the real host, database and shell
 * modules, composed by the real entry point, observed through the calls it makes.
 */
// The mocked modules are these two objects; each start fills them with that test's fakes.
const electron = vi.hoisted(() => ({}) as Record<string, unknown>);
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the fake updater holds whatever each test installs
const updater = vi.hoisted(() => ({}) as { autoUpdater: Record<string, any> });
vi.mock('electron', () => electron);
vi.mock('electron-updater', () => updater);

interface FakeWindow {
  options: { title?: string; webPreferences: Record<string, unknown> };
  webContents: FakeWebContents;
  loadURL: ReturnType<typeof vi.fn>;
  close: ReturnType<typeof vi.fn>;
}

function fakeElectron(dataRoot: string, backend: string) {
  const appEvents = new EventEmitter();
  const windows: FakeWindow[] = [];
  const ipcMain = fakeIpcMain();
  const session = fakeSession();
  const powerMonitor = new EventEmitter();
  const protocolHandlers = new Map<string, (request: Request) => Promise<Response>>();
  class BrowserWindow extends EventEmitter {
    webContents = fakeWebContents();
    loadURL = vi.fn(async () => undefined);
    loadFile = vi.fn(async () => undefined);
    show = vi.fn();
    close = vi.fn(() => this.emit('closed'));
    focus = vi.fn();
    restore = vi.fn();
    isDestroyed = () => false;
    isMinimized = () => false;
    constructor(readonly options: FakeWindow['options']) {
      super();
      windows.push(this as unknown as FakeWindow);
    }
  }
  const module = {
    app: {
      isPackaged: true,
      requestSingleInstanceLock: vi.fn(() => true),
      enableSandbox: vi.fn(),
      whenReady: vi.fn(async () => undefined),
      getPath: vi.fn((name: string) => (name === 'userData' ? dataRoot : os.tmpdir())),
      setAppUserModelId: vi.fn(),
      quit: vi.fn(),
      relaunch: vi.fn(),
      on: (event: string, listener: (...args: unknown[]) => void) => appEvents.on(event, listener),
    },
    BrowserWindow,
    // Asked only when there is something to warn of; "Quit anyway" unless a test says otherwise.
    dialog: { showErrorBox: vi.fn(), showMessageBoxSync: vi.fn(() => 1), showMessageBox: vi.fn(async () => ({ response: 0 })) },
    ipcMain,
    powerMonitor,
    protocol: {
      registerSchemesAsPrivileged: vi.fn(),
      handle: vi.fn((scheme: string, handler: (request: Request) => Promise<Response>) => protocolHandlers.set(scheme, handler)),
    },
    // Reversible but not the identity: the wrapped file must not hold the key as is.
    safeStorage: {
      getSelectedStorageBackend: () => backend,
      isAsyncEncryptionAvailable: async () => true,
      encryptStringAsync: async (text: string) => Buffer.from(`wrapped:${Buffer.from(text).toString('base64')}`),
      decryptStringAsync: async (data: Buffer) => ({ shouldReEncrypt: false, result: Buffer.from(data.toString().replace(/^wrapped:/, ''), 'base64').toString() }),
    },
    session: { defaultSession: session.session },
    shell: { openExternal: vi.fn(async () => undefined) },
    // No OS notifications and no Touch ID here: the page's toasts and the PIN stand in.
    Notification: { isSupported: () => false },
    systemPreferences: { canPromptTouchID: () => false },
  };
  return { module, appEvents, windows, ipcMain, session, powerMonitor, protocolHandlers };
}


let temp: { dir: string; cleanup(): void };
let fake: ReturnType<typeof fakeElectron>;
/** The app launched; `started` settles once it is up (or gave up): a start that asks a question waits for it. */
async function launch(backend = 'gnome_libsecret', options: { keyStoreForgot?: boolean } = {}) {
  fake = fakeElectron(temp.dir, backend);
  // A Windows password reset: DPAPI no longer opens what it wrapped before.
  if (options.keyStoreForgot) fake.module.safeStorage.decryptStringAsync = async () => Promise.reject(new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.'));
  Object.assign(electron, fake.module);
  updater.autoUpdater = { autoDownload: false, autoInstallOnAppQuit: false, setFeedURL: vi.fn(), checkForUpdatesAndNotify: vi.fn(async () => null) };
  vi.resetModules();
  const entry = await import('@src/main/index');
  return { fake, started: entry.started };
}
async function startApp(backend = 'gnome_libsecret') {
  const { started } = await launch(backend);
  await started;
  return fake;
}
/** Quits the running app the way closing its last window does, and waits until it has. */
async function quitApp() {
  for (const listener of fake.appEvents.listeners('window-all-closed')) (listener as () => void)();
  await vi.waitFor(() => expect(fake.module.app.quit).toHaveBeenCalled());
}
beforeEach(() => {
  temp = makeTempDir('coverdesk-shell-');
});
afterEach(async () => {
  // Closing the last window closes the host (its database, local API and sync worker).
  await quitApp();
  temp.cleanup();
});

describe('the Electron main process', () => {
  it('closes the host before any quit (Cmd+Q, the updater), not only when the last window closes', async () => {
    const { appEvents, module } = await startApp();
    const event = { preventDefault: vi.fn() };
    for (const listener of appEvents.listeners('before-quit')) (listener as (e: typeof event) => void)(event);
    expect(event.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(module.app.quit).toHaveBeenCalled());
    // Once the host is closed the quit goes through.
    const again = { preventDefault: vi.fn() };
    for (const listener of appEvents.listeners('before-quit')) (listener as (e: typeof again) => void)(again);
    expect(again.preventDefault).not.toHaveBeenCalled();
  });

  it('asks before the last window closes while offline with records only here, as quitting does; staying opens the desk again', async () => {
    const { appEvents, module, windows, ipcMain } = await startApp();
    const own = windows[0].webContents;
    const call = (method: string, input: unknown) => ipcMain.handlers.get(method)!(invokeEvent(own, fakeFrame(APP_ENTRY_URL)), input);
    // Offline: a service nothing answers on (port 9), and one record made since.
    expect(await call('settings.update', { upstream_url: 'http://127.0.0.1:9', api_key: 'sk_test_closing' })).toMatchObject({ ok: true });
    expect(await call('patients.create', { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' })).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(own.sent.some(([name, payload]) => name === 'sync.status' && (payload as { online: boolean | null }).online === false)).toBe(true), { timeout: 10_000 });
    const ask = module.dialog.showMessageBoxSync as ReturnType<typeof vi.fn>;
    ask.mockReturnValueOnce(0);
    for (const listener of appEvents.listeners('window-all-closed')) (listener as () => void)();
    expect(ask).toHaveBeenCalledTimes(1);
    expect(ask.mock.calls[0][0]).toMatchObject({ buttons: ['Stay open', 'Quit anyway'], detail: expect.stringContaining('1 record exists only on this computer') });
    // Stayed: the desk is open again and nothing quit.
    expect(windows).toHaveLength(2);
    expect(module.app.quit).not.toHaveBeenCalled();
    // Closed again, "Quit anyway": the host closes and the app quits (afterEach), asked once more.
  });

  it('relaunches once a backup restored from Settings is staged, without asking: the next start swaps it in', async () => {
    const { module, windows, ipcMain } = await startApp();
    const own = windows[0].webContents;
    const call = (method: string, input: unknown) => ipcMain.handlers.get(method)!(invokeEvent(own, fakeFrame(APP_ENTRY_URL)), input);
    const usb = path.join(temp.dir, 'usb');
    fs.mkdirSync(usb);
    expect(await call('backups.update', { folder: usb })).toMatchObject({ ok: true });
    expect(await call('backups.run', {})).toMatchObject({ ok: true, value: { last_failure: null } });
    const listed = (await call('backups.list', {})) as { value: { name: string }[] };
    expect(await call('backups.restore', { name: listed.value[0].name })).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(module.app.relaunch).toHaveBeenCalledTimes(1));
    expect(module.app.quit).toHaveBeenCalled();
    expect(module.dialog.showMessageBoxSync).not.toHaveBeenCalled();
    // The desktop app's key stays wrapped by the OS: the restore wrote no plain key file.
    expect(fs.existsSync(path.join(temp.dir, 'data', 'database.key'))).toBe(false);
  });

  it('opens one window from the secure preferences, on app:// rather than file://', async () => {
    const { windows, module } = await startApp();
    expect(module.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      { scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) },
    ]);
    expect(module.app.enableSandbox).toHaveBeenCalled();
    expect(windows).toHaveLength(1);
    const prefs = windows[0].options.webPreferences;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false, devTools: false });
    expect(prefs.preload).toBe(path.resolve(__dirname, '../../../../src/preload/index.js'));
    expect(windows[0].loadURL).toHaveBeenCalledWith(APP_ENTRY_URL);
  });

  it('serves app:// with the Content-Security-Policy header', async () => {
    const { protocolHandlers } = await startApp();
    const page = await protocolHandlers.get('app')!(new Request(APP_ENTRY_URL));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });

  it('guards every web contents it creates: no navigating away, no new windows', async () => {
    const { appEvents, module } = await startApp();
    const contents = fakeWebContents();
    appEvents.emit('web-contents-created', {}, contents);
    const away = navigationEvent();
    contents.emit('will-navigate', away, 'https://evil.example/');
    expect(away.defaultPrevented).toBe(true);
    expect(contents.windowOpenHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'https://www.cms.gov/' })).toEqual({ action: 'deny' });
    expect(module.shell.openExternal).toHaveBeenCalledTimes(2);
    expect(module.shell.openExternal).toHaveBeenCalledWith('https://www.cms.gov/');
    expect(module.shell.openExternal).not.toHaveBeenCalledWith('file:///etc/passwd');
  });

  it('grants the camera to the app origin only', async () => {
    const { session } = await startApp();
    expect(await session.request('media', { requestingUrl: APP_ENTRY_URL, mediaTypes: ['video'] })).toBe(true);
    expect(await session.request('media', { requestingUrl: 'https://evil.example/', mediaTypes: ['video'] })).toBe(false);
    expect(await session.request('geolocation', { requestingUrl: APP_ENTRY_URL })).toBe(false);
  });

  it('serves the bridge to its own window only, and pushes the system lock to it', async () => {
    const { ipcMain, windows, powerMonitor } = await startApp();
    expect([...ipcMain.handlers.keys()].sort()).toEqual([...BRIDGE_METHOD_NAMES].sort());
    const own = windows[0].webContents;
    const created = await ipcMain.handlers.get('patients.create')!(invokeEvent(own, fakeFrame(APP_ENTRY_URL)), { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' });
    expect(created).toMatchObject({ ok: true });
    const stranger = await ipcMain.handlers.get('patients.list')!(invokeEvent(fakeWebContents(), fakeFrame(`${APP_ORIGIN}/index.html`)), {});
    expect(stranger).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const invalid = await ipcMain.handlers.get('patients.create')!(invokeEvent(own, fakeFrame(APP_ENTRY_URL)), { first_name: 'Ada' });
    expect(invalid).toMatchObject({ ok: false, error: { code: 'validation_failed' } });

    powerMonitor.emit('lock-screen');
    powerMonitor.emit('suspend');
    expect(own.sent).toContainEqual(['session.locked', { reason: 'system_lock' }]);
    expect(own.sent).toContainEqual(['session.locked', { reason: 'system_suspend' }]);
  });

  it('keeps the database key wrapped by safeStorage, and the database encrypted', async () => {
    await startApp();
    const dataDir = path.join(temp.dir, 'data');
    const wrapped = fs.readFileSync(path.join(dataDir, 'database.key.safe'), 'utf8');
    expect(wrapped).toMatch(/^wrapped:/);
    expect(wrapped).not.toMatch(/[0-9a-f]{64}/);
    expect(fs.existsSync(path.join(dataDir, 'database.key'))).toBe(false);
    expect(databaseFileState(path.join(dataDir, 'coverdesk.sqlite'))).toBe('encrypted');
  });

  it('checks for updates when packaged', async () => {
    await startApp();
    expect(updater.autoUpdater.checkForUpdatesAndNotify).toHaveBeenCalled();
    expect(updater.autoUpdater.autoInstallOnAppQuit).toBe(true);
  });

  it("refuses Linux's basic_text key store with a clear message, before anything is written", async () => {
    const { module, windows } = await startApp('basic_text');
    expect(module.dialog.showErrorBox).toHaveBeenCalledWith('Coverdesk cannot start', expect.stringMatching(/"basic_text" backend.*Install and unlock a keyring/));
    expect(module.app.quit).toHaveBeenCalled();
    expect(windows).toHaveLength(0);
    expect(fs.existsSync(path.join(temp.dir, 'data', 'coverdesk.sqlite'))).toBe(false);
    expect(fs.existsSync(path.join(temp.dir, 'data', 'database.key.safe'))).toBe(false);
  });

  describe('when the OS key store has lost the desk’s key (issue 28, item 5)', () => {
    /** A desk with one patient and its recovery sheet's code, quit; then started again with the store forgetful. */
    async function deskWithLostKey() {
      const { windows, ipcMain } = await startApp();
      const call = (method: string, input: unknown) => ipcMain.handlers.get(method)!(invokeEvent(windows[0].webContents, fakeFrame(APP_ENTRY_URL)), input);
      const patient = (await call('patients.create', { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' })) as { value: { id: string } };
      const sheet = (await call('recovery.setup', {})) as { value: { code: string } };
      await quitApp();
      const dataDir = path.join(temp.dir, 'data');
      const files = () => Object.fromEntries(fs.readdirSync(dataDir).filter((name) => name.startsWith('database.key')).map((name) => [name, fs.readFileSync(path.join(dataDir, name), 'utf8')]));
      const app = await launch('gnome_libsecret', { keyStoreForgot: true });
      // The one screen: a window of its own, before the desk's window or the bridge.
      await vi.waitFor(() => expect(app.fake.windows[0]?.loadURL).toHaveBeenCalledTimes(1));
      const screen = app.fake.windows[0];
      const page = () => decodeURIComponent(String(screen.loadURL.mock.lastCall![0]).replace(/^data:text\/html;charset=utf-8,/, ''));
      const type = (code: string) => {
        const event = navigationEvent(`${RECOVERY_CODE_ACTION}?code=${encodeURIComponent(code)}`);
        screen.webContents.emit('will-navigate', event, event.url);
        expect(event.defaultPrevented).toBe(true);
      };
      return { ...app, screen, page, type, files, patientId: patient.value.id, code: sheet.value.code };
    }

    it('asks the recovery code on one screen, shows a wrong or mistyped one’s refusal with nothing changed, and opens the same desk with the right one', async () => {
      const desk = await deskWithLostKey();
      expect(desk.screen.options).toMatchObject({ title: 'Coverdesk: recovery code', webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false } });
      expect(desk.screen.options.webPreferences.preload).toBeUndefined();
      expect(desk.page()).toMatch(/no longer in this computer’s key store/);
      expect(desk.fake.ipcMain.handlers.size).toBe(0);
      const before = desk.files();

      desk.type(newRecoveryCode());
      await vi.waitFor(() => expect(desk.screen.loadURL).toHaveBeenCalledTimes(2));
      expect(desk.page()).toMatch(/<p id="error" role="alert">That recovery code does not open this desk/);
      desk.type(desk.code.slice(0, -1) + (desk.code.at(-1) === 'A' ? 'B' : 'A'));
      await vi.waitFor(() => expect(desk.screen.loadURL).toHaveBeenCalledTimes(3));
      expect(desk.page()).toMatch(/has a typo/);
      expect(desk.files()).toEqual(before);
      expect(desk.fake.windows).toHaveLength(1);

      desk.type(desk.code.toLowerCase());
      await desk.started;
      expect(desk.fake.module.dialog.showErrorBox).not.toHaveBeenCalled();
      expect(desk.fake.module.dialog.showMessageBox).toHaveBeenCalledWith(expect.objectContaining({ detail: expect.stringMatching(/The code is now used: print a new recovery sheet/) }));
      // The desk's own window, and the screen closed behind it.
      expect(desk.fake.windows).toHaveLength(2);
      expect(desk.screen.close).toHaveBeenCalled();
      const own = desk.fake.windows[1].webContents;
      const call = (method: string, input: unknown) => desk.fake.ipcMain.handlers.get(method)!(invokeEvent(own, fakeFrame(APP_ENTRY_URL)), input);
      expect(await call('patients.get', { id: desk.patientId })).toMatchObject({ ok: true, value: { id: desk.patientId } });
      expect(await call('recovery.status', {})).toMatchObject({ ok: true, value: { used_at: expect.any(String) } });
      // Kept again for the OS (wrapped afresh), the code marked used.
      expect(desk.files()['database.key.safe']).toMatch(/^wrapped:/);
    }, 60_000);

    it('closing the screen quits, and nothing was changed', async () => {
      const desk = await deskWithLostKey();
      const before = desk.files();
      (desk.screen.close as () => void)();
      await desk.started;
      expect(desk.fake.module.app.quit).toHaveBeenCalled();
      expect(desk.fake.windows).toHaveLength(1);
      expect(desk.fake.module.dialog.showErrorBox).not.toHaveBeenCalled();
      expect(desk.files()).toEqual(before);
    }, 60_000);
  });
});
