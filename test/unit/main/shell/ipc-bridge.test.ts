import type { IpcMainInvokeEvent } from 'electron';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, APP_ORIGIN } from '@src/main/shell/app-protocol';
import { forwardBridgeEvents, isTrustedSender, registerBridgeIpc } from '@src/main/shell/ipc-bridge';
import { BRIDGE_EVENT_NAMES, BRIDGE_METHOD_NAMES } from '@src/shared/bridge/contract';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { fakeFrame, fakeIpcMain, fakeWebContents, invokeEvent, type FakeWebContents } from './fake-electron';

const PATIENT = { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' };

let fx: HostFixture;
let ipc: ReturnType<typeof fakeIpcMain>;
let appWindow: FakeWebContents;
let refused: string[];
let dispose: () => void;
beforeEach(() => {
  fx = startTestHost({ localApi: false, hotFolder: false });
  ipc = fakeIpcMain();
  appWindow = fakeWebContents();
  refused = [];
  const policy = { appOrigins: [APP_ORIGIN], isAppWindow: (contents: unknown) => contents === appWindow };
  dispose = registerBridgeIpc({
    ipcMain: ipc,
    handlers: fx.host.bridge,
    isTrusted: (event) => isTrustedSender(event, policy),
    onRefused: (method) => refused.push(method),
  });
});
afterEach(async () => {
  await fx.cleanup();
});

const fromApp = () => invokeEvent(appWindow, fakeFrame(APP_ENTRY_URL));
const invoke = (method: string, event: IpcMainInvokeEvent, input: unknown) => ipc.handlers.get(method)!(event, input);

describe('bridge over IPC', () => {
  it('registers one handler per bridge method, and removes them all', () => {
    expect([...ipc.handlers.keys()].sort()).toEqual([...BRIDGE_METHOD_NAMES].sort());
    dispose();
    expect(ipc.handlers.size).toBe(0);
  });

  it('answers the app window’s top frame with {ok, value}', async () => {
    const result = await invoke('patients.create', fromApp(), PATIENT);
    expect(result).toMatchObject({ ok: true, value: { id: expect.stringMatching(/^pat_/), last_name: 'Lovelace' } });
    expect(refused).toEqual([]);
  });

  it('refuses every sender that is not the top frame of an app window showing the app, writing nothing', async () => {
    const top = fakeFrame(APP_ENTRY_URL);
    const strangers: [string, IpcMainInvokeEvent][] = [
      ['an iframe inside the app window', invokeEvent(appWindow, fakeFrame(APP_ENTRY_URL, { parent: top }))],
      ['a foreign iframe', invokeEvent(appWindow, fakeFrame('https://evil.example/', { parent: top }))],
      ['the app window after navigating away', invokeEvent(appWindow, fakeFrame('https://evil.example/'))],
      ['a file: page in the app window', invokeEvent(appWindow, fakeFrame('file:///C:/Users/desk/page.html'))],
      ['a look-alike origin', invokeEvent(appWindow, fakeFrame('app://coverdesk.evil/index.html'))],
      ['another window showing app://', invokeEvent(fakeWebContents(), fakeFrame(APP_ENTRY_URL))],
      ['a frame already destroyed', invokeEvent(appWindow, fakeFrame(APP_ENTRY_URL, { destroyed: true }))],
      ['no frame at all', invokeEvent(appWindow, null)],
    ];
    const before = fx.snapshot();
    for (const [who, event] of strangers) {
      const result = await invoke('patients.create', event, PATIENT);
      expect(result, who).toEqual({ ok: false, error: expect.objectContaining({ code: 'forbidden', type: 'permission_error', status: 403 }) });
      expect(await invoke('patients.list', event, {}), who).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    expect(fx.snapshot()).toEqual(before);
    expect(refused).toHaveLength(strangers.length * 2);
    expect(refused.every((m) => m === 'patients.create' || m === 'patients.list')).toBe(true);
  });

  it('rejects invalid input with an {ok: false, error} that names the field, writing nothing', async () => {
    const before = fx.snapshot();
    const cases: [string, unknown, string, string][] = [
      ['patients.create', { ...PATIENT, date_of_birth: '1985-13-40' }, 'date_of_birth', 'invalid_format'],
      ['patients.create', { first_name: 'Ada', date_of_birth: '1985-12-10' }, 'last_name', 'required'],
      ['patients.create', { ...PATIENT, admin: true }, 'admin', 'unknown_field'],
      ['photos.upload', { content_type: 'image/gif', data_base64: 'AAAA' }, 'content_type', 'invalid_enum_value'],
      ['idleLock.update', { minutes: 0 }, 'minutes', 'too_small'],
      ['audit.record', { action: 'print', record_id: 'Lovelace' }, 'record_id', 'invalid_format'],
    ];
    for (const [method, input, path, code] of cases) {
      const result = await invoke(method, fromApp(), input);
      expect(result, method).toMatchObject({ ok: false, error: { code: 'validation_failed', status: 422, errors: [expect.objectContaining({ path, code })] } });
    }
    for (const input of ['a string', 42, [PATIENT]]) {
      expect(await invoke('patients.create', fromApp(), input)).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    }
    expect(fx.snapshot()).toEqual(before);
  });

  it('pushes every host event to the app windows', () => {
    const sent: [string, unknown][] = [];
    const stop = forwardBridgeEvents(fx.host.events, (event, payload) => sent.push([event, payload]));
    fx.host.events.emit('records.changed', { collection: 'patients', id: 'pat_1' });
    fx.host.events.emit('session.locked', { reason: 'system_lock' });
    stop();
    fx.host.events.emit('session.locked', { reason: 'system_suspend' });
    expect(sent).toEqual([
      ['records.changed', { collection: 'patients', id: 'pat_1' }],
      ['session.locked', { reason: 'system_lock' }],
    ]);
    expect(BRIDGE_EVENT_NAMES).toContain('session.locked');
  });
});
