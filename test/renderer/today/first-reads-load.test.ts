import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildBridgeApi } from '@src/shared/bridge/bridge-api';
import type { BridgeResult } from '@src/shared/bridge/contract';

const restore: (() => void)[] = [];
afterEach(() => {
  restore.splice(0).forEach((undo) => undo());
  vi.resetModules();
});

/** How many times the page makes this Intl formatter (the real one, counted). */
function counted(name: 'DateTimeFormat' | 'NumberFormat'): { calls: number } {
  const original = Intl[name];
  const count = { calls: 0 };
  Object.defineProperty(Intl, name, {
    configurable: true,
    writable: true,
    value: new Proxy(original, {
      construct(target, args: unknown[]) {
        count.calls += 1;
        return Reflect.construct(target, args) as object;
      },
    }),
  });
  restore.push(() => Object.defineProperty(Intl, name, { configurable: true, writable: true, value: original }));
  return count;
}

/**
 * Issue 31: the page's first script sends Today's first reads before anything else of the page
 * has run. Each Intl formatter made as a module loads is milliseconds before those reads go out
 * (and again in the main script before the first screen renders): they are made on first use.
 */
describe("the page's first script and the formatters", () => {
  it('sends the first reads without making any Intl formatter', async () => {
    const dates = counted('DateTimeFormat');
    const numbers = counted('NumberFormat');
    vi.resetModules();
    const { sendFirstReads } = await import('@src/renderer/src/today/first-reads');
    const calls: string[] = [];
    const bridge = buildBridgeApi(
      (method) => {
        calls.push(method);
        return new Promise<BridgeResult<unknown>>(() => undefined);
      },
      () => () => undefined,
    );
    sendFirstReads({ coverdesk: bridge, location: { hash: '' } as Location });
    expect(calls).toEqual(['staff.session', 'desk.today']);
    expect(dates.calls).toBe(0);
    expect(numbers.calls).toBe(0);
  });

  it("writes Today's times without any Intl formatter, as en-US's writes them; dates' formatters made once, on first use", async () => {
    const dates = counted('DateTimeFormat');
    const numbers = counted('NumberFormat');
    vi.resetModules();
    const { formatCents, formatDateTime, formatWhen } = await import('@src/renderer/src/format');
    expect(dates.calls).toBe(0);
    expect(numbers.calls).toBe(0);
    const now = new Date(2026, 10, 27, 23, 59);
    const times: string[] = [];
    for (let minute = 0; minute < 24 * 60; minute++) times.push(formatWhen(new Date(2026, 10, 27, 0, minute).toISOString(), now));
    expect(dates.calls).toBe(0);
    expect(times[0]).toBe('12:00 AM');
    expect(times[14 * 60 + 5]).toBe('2:05 PM');
    // Every minute of the day as the formatter it replaces writes it (the real one, made here).
    const intl = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
    expect(times).toEqual(times.map((_, minute) => intl.format(new Date(2026, 10, 27, 0, minute))));
    dates.calls = 0;
    expect(formatWhen(new Date(2026, 2, 7, 14, 5).toISOString(), now)).toBe('Mar 7, 2:05 PM');
    expect(formatWhen(new Date(2026, 2, 8, 9, 5).toISOString(), now)).toBe('Mar 8, 9:05 AM');
    expect(formatWhen(new Date(2025, 2, 7, 14, 5).toISOString(), now)).toBe('Mar 7, 2025, 2:05 PM');
    expect(formatDateTime(new Date(2026, 2, 7, 14, 5).toISOString())).toBe('Mar 7, 2026, 2:05 PM');
    expect(dates.calls).toBe(2);
    expect(formatCents(150_000)).toBe('$1,500.00');
    expect(formatCents(-1_234_567)).toBe('-$12,345.67');
    expect(numbers.calls).toBe(1);
  });
});
