import { describe, expect, it } from 'vitest';
import { createSendWindow, isOverload } from '@src/main/sync/send-window';

describe('the send window', () => {
  it('doubles while every request is answered, up to its maximum', () => {
    const window = createSendWindow({ initial: 4, max: 32 });
    for (let i = 0; i < 4; i++) window.succeeded();
    expect(window.size()).toBe(8);
    for (let i = 0; i < 100; i++) window.succeeded();
    expect(window.size()).toBe(32);
  });

  it('halves on overload, then grows by one per window of successes', () => {
    const window = createSendWindow({ initial: 20, max: 32 });
    window.overloaded(window.ticket());
    expect(window.size()).toBe(10);
    for (let i = 0; i < 9; i++) window.succeeded();
    expect(window.size()).toBe(10);
    window.succeeded();
    expect(window.size()).toBe(11);
  });

  it('never drops below its minimum however often the upstream pushes back', () => {
    const window = createSendWindow({ initial: 4, max: 32, min: 1 });
    for (let i = 0; i < 10; i++) window.overloaded(window.ticket());
    expect(window.size()).toBe(1);
    // A window of one is one success long.
    window.succeeded();
    expect(window.size()).toBe(2);
  });

  it('halves once for a burst refused together: answers to requests sent before the cut cut no more', () => {
    const window = createSendWindow({ initial: 32, max: 32 });
    // 32 requests in flight, all sent under the full window, all answered 429.
    const tickets = Array.from({ length: 32 }, () => window.ticket());
    for (const ticket of tickets) window.overloaded(ticket);
    expect(window.size()).toBe(16);
    // A request sent after the cut and refused too: that is news, and it halves again.
    window.overloaded(window.ticket());
    expect(window.size()).toBe(8);
  });

  it('counts 429, 503, 408 and no answer as overload, and nothing else', () => {
    expect([0, 408, 429, 503].every(isOverload)).toBe(true);
    expect([undefined, 400, 401, 409, 422, 500, 502].some(isOverload)).toBe(false);
  });
});
