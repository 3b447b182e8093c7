import { focusManager, onlineManager, QueryObserver, type QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildBridgeApi } from '@src/shared/bridge/bridge-api';
import type { BridgeEvent, BridgeMethod, BridgeResult } from '@src/shared/bridge/contract';
import { TODAY_CHANGES_MAX_IDS, type DeskPatientDetail, type DeskPatientRow, type SyncStatus } from '@src/shared/bridge/desk-contract';
import { watchBridgeEvents, type Timers } from '@src/renderer/src/bridge/bridge-invalidation';
import { asBridgeError, bridgeKey, bridgeQueryOptions, createBridgeQueryClient, refreshQuery } from '@src/renderer/src/bridge/query-client';

/**
 * The renderer's query layer against a bridge built from the real contract (what the
 * BridgeProvider lets tests swap in): every call is counted, every answer is the test's.
 */
function testBridge() {
  const calls: { method: BridgeMethod; input: unknown }[] = [];
  const answers = new Map<BridgeMethod, (input: unknown) => Promise<BridgeResult<unknown>>>();
  const listeners = new Map<BridgeEvent, Set<(payload: unknown) => void>>();
  const bridge = buildBridgeApi(
    (method, input) => {
      calls.push({ method, input });
      const answer = answers.get(method);
      return answer ? answer(input) : Promise.resolve({ ok: true, value: { data: [] } });
    },
    (event, listener) => {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => set.delete(listener);
    },
  );
  return {
    bridge,
    answers,
    reads: (method: BridgeMethod) => calls.filter((c) => c.method === method).length,
    inputs: (method: BridgeMethod) => calls.filter((c) => c.method === method).map((c) => c.input),
    emit: (event: BridgeEvent, payload: unknown) => listeners.get(event)?.forEach((listener) => listener(payload)),
    listening: () => [...listeners.values()].reduce((n, set) => n + set.size, 0),
  };
}

/** Gathering timers the test fires by hand. */
function manualTimers(): Timers & { pending(): number; fire(): void } {
  let timers: { run: () => void; handle: number }[] = [];
  let next = 1;
  return {
    setTimeout: (run) => {
      timers.push({ run, handle: next });
      return next++;
    },
    clearTimeout: (handle) => {
      timers = timers.filter((t) => t.handle !== handle);
    },
    pending: () => timers.length,
    fire() {
      const due = timers;
      timers = [];
      due.forEach((t) => t.run());
    },
  };
}

const SYNCED = { state: 'synced' } as const;
function detail(options: { cardId: string; pendingCheck?: boolean }): DeskPatientDetail {
  return {
    patient: { id: 'pat_A', sync: SYNCED },
    cards: [{ id: options.cardId, sync: SYNCED }],
    checks: [{ id: 'eec_A1', status: options.pendingCheck ? 'pending' : 'success', sync: SYNCED }],
    discoveries: [],
  } as unknown as DeskPatientDetail;
}

const STATUS: SyncStatus = {
  online: true,
  mode: 'sandbox',
  upstream_url: null,
  counts: { queued: 0, sending: 0, synced: 3, failed: 0, blocked: 0, needs_review: 0 },
  last_sync_at: null,
  worker: 'running',
  storage: 'ok',
};

