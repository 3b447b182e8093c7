/**
 * How many requests the worker keeps in flight, learned from the upstream's answers the way
 * TCP learns a congestion window: it doubles while everything is answered (one more per
 * success), then grows by one per window of successes once the upstream has pushed back,
 * and halves on a sign of overload (429, 503, 408, no answer), once per window: the other
 * answers to requests already in flight are the same overload, not more of it (else one
 * refused burst of 32 would cut the window to 1). A sandbox on loopback that groups its
 * commits wants dozens in flight; a distant vendor that says 429 gets a few.
 */
export interface SendWindow {
  size(): number;
  /** Taken as a request goes: which window it went under. */
  ticket(): number;
  succeeded(): void;
  /** `ticket` is the overloaded request's: one sent before the last cut cuts no more. */
  overloaded(ticket: number): void;
}

export interface SendWindowLimits {
  initial: number;
  max: number;
  min?: number;
}

export function createSendWindow({ initial, max, min = 1 }: SendWindowLimits): SendWindow {
  let size = Math.max(min, Math.min(initial, max));
  // Slow start until the first sign of overload; additive increase after.
  let threshold = max;
  let credit = 0;
  // Bumped at every cut: tickets older than this were in flight when it was made.
  let cuts = 0;
  return {
    size: () => size,
    ticket: () => cuts,
    succeeded() {
      if (size >= max) return;
      if (size < threshold) {
        size += 1;
        return;
      }
      credit += 1;
      if (credit >= size) {
        credit = 0;
        size += 1;
      }
    },
    overloaded(ticket) {
      if (ticket < cuts) return;
      cuts += 1;
      threshold = Math.max(min, Math.floor(size / 2));
      size = threshold;
      credit = 0;
    },
  };
}

/** Answers that mean "too much at once": the window halves. */
export function isOverload(status: number | undefined): boolean {
  return status === 0 || status === 408 || status === 429 || status === 503;
}
