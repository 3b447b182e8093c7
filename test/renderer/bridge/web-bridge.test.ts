import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEventsGap } from '@src/renderer/src/bridge/events-gap';
import { createWebBridge } from '@src/renderer/src/bridge/web-bridge';

/** The browser's EventSource, which Node lacks: it dispatches what a test gives it, as the browser would. */
class FakeEventSource {
  static last: FakeEventSource | undefined;
  private readonly listeners = new Map<string, ((message: { data: string }) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(name: string, listener: (message: { data: string }) => void) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }
  removeEventListener(name: string, listener: (message: { data: string }) => void) {
    this.listeners.set(name, (this.listeners.get(name) ?? []).filter((l) => l !== listener));
  }
  /** As the browser does: to the listeners of that name, or to no one. */
  dispatch(name: string, payload: unknown) {
    for (const listener of this.listeners.get(name) ?? []) listener({ data: JSON.stringify(payload) });
  }
}

afterEach(() => vi.unstubAllGlobals());

describe('the browser mode’s bridge', () => {
  it('holds events that arrive on its stream before the page listens, for the page’s first listener', () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const bridge = createWebBridge('secret', () => undefined, createEventsGap());
    const stream = FakeEventSource.last!;
    expect(stream.url).toBe('/bridge/events?secret=secret');
    stream.dispatch('records.changed', { collection: 'patients', id: 'pat_1' });
    const heard: unknown[] = [];
    const off = bridge.on('records.changed', (change) => heard.push(change));
    stream.dispatch('records.changed', { collection: 'patients', id: 'pat_2' });
    off();
    stream.dispatch('records.changed', { collection: 'patients', id: 'pat_3' });
    expect(heard).toEqual([
      { collection: 'patients', id: 'pat_1' },
      { collection: 'patients', id: 'pat_2' },
    ]);
  });

  it('tells the gap the count its stream opened with', () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const gap = createEventsGap();
    const missed = vi.fn();
    gap.onMissed(missed);
    gap.answered(2);
    createWebBridge('secret', () => undefined, gap);
    FakeEventSource.last!.dispatch('stream.opened', { told: 3 });
    expect(missed).toHaveBeenCalledTimes(1);
  });
});