/** A time on 2026-11-23 (UTC). */
const at = (hhmm: string) => `2026-11-23T${hhmm}:00.000Z`;
/** One of Today's rows, its newest activity at `hhmm`. */
function row(id: string, hhmm: string): DeskPatientRow {
  return { patient_id: id, first_name: id, last_name: 'Row', date_of_birth: '1980-01-01', eligibility: 'pending', last_activity_at: at(hhmm), sync_state: 'queued' };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
let cleanup: (() => void)[] = [];
afterEach(() => {
  cleanup.forEach((done) => done());
  cleanup = [];
  onlineManager.setOnline(true);
  focusManager.setFocused(undefined);
});

/** A screen showing a read: an observer subscribed to it, as `useBridgeQuery` does. */
function show<M extends BridgeMethod>(client: QueryClient, desk: ReturnType<typeof testBridge>, method: M, input: never, options = {}) {
  const observer = new QueryObserver(client, bridgeQueryOptions(desk.bridge, method, input, options) as never);
  const off = observer.subscribe(() => undefined);
  cleanup.push(off);
  return { observer, off };
}

function setUp() {
  const desk = testBridge();
  const client = createBridgeQueryClient();
  const timers = manualTimers();
  cleanup.push(watchBridgeEvents(desk.bridge, client, timers));
  return { desk, client, timers };
}

describe('bridge events refresh the reads they touch', () => {
  it('follows Today row by row: a burst of desk changes asks the host for those records\' rows once, never for Today whole (issue 31)', async () => {
    const { desk, client, timers } = setUp();
    const since = '2026-11-23T00:00:00.000Z';
    const [ada, alan, grace] = [row('pat_A', '10:00'), row('pat_B', '09:00'), row('pat_C', '08:00')];
    desk.answers.set('desk.today', async () => ({ ok: true, value: { data: [ada, alan, grace], as_of: at('10:01') } }));
    show(client, desk, 'desk.today', { since } as never);
    await vi.waitFor(() => expect(desk.reads('desk.today')).toBe(1));
    await settle();
    const first = client.getQueryData(bridgeKey('desk.today', { since })) as { data: unknown[] };
    // Alan's check answered: his row comes back with the answer and moves to the top.
    const answered = { ...alan, eligibility: 'active', last_activity_at: at('10:02') };
    desk.answers.set('desk.todayChanges', async () => ({ ok: true, value: { data: [answered], patient_ids: ['pat_B'], as_of: at('10:03') } }));

    for (let i = 0; i < 100; i++) desk.emit('records.changed', { collection: 'electronic_eligibility_checks', id: `eec_${i % 10}` });
    await settle();
    expect(timers.pending()).toBe(1);
    timers.fire();
    await vi.waitFor(() => expect(desk.reads('desk.todayChanges')).toBe(1));
    await settle();
    expect(desk.reads('desk.today')).toBe(1);
    expect(desk.inputs('desk.todayChanges')).toEqual([{ since, record_ids: Array.from({ length: 10 }, (_, i) => `eec_${i}`) }]);
    const shown = client.getQueryData(bridgeKey('desk.today', { since })) as { data: unknown[]; as_of: string };
    expect(shown.data).toEqual([answered, ada, grace]);
    // Rows that did not change are the same objects: nothing renders them again.
    expect(shown.data[1]).toBe(first.data[0]);
    expect(shown.data[2]).toBe(first.data[2]);
    // Only a records.changed read: what sync moved since the last full answer is still to ask.
    expect(shown.as_of).toBe(at('10:01'));

    // Not a desk record: nothing on Today can have changed.
    desk.emit('records.changed', { collection: 'extractions', id: 'ext_1' });
    expect(timers.pending()).toBe(0);
  });

  it('asks for the rows whose sync moved since the last answer when the sync status moves, and goes on from the new answer', async () => {
    const { desk, client, timers } = setUp();
    const since = '2026-11-23T00:00:00.000Z';
    const ada = row('pat_A', '10:00');
    desk.answers.set('desk.today', async () => ({ ok: true, value: { data: [ada], as_of: at('10:01') } }));
    show(client, desk, 'desk.today', { since } as never);
    await vi.waitFor(() => expect(desk.reads('desk.today')).toBe(1));
    await settle();
    desk.answers.set('desk.todayChanges', async () => ({ ok: true, value: { data: [{ ...ada, sync_state: 'synced' }], patient_ids: ['pat_A'], as_of: at('10:05') } }));

    desk.emit('sync.status', STATUS);
    timers.fire();
    await vi.waitFor(() => expect(desk.reads('desk.todayChanges')).toBe(1));
    await settle();
    desk.emit('sync.status', STATUS);
    timers.fire();
    await vi.waitFor(() => expect(desk.reads('desk.todayChanges')).toBe(2));
    expect(desk.inputs('desk.todayChanges')).toEqual([
      { since, record_ids: [], outbox_since: at('10:01') },
      { since, record_ids: [], outbox_since: at('10:05') },
    ]);
    expect(desk.reads('desk.today')).toBe(1);
    expect(client.getQueryData(bridgeKey('desk.today', { since }))).toMatchObject({ data: [{ patient_id: 'pat_A', sync_state: 'synced' }] });
  });

  it('reads everything shown again when the host restarts on other data (a damaged file set aside, a backup restored)', async () => {
    const { desk, client } = setUp();
    show(client, desk, 'storage.damage', {} as never);
    show(client, desk, 'backups.list', {} as never);
    await vi.waitFor(() => expect(desk.reads('storage.damage') + desk.reads('backups.list')).toBe(2));
    desk.emit('host.restarted', { reason: 'damaged' });
    await vi.waitFor(() => expect([desk.reads('storage.damage'), desk.reads('backups.list')]).toEqual([2, 2]));
  });

  it('settings saved elsewhere (another window, a script on the host) become the screens\' settings at once', async () => {
    const { desk, client } = setUp();
    show(client, desk, 'settings.get', {} as never);
    await vi.waitFor(() => expect(desk.reads('settings.get')).toBe(1));
    const saved = { mode: 'sandbox', upstream_url: null, api_key_set: false, default_provider_id: 'prv_1', hot_folder: null, default_service_type: null } as never;
    desk.emit('settings.changed', saved);
    expect(client.getQueryData(bridgeKey('settings.get', {}))).toBe(saved);
    expect(desk.reads('settings.get')).toBe(1);
  });

  it('changes made while Today is first read are asked for once that read has answered and a gathering delay passed, in one request', async () => {
    const { desk, client, timers } = setUp();
    const pending: ((value: BridgeResult<unknown>) => void)[] = [];
    desk.answers.set('desk.today', () => new Promise((resolve) => pending.push(resolve)));
    show(client, desk, 'desk.today', { since: '2026-11-23T00:00:00.000Z' } as never);
    await vi.waitFor(() => expect(pending).toHaveLength(1));

    // The batch goes on while Today's first read is on the host: 100 checks answered.
    for (let i = 1; i <= 100; i++) desk.emit('records.changed', { collection: 'electronic_eligibility_checks', id: `eec_${i}` });
    await settle();
    expect(timers.pending()).toBe(0);

    pending[0]({ ok: true, value: { data: [], as_of: at('10:00') } });
    await settle();
    // The host gets the gathering delay to itself before the 100 are asked for together.
    expect(desk.reads('desk.todayChanges')).toBe(0);
    expect(timers.pending()).toBe(1);
    timers.fire();
    await vi.waitFor(() => expect(desk.reads('desk.todayChanges')).toBe(1));
    expect((desk.inputs('desk.todayChanges')[0] as { record_ids: string[] }).record_ids).toHaveLength(100);
    expect(desk.reads('desk.today')).toBe(1);
  });

  it('while the host answers one catch-up, the next changes wait for it and then a gathering delay: catch-ups never queue up', async () => {
    const { desk, client, timers } = setUp();
    desk.answers.set('desk.today', async () => ({ ok: true, value: { data: [], as_of: at('10:00') } }));
    show(client, desk, 'desk.today', { since: '2026-11-23T00:00:00.000Z' } as never);
    await vi.waitFor(() => expect(desk.reads('desk.today')).toBe(1));
    await settle();
    const pending: ((value: BridgeResult<unknown>) => void)[] = [];
    desk.answers.set('desk.todayChanges', () => new Promise((resolve) => pending.push(resolve)));
    desk.emit('records.changed', { collection: 'patients', id: 'pat_1' });
    timers.fire();
    await vi.waitFor(() => expect(pending).toHaveLength(1));

    desk.emit('records.changed', { collection: 'patients', id: 'pat_2' });
    await settle();
    expect(timers.pending()).toBe(0);
    pending[0]({ ok: true, value: { data: [], patient_ids: ['pat_1'], as_of: at('10:01') } });
    await settle();
    expect(timers.pending()).toBe(1);
    expect(desk.reads('desk.todayChanges')).toBe(1);
    timers.fire();
    await vi.waitFor(() => expect(desk.reads('desk.todayChanges')).toBe(2));
  });

  it('reads Today whole when the changes are too many to name (a practice\'s first pull)', async () => {
    const { desk, client, timers } = setUp();
    desk.answers.set('desk.today', async () => ({ ok: true, value: { data: [], as_of: at('10:00') } }));
    show(client, desk, 'desk.today', { since: '2026-11-23T00:00:00.000Z' } as never);
    await vi.waitFor(() => expect(desk.reads('desk.today')).toBe(1));
    await settle();
    for (let i = 0; i <= TODAY_CHANGES_MAX_IDS; i++) desk.emit('records.changed', { collection: 'patients', id: `pat_${i}` });
    timers.fire();
    await vi.waitFor(() => expect(desk.reads('desk.today')).toBe(2));
    expect(desk.reads('desk.todayChanges')).toBe(0);
  });

  it("reads a patient's detail again only when something of theirs may have changed", async () => {
    const { desk, client, timers } = setUp();
    let answer = detail({ cardId: 'ic_A1' });
    desk.answers.set('desk.patient', async () => ({ ok: true, value: answer }));
    const { observer } = show(client, desk, 'desk.patient', { id: 'pat_A' } as never, { view: true });
    await vi.waitFor(() => expect(observer.getCurrentResult().status).toBe('success'));
    expect(desk.reads('desk.patient')).toBe(1);

    // Another patient registered, and sync progress while all of theirs is synced and answered.
    desk.emit('records.changed', { collection: 'patients', id: 'pat_B' });
    desk.emit('sync.status', STATUS);
    timers.fire();
    await settle();
    expect(desk.reads('desk.patient')).toBe(1);

    // One of their cards, and a new check (which may be theirs).
    desk.emit('records.changed', { collection: 'insurance_cards', id: 'ic_A1' });
    timers.fire();
    await vi.waitFor(() => expect(desk.reads('desk.patient')).toBe(2));
    await settle(); // answered: the next event's delay starts at once
    desk.emit('records.changed', { collection: 'electronic_eligibility_checks', id: 'eec_new' });
    timers.fire();
    await vi.waitFor(() => expect(desk.reads('desk.patient')).toBe(3));
    await settle(); // answered: the next event's delay starts at once

    // The patient themself, under their own id.
    desk.emit('records.changed', { collection: 'patients', id: 'pat_A' });
    timers.fire();
    await vi.waitFor(() => expect(desk.reads('desk.patient')).toBe(4));
    await settle(); // answered: the next event's delay starts at once

    // While a check waits for its answer, sync progress may be its answer.
    answer = detail({ cardId: 'ic_A1', pendingCheck: true });
    desk.emit('records.changed', { collection: 'insurance_cards', id: 'ic_A1' });
    timers.fire();
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(answer));
    expect(desk.reads('desk.patient')).toBe(5);
    await settle();
    desk.emit('sync.status', { ...STATUS, counts: { ...STATUS.counts, sending: 1 } });
    timers.fire();
    await vi.waitFor(() => expect(desk.reads('desk.patient')).toBe(6));
    await settle(); // answered: the next event's delay starts at once

    // Offline, other patients registered: only the queue grows, which moves nothing of theirs
    // (each read is an audited view). Back online, it may have.
    const offline = { ...STATUS, online: false };
    desk.emit('sync.status', offline);
    timers.fire();
    await vi.waitFor(() => expect(desk.reads('desk.patient')).toBe(7));
    await settle(); // answered: the next event's delay starts at once
    for (let queued = 1; queued <= 5; queued++) desk.emit('sync.status', { ...offline, counts: { ...offline.counts, queued } });
    timers.fire();
    await settle();
    expect(desk.reads('desk.patient')).toBe(7);
    desk.emit('sync.status', { ...STATUS, counts: { ...STATUS.counts, queued: 5 } });
    timers.fire();
    await vi.waitFor(() => expect(desk.reads('desk.patient')).toBe(8));
  });

  it('reads a patient at once when a check shown waiting for its answer moves, with no gathering delay', async () => {
    const { desk, client, timers } = setUp();
    desk.answers.set('desk.patient', async () => ({ ok: true, value: detail({ cardId: 'ic_A1', pendingCheck: true }) }));
    const { observer } = show(client, desk, 'desk.patient', { id: 'pat_A' } as never, { view: true });
    await vi.waitFor(() => expect(observer.getCurrentResult().status).toBe('success'));

    // Their card moves (plan facts): gathered as before.
    desk.emit('records.changed', { collection: 'insurance_cards', id: 'ic_A1' });
    expect(timers.pending()).toBe(1);
    // The check they wait for is answered: read now, the card's change with it, no timer left.
    desk.emit('records.changed', { collection: 'electronic_eligibility_checks', id: 'eec_A1' });
    await vi.waitFor(() => expect(desk.reads('desk.patient')).toBe(2));
    expect(timers.pending()).toBe(0);
    await settle();
    expect(desk.reads('desk.patient')).toBe(2);
  });

  it('puts the sync status an event carries into the sync.status query, without a read', async () => {
    const { desk, client } = setUp();
    desk.emit('sync.status', { ...STATUS, online: false });
    expect(client.getQueryData(bridgeKey('sync.status', {}))).toEqual({ ...STATUS, online: false });
    expect(desk.reads('sync.status')).toBe(0);
  });

  it('stops listening when unmounted, with no refresh left waiting', () => {
    const desk = testBridge();
    const client = createBridgeQueryClient();
    const timers = manualTimers();
    client.setQueryData(bridgeKey('desk.today', { since: '2026-11-23T00:00:00.000Z' }), { data: [] });
    const stop = watchBridgeEvents(desk.bridge, client, timers);
    desk.emit('records.changed', { collection: 'patients', id: 'pat_1' });
    expect(timers.pending()).toBe(1);
    stop();
    expect(desk.listening()).toBe(0);
    expect(timers.pending()).toBe(0);
  });
});

