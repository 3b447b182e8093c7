import { describe, expect, it, vi } from 'vitest';
import { createEventsGap } from '@src/renderer/src/bridge/events-gap';

describe('events a page may have missed before its event stream listened', () => {
  it('none when every answer began after the last event told before the stream opened', () => {
    const gap = createEventsGap();
    const missed = vi.fn();
    gap.onMissed(missed);
    gap.answered(3);
    gap.answered(3);
    gap.opened(3);
    gap.answered(3);
    gap.answered(5);
    expect(missed).not.toHaveBeenCalled();
  });

  it('a gap when an event was told after an answer began and before the stream opened', () => {
    const gap = createEventsGap();
    const missed = vi.fn();
    gap.onMissed(missed);
    gap.answered(3);
    gap.answered(4);
    expect(missed).not.toHaveBeenCalled();
    gap.opened(4);
    expect(missed).toHaveBeenCalledTimes(1);
  });

  it('a gap when a call sent before the stream listened is answered after it opened, from before its count', () => {
    const gap = createEventsGap();
    const missed = vi.fn();
    gap.onMissed(missed);
    gap.opened(7);
    gap.answered(7);
    expect(missed).not.toHaveBeenCalled();
    gap.answered(6);
    expect(missed).toHaveBeenCalledTimes(1);
  });

  it('a gap found before anyone listens is told to the listener when it comes', () => {
    const gap = createEventsGap();
    gap.answered(0);
    gap.opened(2);
    const missed = vi.fn();
    gap.onMissed(missed);
    expect(missed).toHaveBeenCalledTimes(1);
  });

  it('only the stream’s first opening counts (a reconnect’s count says nothing of the first answers)', () => {
    const gap = createEventsGap();
    const missed = vi.fn();
    gap.onMissed(missed);
    gap.answered(1);
    gap.opened(1);
    gap.opened(9);
    expect(missed).not.toHaveBeenCalled();
  });
});
