import { QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { buildBridgeApi } from '@src/shared/bridge/bridge-api';
import type { BridgeMethod, BridgeResult } from '@src/shared/bridge/contract';
import { bridgeQueryOptions, createBridgeQueryClient } from '@src/renderer/src/bridge/query-client';
import { localDate, nextDay } from '@src/renderer/src/local-day';
import { readOnOpen } from '@src/renderer/src/state/read-on-open';

/** A bridge built from the real contract, each call held until the test answers it. */
function heldBridge() {
  const calls: { method: BridgeMethod; input: unknown; answer(result: BridgeResult<unknown>): void }[] = [];
  const bridge = buildBridgeApi(
    (method, input) => new Promise<BridgeResult<unknown>>((answer) => calls.push({ method, input, answer })),
    () => () => undefined,
  );
  return { bridge, calls };
}

const REPORT = { date: localDate(), visits: [], entries: [] };
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

let cleanup: (() => void)[] = [];
afterEach(() => {
  cleanup.forEach((done) => done());
  cleanup = [];
});

describe("a screen's slow first read, started as it is opened (issue 31)", () => {
  it("asks for today's end-of-day report at the keystroke, and the screen's mount takes that answer as its read", async () => {
    const desk = heldBridge();
    const client = createBridgeQueryClient();
    readOnOpen(client, desk.bridge, 'end_of_day');
    // Before the screen's code has loaded or rendered: the report is already on its way.
    expect(desk.calls.map((c) => [c.method, c.input])).toEqual([['collections.endOfDay', { date: localDate() }]]);
    desk.calls[0].answer({ ok: true, value: REPORT });
    await settle();
    // The screen mounts (as useBridgeQuery subscribes): the answer is there, nothing asked again.
    const observer = new QueryObserver(client, bridgeQueryOptions(desk.bridge, 'collections.endOfDay', { date: localDate() }, { keepPrevious: true }));
    cleanup.push(observer.subscribe(() => undefined));
    await settle();
    expect(observer.getCurrentResult().data).toEqual(REPORT);
    expect(desk.calls).toHaveLength(1);
  });

  it('shares one read with a screen that mounts before the answer is in', async () => {
    const desk = heldBridge();
    const client = createBridgeQueryClient();
    readOnOpen(client, desk.bridge, 'end_of_day');
    const observer = new QueryObserver(client, bridgeQueryOptions(desk.bridge, 'collections.endOfDay', { date: localDate() }, { keepPrevious: true }));
    cleanup.push(observer.subscribe(() => undefined));
    await settle();
    expect(desk.calls).toHaveLength(1);
    desk.calls[0].answer({ ok: true, value: REPORT });
    await settle();
    expect(observer.getCurrentResult().data).toEqual(REPORT);
  });

  it('leaves nothing behind when the host refuses it: the screen reads, and shows the refusal, when it opens', async () => {
    const desk = heldBridge();
    const client = createBridgeQueryClient();
    readOnOpen(client, desk.bridge, 'end_of_day');
    desk.calls[0].answer({ ok: false, error: { type: 'api_error', code: 'forbidden', message: 'A manager must sign in.', status: 403 } });
    await settle();
    const observer = new QueryObserver(client, bridgeQueryOptions(desk.bridge, 'collections.endOfDay', { date: localDate() }));
    cleanup.push(observer.subscribe(() => undefined));
    await settle();
    expect(desk.calls).toHaveLength(2);
  });

  it("asks for tomorrow's worklist as the Schedule opens: the day it opens on", async () => {
    const desk = heldBridge();
    readOnOpen(createBridgeQueryClient(), desk.bridge, 'schedule');
    expect(desk.calls.map((c) => [c.method, c.input])).toEqual([['appointments.worklist', { date: nextDay(localDate()) }]]);
  });

  it('counts the next day across a month and a year', () => {
    expect(nextDay('2026-11-30')).toBe('2026-12-01');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
    expect(nextDay('2028-02-28')).toBe('2028-02-29');
  });

  it('reads nothing ahead for a screen whose first read is quick', async () => {
    const desk = heldBridge();
    readOnOpen(createBridgeQueryClient(), desk.bridge, 'settings');
    readOnOpen(createBridgeQueryClient(), desk.bridge, 'today');
    await settle();
    expect(desk.calls).toEqual([]);
  });
});