describe('reads', () => {
  it('keep every row that did not change the same object when a row moves (a check answered: its worklist row changes group), so no memoised row renders again (issue 31)', async () => {
    const { desk, client } = setUp();
    const line = (i: number, group: string) => ({ appointment: { id: `apt_${i}`, time: `09:${String(i % 60).padStart(2, '0')}` }, status: group === 'ready' ? 'eligible' : 'checking', group, detail: `row ${i}` });
    const before = Array.from({ length: 1000 }, (_, i) => line(i, 'waiting'));
    // Rows go by group, then time: the answered row leaves the middle for the top.
    const after = [line(500, 'ready'), ...before.filter((_, i) => i !== 500).map((row) => structuredClone(row))];
    let answer = before;
    desk.answers.set('appointments.worklist', async () => ({ ok: true, value: { date: '2026-11-24', rows: structuredClone(answer) } }));
    const { observer } = show(client, desk, 'appointments.worklist', { date: '2026-11-24' } as never);
    await vi.waitFor(() => expect(observer.getCurrentResult().status).toBe('success'));
    const first = (observer.getCurrentResult().data as { rows: object[] }).rows;

    answer = after;
    await observer.refetch();
    const second = (observer.getCurrentResult().data as { rows: object[] }).rows;
    expect(second.map((row) => (row as { appointment: { id: string } }).appointment.id)).toEqual(after.map((row) => row.appointment.id));
    const renderedAgain = second.filter((row) => !first.includes(row));
    expect(renderedAgain).toHaveLength(1);
    expect(renderedAgain[0]).toMatchObject({ appointment: { id: 'apt_500' }, group: 'ready' });

    // Nothing changed at all: the answer is the one shown, and nothing renders.
    await observer.refetch();
    expect((observer.getCurrentResult().data as { rows: object[] }).rows).toBe(second);
  });

  it('turn a refresh asked for during a read into exactly one more read when it answers', async () => {
    const { desk, client } = setUp();
    const pending: ((value: BridgeResult<unknown>) => void)[] = [];
    desk.answers.set('inbox.list', () => new Promise((resolve) => pending.push(resolve)));
    show(client, desk, 'inbox.list', { state: 'new' } as never);
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    const query = client.getQueryCache().find({ queryKey: bridgeKey('inbox.list', { state: 'new' }) })!;
    for (let i = 0; i < 5; i++) refreshQuery(client, query);
    await settle();
    expect(desk.reads('inbox.list')).toBe(1);

    pending[0]({ ok: true, value: { data: [] } });
    await vi.waitFor(() => expect(desk.reads('inbox.list')).toBe(2));
    pending[1]({ ok: true, value: { data: [] } });
    await settle();
    expect(desk.reads('inbox.list')).toBe(2);
  });

  it('go on while the computer is offline: the bridge is this computer', async () => {
    const { desk, client } = setUp();
    onlineManager.setOnline(false);
    const { observer } = show(client, desk, 'sync.list', { states: ['failed'] } as never);
    await vi.waitFor(() => expect(observer.getCurrentResult().status).toBe('success'));
    expect(desk.reads('sync.list')).toBe(1);
  });

  it('never read again because the window got focus back', async () => {
    const { desk, client } = setUp();
    client.mount();
    cleanup.push(() => client.unmount());
    show(client, desk, 'desk.patient', { id: 'pat_A' } as never, { view: true });
    show(client, desk, 'desk.today', { since: '2026-11-23T00:00:00.000Z' } as never);
    await vi.waitFor(() => expect(desk.reads('desk.patient') + desk.reads('desk.today')).toBe(2));
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    await settle();
    expect(desk.reads('desk.patient') + desk.reads('desk.today')).toBe(2);
  });

  it('show the host error with its code, keeping what was shown before', async () => {
    const { desk, client } = setUp();
    let fail = false;
    desk.answers.set('localApi.status', async () =>
      fail
        ? { ok: false, error: { type: 'api_error', code: 'host_unreachable', message: 'Coverdesk is not running.', status: 0 } }
        : { ok: true, value: { state: 'running' } },
    );
    const { observer } = show(client, desk, 'localApi.status', {} as never);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual({ state: 'running' }));
    fail = true;
    await observer.refetch();
    const result = observer.getCurrentResult();
    expect(asBridgeError(result.error).code).toBe('host_unreachable');
    expect(result.data).toEqual({ state: 'running' });
    expect(desk.reads('localApi.status')).toBe(2);
  });
});

