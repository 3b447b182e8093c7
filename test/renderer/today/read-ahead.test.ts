import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildBridgeApi } from '@src/shared/bridge/bridge-api';
import type { BridgeMethod, BridgeResult } from '@src/shared/bridge/contract';
import type { DeskToday } from '@src/shared/bridge/desk-contract';
import { bridgeKey, bridgeQueryOptions, createBridgeQueryClient } from '@src/renderer/src/bridge/query-client';
import { readFirstScreen, TODAY_FIRST_ROWS } from '@src/renderer/src/today/read-ahead';
import { todayInput } from '@src/renderer/src/today/today-rows';
import { sendFirstReads } from '@src/renderer/src/today/first-reads';

/**
 * A bridge built from the real contract whose answers the test releases by hand, in any order:
 * what the page asks for while the host has not answered yet.
 */
function heldBridge() {
  const calls: BridgeMethod[] = [];
  const inputs: unknown[] = [];
  const waiting: { method: BridgeMethod; input: unknown; answer(result: BridgeResult<unknown>): void }[] = [];
  const bridge = buildBridgeApi(
    (method, input) =>
      new Promise<BridgeResult<unknown>>((answer) => {
        calls.push(method);
        inputs.push(input);
        waiting.push({ method, input, answer });
      }),
    () => () => undefined,
  );
  /** Answers the first call waiting for `method` (`whole`: Today's whole-list read, not its first rows). */
  const answer = (method: BridgeMethod, result: BridgeResult<unknown>, which: 'any' | 'first rows' | 'whole' = method === 'desk.today' ? 'whole' : 'any') => {
    const index = waiting.findIndex(
      (call) => call.method === method && (which === 'any' || (which === 'first rows') === ((call.input as { first?: number }).first !== undefined)),
    );
    if (index < 0) throw new Error(`${method} was not asked for`);
    waiting.splice(index, 1)[0].answer(result);
  };
  /** Whole-list reads of Today (not its first rows). */
  const wholeReads = () => inputs.filter((input, i) => calls[i] === 'desk.today' && (input as { first?: number }).first === undefined).length;
  return { bridge, calls, inputs, answer, wholeReads };
}

