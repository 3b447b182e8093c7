/**
 * Whether a browser-mode page may have missed events (issue 29). Its first answers can come
 * before its event stream listens: the first reads go out from the page's first script, the
 * stream opens only once the main script runs. An event told in between (a card from the local
 * API, a restart on a recovered file) reached no one, and what it changed stayed off the screen.
 * Each answer says how many events the host had told when its call began, the stream's first
 * message how many when it began listening (web-host-app.ts): an answer from before that count
 * may predate an event the stream never carried, and the page reads everything again.
 */
export interface EventsGap {
  /** A bridge answer arrived; `toldBefore`: the host's count when its call began. */
  answered(toldBefore: number): void;
  /** The event stream's first message: the host's count when the stream began listening. */
  opened(told: number): void;
  /** What to do about a gap: called at once if one was already found. */
  onMissed(listener: () => void): void;
}

export function createEventsGap(): EventsGap {
  let oldestBeforeOpen = Infinity;
  let openedAt: number | null = null;
  let missed = false;
  let listener: (() => void) | undefined;
  const miss = () => {
    missed = true;
    listener?.();
  };
  return {
    answered(toldBefore) {
      if (openedAt === null) oldestBeforeOpen = Math.min(oldestBeforeOpen, toldBefore);
      // A call sent before the stream listened, answered after it opened.
      else if (toldBefore < openedAt) miss();
    },
    opened(told) {
      // A reconnect opens the stream again; this run's secret is then refused anyway (a new
      // run), and the host does not drop streams otherwise: only the first opening counts.
      if (openedAt !== null) return;
      openedAt = told;
      if (oldestBeforeOpen < told) miss();
    },
    onMissed(given) {
      listener = given;
      if (missed) given();
    },
  };
}
