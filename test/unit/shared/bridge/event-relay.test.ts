import { describe, expect, it } from 'vitest';
import { BRIDGE_EVENT_NAMES } from '@src/shared/bridge/contract';
import { createEventRelay, EVENT_NAMES } from '@src/shared/bridge/event-relay';

describe('the bridges’ event relay', () => {
  it('knows every event of the contract by name, without its schemas', () => {
    expect([...EVENT_NAMES].sort()).toEqual([...BRIDGE_EVENT_NAMES].sort());
  });

  it('tells listeners at once, and stops telling one that stopped listening', () => {
    const relay = createEventRelay<'a'>();
    const heard: unknown[] = [];
    const off = relay.listen('a', (payload) => heard.push(payload));
    relay.arrived('a', 1);
    off();
    relay.arrived('a', 2);
    expect(heard).toEqual([1]);
  });

  it('holds what arrives before anyone listens, per event name, for the first listener of that name', () => {
    const relay = createEventRelay<'a' | 'b'>();
    relay.arrived('a', 1);
    relay.arrived('b', 'x');
    relay.arrived('a', 2);
    const a: unknown[] = [];
    relay.listen('a', (payload) => a.push(payload));
    expect(a).toEqual([1, 2]);
    const b: unknown[] = [];
    relay.listen('b', (payload) => b.push(payload));
    expect(b).toEqual(['x']);
  });

  it('holds at most its bound an event name, dropping the oldest', () => {
    const relay = createEventRelay<'a'>(3);
    for (let i = 1; i <= 5; i++) relay.arrived('a', i);
    const heard: unknown[] = [];
    relay.listen('a', (payload) => heard.push(payload));
    expect(heard).toEqual([3, 4, 5]);
  });

  it('holds again once every listener has gone, for the next one', () => {
    const relay = createEventRelay<'a'>();
    const off = relay.listen('a', () => undefined);
    off();
    relay.arrived('a', 7);
    const heard: unknown[] = [];
    relay.listen('a', (payload) => heard.push(payload));
    expect(heard).toEqual([7]);
  });
});