const NOW = new Date(2026, 10, 27, 9, 30);
const TODAY: DeskToday = {
  data: [{ patient_id: 'pat_A', first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10', eligibility: 'pending', last_activity_at: '2026-11-27T09:00:00.000Z', sync_state: 'queued' }],
  as_of: '2026-11-27T09:29:00.000Z',
};
const FIRST_ROWS: DeskToday = { ...TODAY, total: 10_000 };
const SESSION = { setup_needed: false, people: [], signed_in: null, must_choose_pin: false, lock_pin_set: false };
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

let cleanup: (() => void)[] = [];
afterEach(() => {
  cleanup.forEach((done) => done());
  cleanup = [];
});

/** Today's screen opening: an observer subscribed to its read, as `useBridgeQuery` does. */
function openToday(client: QueryClient, desk: ReturnType<typeof heldBridge>) {
  const observer = new QueryObserver(client, bridgeQueryOptions(desk.bridge, 'desk.today', todayInput(NOW)));
  const off = observer.subscribe(() => undefined);
  cleanup.push(off);
  return { observer, off };
}

describe("the first screen's reads at the page's start (issue 31)", () => {
  it("asks for Today before the sign-in gate's question has answered, the gate's question first", async () => {
    const desk = heldBridge();
    readFirstScreen(desk.bridge, createBridgeQueryClient(), NOW);
    await settle();
    // Nothing has answered, and Today is already being read: not after the gate and the screen's mount.
    expect(desk.calls).toEqual(['staff.session', 'desk.today']);
    const since = todayInput(NOW).since;
    expect(desk.inputs[1]).toEqual({ since, first: TODAY_FIRST_ROWS });
    // The whole list once the first rows are in: sent together, the host might shape all of it first.
    desk.answer('desk.today', { ok: true, value: FIRST_ROWS }, 'first rows');
    await settle();
    expect(desk.inputs.slice(2)).toEqual([{ since }]);
  });

  it("waits for the page's first paint before asking for the whole list, and is ready once the gate's answer and the first rows are in", async () => {
    const desk = heldBridge();
    const client = createBridgeQueryClient();
    let painted: () => void = () => undefined;
    const reads = readFirstScreen(desk.bridge, client, NOW, undefined, new Promise<void>((resolve) => (painted = resolve)));
    let ready = false;
    void reads.ready.then(() => (ready = true));
    await settle();
    desk.answer('staff.session', { ok: true, value: SESSION });
    await settle();
    expect(ready).toBe(false);
    desk.answer('desk.today', { ok: true, value: FIRST_ROWS }, 'first rows');
    await settle();
    // Both are in the query layer when it says so: the first render draws the desk and Today's first rows at once.
    expect(ready).toBe(true);
    expect(client.getQueryData(bridgeKey('staff.session', {}))).toEqual(SESSION);
    expect(client.getQueryData(bridgeKey('desk.today', todayInput(NOW)))).toEqual(FIRST_ROWS);
    expect(desk.wholeReads()).toBe(0);
    painted();
    await settle();
    expect(desk.wholeReads()).toBe(1);
  });

  it('shows Today\'s first rows, with the count of all, while the whole list is on its way; then the whole list, read once', async () => {
    const desk = heldBridge();
    const client = createBridgeQueryClient();
    readFirstScreen(desk.bridge, client, NOW);
    await settle();
    desk.answer('desk.today', { ok: true, value: FIRST_ROWS }, 'first rows');
    await settle();
    const { observer } = openToday(client, desk);
    expect(observer.getCurrentResult().data).toEqual(FIRST_ROWS);
    const whole = { ...TODAY, data: [...TODAY.data, { ...TODAY.data[0], patient_id: 'pat_B' }] };
    desk.answer('desk.today', { ok: true, value: whole });
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(whole));
    await settle();
    expect(desk.wholeReads()).toBe(1);
  });

  it('asks for the whole list even when the first rows were refused, and shows only what the host answered', async () => {
    const desk = heldBridge();
    const client = createBridgeQueryClient();
    readFirstScreen(desk.bridge, client, NOW);
    await settle();
    desk.answer('desk.today', { ok: false, error: { type: 'api_error', code: 'internal_error', message: 'Something went wrong.', status: 500 } }, 'first rows');
    await settle();
    expect(client.getQueryData(bridgeKey('desk.today', todayInput(NOW)))).toBeUndefined();
    desk.answer('desk.today', { ok: true, value: TODAY });
    await settle();
    expect(client.getQueryData(bridgeKey('desk.today', todayInput(NOW)))).toEqual(TODAY);
  });

  it("hands the answer to Today's first opening, which reads nothing more; the next opening reads again, as before", async () => {
    const desk = heldBridge();
    const client = createBridgeQueryClient();
    readFirstScreen(desk.bridge, client, NOW);
    await settle();
    desk.answer('staff.session', { ok: true, value: SESSION });
    desk.answer('desk.today', { ok: true, value: FIRST_ROWS }, 'first rows');
    await settle();
    desk.answer('desk.today', { ok: true, value: TODAY });
    await settle();

    const first = openToday(client, desk);
    expect(first.observer.getCurrentResult().data).toEqual(TODAY);
    await settle();
    expect(desk.wholeReads()).toBe(1);

    // Away and back: a screen that opens reads what it shows.
    first.off();
    openToday(client, desk);
    await settle();
    expect(desk.wholeReads()).toBe(2);
  });

  it('shares the read with a Today that opens while it is on its way: one read', async () => {
    const desk = heldBridge();
    const client = createBridgeQueryClient();
    readFirstScreen(desk.bridge, client, NOW);
    await settle();
    const { observer } = openToday(client, desk);
    desk.answer('desk.today', { ok: true, value: FIRST_ROWS }, 'first rows');
    await settle();
    desk.answer('desk.today', { ok: true, value: TODAY });
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(TODAY));
    await settle();
    expect(desk.wholeReads()).toBe(1);
  });

  it('reads Today when it opens if the host refused the read ahead (no one signed in yet, or the desk locked)', async () => {
    const desk = heldBridge();
    const client = createBridgeQueryClient();
    readFirstScreen(desk.bridge, client, NOW);
    await settle();
    const refused = { ok: false, error: { type: 'authentication_error', code: 'sign_in_required', message: 'Sign in to continue.', status: 401 } } as const;
    desk.answer('desk.today', refused, 'first rows');
    await settle();
    desk.answer('desk.today', refused);
    await settle();
    expect(client.getQueryData(bridgeKey('desk.today', todayInput(NOW)))).toBeUndefined();

    const { observer } = openToday(client, desk);
    await settle();
    expect(desk.wholeReads()).toBe(2);
    desk.answer('desk.today', { ok: true, value: TODAY });
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(TODAY));
  });

  it("sends the gate's question and Today's first rows from the page's first script, before the main one has run", async () => {
    const desk = heldBridge();
    const sent = sendFirstReads({ coverdesk: desk.bridge, location: { hash: '' } as Location }, NOW);
    expect(sent?.since).toBe(todayInput(NOW).since);
    expect(desk.calls).toEqual(['staff.session', 'desk.today']);
    expect(desk.inputs[1]).toEqual({ since: todayInput(NOW).since, first: TODAY_FIRST_ROWS });
    // A browser-mode address without its secret: nothing is sent (the main script says how to open the desk).
    expect(sendFirstReads({ location: { hash: '' } as Location }, NOW)).toBeUndefined();
  });

  it("takes over the first script's reads: neither is asked again, and its first rows are Today's until the whole list is in", async () => {
    const desk = heldBridge();
    const client = createBridgeQueryClient();
    const sent = sendFirstReads({ coverdesk: desk.bridge, location: { hash: '' } as Location }, NOW);
    readFirstScreen(desk.bridge, client, NOW, sent);
    await settle();
    expect(desk.calls).toEqual(['staff.session', 'desk.today']);
    desk.answer('staff.session', { ok: true, value: SESSION });
    desk.answer('desk.today', { ok: true, value: FIRST_ROWS }, 'first rows');
    await settle();
    expect(client.getQueryData(bridgeKey('staff.session', {}))).toEqual(SESSION);
    const { observer } = openToday(client, desk);
    expect(observer.getCurrentResult().data).toEqual(FIRST_ROWS);
    // Only the whole list was asked for by the main script.
    expect(desk.calls).toEqual(['staff.session', 'desk.today', 'desk.today']);
    desk.answer('desk.today', { ok: true, value: TODAY });
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(TODAY));
    expect(desk.wholeReads()).toBe(1);
  });

  it("asks for Today's first rows itself when the first script's were for another day (opened just before midnight)", async () => {
    const desk = heldBridge();
    const client = createBridgeQueryClient();
    const sent = sendFirstReads({ coverdesk: desk.bridge, location: { hash: '' } as Location }, new Date(2026, 10, 26, 23, 59));
    readFirstScreen(desk.bridge, client, NOW, sent);
    await settle();
    expect(desk.calls).toEqual(['staff.session', 'desk.today', 'desk.today']);
    expect(desk.inputs[2]).toEqual({ since: todayInput(NOW).since, first: TODAY_FIRST_ROWS });
  });
});
