import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { IdleLockView } from '@src/renderer/src/security/idle-lock';
import { createIdleTimer } from '@src/renderer/src/security/idle-timer';

/** A clock and timers the test moves by hand. */
function manualTime() {
  let now = 0;
  let pending: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  return {
    deps: {
      now: () => now,
      setTimeout: (fn: () => void, ms: number) => {
        const id = nextId++;
        pending.push({ at: now + ms, fn, id });
        return id;
      },
      clearTimeout: (id: unknown) => {
        pending = pending.filter((t) => t.id !== id);
      },
    },
    /** Moves the clock, firing due timers in order (late, if `sleep`: the computer slept). */
    advance(ms: number, { sleep = false } = {}) {
      const until = now + ms;
      if (sleep) now = until;
      for (;;) {
        const due = pending.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        pending = pending.filter((t) => t !== due);
        now = Math.max(now, due.at);
        due.fn();
      }
      now = until;
    },
    get timers() {
      return pending.length;
    },
  };
}

const MIN = 60_000;

describe('idle timer', () => {
  it('locks after the limit with no activity, once', () => {
    const time = manualTime();
    const onIdle = vi.fn();
    createIdleTimer(time.deps, { limitMs: 5 * MIN, onIdle });
    time.advance(5 * MIN - 1);
    expect(onIdle).not.toHaveBeenCalled();
    time.advance(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
    time.advance(60 * MIN);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('counts from the last activity, with one timer however many events arrive', () => {
    const time = manualTime();
    const onIdle = vi.fn();
    const timer = createIdleTimer(time.deps, { limitMs: 5 * MIN, onIdle });
    for (let i = 0; i < 1000; i++) {
      time.advance(200);
      timer.activity();
    }
    expect(time.timers).toBe(1);
    time.advance(5 * MIN - 1);
    expect(onIdle).not.toHaveBeenCalled();
    time.advance(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('locks when a timer fires late after the computer slept', () => {
    const time = manualTime();
    const onIdle = vi.fn();
    createIdleTimer(time.deps, { limitMs: 5 * MIN, onIdle });
    time.advance(3 * 60 * MIN, { sleep: true });
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('takes a new limit from the last activity, and stops cleanly', () => {
    const time = manualTime();
    const onIdle = vi.fn();
    const timer = createIdleTimer(time.deps, { limitMs: 5 * MIN, onIdle });
    time.advance(2 * MIN);
    timer.setLimit(10 * MIN);
    time.advance(7 * MIN);
    expect(onIdle).not.toHaveBeenCalled();
    time.advance(1 * MIN);
    expect(onIdle).toHaveBeenCalledTimes(1);

    const other = vi.fn();
    const stopped = createIdleTimer(time.deps, { limitMs: MIN, onIdle: other });
    stopped.stop();
    stopped.activity();
    time.advance(10 * MIN);
    expect(other).not.toHaveBeenCalled();
  });
});

describe('idle lock screen', () => {
  const desk = <p>Zephyrwood, Quillonia · member ZQX884207153</p>;

  it('shows the desk while unlocked', () => {
    const html = renderToStaticMarkup(<IdleLockView reason={null} minutes={5} onUnlock={() => undefined}>{desk}</IdleLockView>);
    expect(html).not.toMatch(/hidden|inert|aria-hidden/);
    expect(html).not.toContain('Coverdesk is locked');
  });

  it.each([
    ['idle', /Nobody used this desk for 5 minutes/],
    ['system_lock', /The computer was locked/],
    ['system_suspend', /The computer went to sleep/],
    ['manual', /Someone locked this desk/],
  ] as const)('hides the desk (hidden, inert, out of the accessibility tree) when locked: %s', (reason, message) => {
    const html = renderToStaticMarkup(<IdleLockView reason={reason} minutes={5} onUnlock={() => undefined}>{desk}</IdleLockView>);
    expect(html).toMatch(/<div class="idle-lock__content" hidden="" aria-hidden="true" inert="">/);
    expect(html).toMatch(message);
    // The lock screen itself names no patient.
    const lockScreen = html.slice(html.indexOf('class="idle-lock"'));
    expect(lockScreen).not.toMatch(/Zephyrwood|Quillonia|ZQX884207153/);
  });
});