describe('audited views', () => {
  it('are read each time a screen opens them, even straight after another showed them', async () => {
    const { desk, client } = setUp();
    desk.answers.set('desk.patient', async () => ({ ok: true, value: detail({ cardId: 'ic_A1' }) }));
    const eligibility = show(client, desk, 'desk.patient', { id: 'pat_A' } as never, { view: true });
    await vi.waitFor(() => expect(eligibility.observer.getCurrentResult().status).toBe('success'));
    // Eligibility → Discovery for the same patient: one screen closes as the other opens.
    eligibility.off();
    show(client, desk, 'desk.patient', { id: 'pat_A' } as never, { view: true });
    await vi.waitFor(() => expect(desk.reads('desk.patient')).toBe(2));
  });

  it('are dropped from memory as soon as no screen shows them', async () => {
    const { desk, client } = setUp();
    desk.answers.set('photos.read', async () => ({ ok: true, value: { content_type: 'image/png', data_base64: 'AAAA' } }));
    const thumb = show(client, desk, 'photos.read', { object_key: 'photos/1.png' } as never, { view: true });
    await vi.waitFor(() => expect(thumb.observer.getCurrentResult().status).toBe('success'));
    thumb.off();
    await vi.waitFor(() => expect(client.getQueryCache().find({ queryKey: bridgeKey('photos.read') })).toBeUndefined());
  });
});
