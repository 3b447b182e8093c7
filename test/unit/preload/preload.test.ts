import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BRIDGE_METHOD_NAMES } from '@src/shared/bridge/contract';

/** The preload with the `electron` module mocked: what it exposes, and what it never does. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the mocked electron module holds whatever each test installs
const electron = vi.hoisted(() => ({}) as Record<string, any>);
vi.mock('electron', () => electron);

function fakeRenderer() {
  const exposed = new Map<string, unknown>();
  const listeners = new Map<string, ((...args: unknown[]) => void)[]>();
  const ipcRenderer = {
    invoke: vi.fn(async (channel: string, input: unknown) => ({ ok: true, value: { channel, input } })),
    on: vi.fn((channel: string, listener: (...args: unknown[]) => void) => {
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
    }),
    removeListener: vi.fn((channel: string, listener: (...args: unknown[]) => void) => {
      listeners.set(channel, (listeners.get(channel) ?? []).filter((l) => l !== listener));
    }),
    send: vi.fn(),
    sendSync: vi.fn(),
  };
  const contextBridge = { exposeInMainWorld: vi.fn((key: string, api: unknown) => exposed.set(key, api)) };
  return { module: { ipcRenderer, contextBridge }, exposed, listeners, ipcRenderer, contextBridge };
}

/** Every function reachable from the exposed object, by path. */
function leaves(value: unknown, prefix = ''): Map<string, unknown> {
  const found = new Map<string, unknown>();
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const at = prefix ? `${prefix}.${key}` : key;
      if (typeof child === 'function') found.set(at, child);
      else leaves(child, at).forEach((v, k) => found.set(k, v));
    }
  }
  return found;
}

function checkExposure(fake: ReturnType<typeof fakeRenderer>) {
  expect(fake.contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
  expect([...fake.exposed.keys()]).toEqual(['coverdesk']);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the exposed bridge is walked and called by name
  const api = fake.exposed.get('coverdesk') as Record<string, any>;
  const functions = leaves(api);
  expect([...functions.keys()].filter((k) => k !== 'on').sort()).toEqual([...BRIDGE_METHOD_NAMES].sort());
  expect(functions.has('on')).toBe(true);
  // Nothing of ipcRenderer leaks: not the object, not one of its functions.
  const ipcParts = new Set<unknown>([fake.ipcRenderer, ...Object.values(fake.ipcRenderer)]);
  for (const [at, fn] of functions) expect(ipcParts.has(fn), at).toBe(false);
  expect(JSON.stringify(Object.keys(api))).not.toMatch(/ipcRenderer|invoke|send/);
  return api;
}

let fake: ReturnType<typeof fakeRenderer>;
beforeEach(async () => {
  fake = fakeRenderer();
  Object.assign(electron, fake.module);
  vi.resetModules();
  await import('@src/preload/index');
});

describe('the preload', () => {
  it('exposes exactly the bridge methods as window.coverdesk, and never ipcRenderer', () => {
    checkExposure(fake);
  });

  it('sends each method on its own channel with the input as given', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the exposed bridge is called by name
    const api = fake.exposed.get('coverdesk') as Record<string, any>;
    const input = { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' };
    expect(await api.patients.create(input)).toEqual({ ok: true, value: { channel: 'patients.create', input } });
    await api.audit.list({ limit: 5 });
    expect(fake.ipcRenderer.invoke.mock.calls.map((c) => c[0])).toEqual(['patients.create', 'audit.list']);
    expect(fake.ipcRenderer.send).not.toHaveBeenCalled();
    expect(fake.ipcRenderer.sendSync).not.toHaveBeenCalled();
  });

  it('passes events on as the payload only (never the IPC event and its sender), for known events only', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the exposed bridge is called by name
    const api = fake.exposed.get('coverdesk') as Record<string, any>;
    const received: unknown[] = [];
    const off = api.on('session.locked', (...args: unknown[]) => received.push(args));
    const ipcEvent = { sender: fake.ipcRenderer, senderId: 0 };
    const send = (payload: unknown) => fake.listeners.get('session.locked')!.forEach((l) => l(ipcEvent, payload));
    send({ reason: 'system_lock' });
    expect(received).toEqual([[{ reason: 'system_lock' }]]);
    off();
    send({ reason: 'system_suspend' });
    expect(received).toHaveLength(1);
    // One channel listener an event, from the start: no listener is added per subscription.
    expect(fake.listeners.get('session.locked')).toHaveLength(1);
    expect(() => api.on('patients.create', () => undefined)).toThrow(/Unknown bridge event/);
    expect(() => api.on('ELECTRON_BROWSER_REQUIRE', () => undefined)).toThrow(/Unknown bridge event/);
  });

  it('holds events that arrive before the page listens and gives them, in order, to its first listener', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the exposed bridge is called by name
    const api = fake.exposed.get('coverdesk') as Record<string, any>;
    const ipcEvent = { sender: fake.ipcRenderer, senderId: 0 };
    const send = (payload: unknown) => fake.listeners.get('records.changed')!.forEach((l) => l(ipcEvent, payload));
    send({ collection: 'patients', id: 'pat_1' });
    send({ collection: 'insurance_cards', id: 'ins_1' });
    const received: unknown[] = [];
    api.on('records.changed', (payload: unknown) => received.push(payload));
    send({ collection: 'patients', id: 'pat_2' });
    expect(received).toEqual([
      { collection: 'patients', id: 'pat_1' },
      { collection: 'insurance_cards', id: 'ins_1' },
      { collection: 'patients', id: 'pat_2' },
    ]);
    // Given once: a second listener hears only what comes after.
    const later: unknown[] = [];
    api.on('records.changed', (payload: unknown) => later.push(payload));
    expect(later).toEqual([]);
  });
});

// The build is what ships: a sandboxed preload may require nothing but `electron`.
const built = path.resolve(__dirname, '../../../out/preload/index.js');
describe.skipIf(!fs.existsSync(built))('the built preload (out/preload/index.js, from `npm run build`)', () => {
  it('is one CommonJS file that requires only electron and exposes the same API', () => {
    const other = fakeRenderer();
    const required: string[] = [];
    const module = { exports: {} };
    vm.runInNewContext(fs.readFileSync(built, 'utf8'), {
      module,
      exports: module.exports,
      require: (name: string) => {
        required.push(name);
        if (name !== 'electron') throw new Error(`A sandboxed preload cannot require ${name}`);
        return other.module;
      },
    });
    expect([...new Set(required)]).toEqual(['electron']);
    checkExposure(other);
  });
});
