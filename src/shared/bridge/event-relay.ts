import type { BridgeEvent } from './contract';

/**
 * The host's events, from the moment the bridge is made (the preload; the browser mode's event
 * stream) to the page's listeners (issue 29). The page's first reads go out before its
 * listeners are installed (they are, once React has mounted): an event that arrived in between
 * (a card from the local API, a batch's progress) reached no one (ipcRenderer and EventSource
 * drop an event nobody listens for), and what it changed stayed off the screen. An event nobody
 * listens for yet is held and given, in order, to the first listener for it. Held at most
 * `maxHeld` an event name, the oldest dropped: a name no screen listens for must not grow
 * without end.
 */
export interface EventRelay<E extends string> {
  /** An event from the host. */
  arrived(event: E, payload: unknown): void;
  /** A page listener; the events held for its name are given to it first, at once. */
  listen(event: E, listener: (payload: unknown) => void): () => void;
}

export const MAX_HELD_EVENTS = 5_000;

/**
 * Every bridge event's name, without the contract's schemas (the page builds its bridge before
 * any is built, issue 31). A `Record` over the contract's events: one missing or unknown does
 * not compile.
 */
const EVENTS: Record<BridgeEvent, true> = {
  'records.changed': true,
  'sync.status': true,
  'session.locked': true,
  'notices.opened': true,
  'appointments.progress': true,
  'host.restarted': true,
  'settings.changed': true,
};
export const EVENT_NAMES = Object.keys(EVENTS) as BridgeEvent[];

export function createEventRelay<E extends string>(maxHeld = MAX_HELD_EVENTS): EventRelay<E> {
  const listeners = new Map<E, Set<(payload: unknown) => void>>();
  const held = new Map<E, unknown[]>();
  return {
    arrived(event, payload) {
      const current = listeners.get(event);
      if (current && current.size > 0) {
        // A copy: a listener that stops listening while told must not skip the next one.
        for (const listener of [...current]) listener(payload);
        return;
      }
      const queue = held.get(event) ?? [];
      held.set(event, queue);
      queue.push(payload);
      if (queue.length > maxHeld) queue.shift();
    },
    listen(event, listener) {
      const current = listeners.get(event) ?? new Set();
      listeners.set(event, current);
      current.add(listener);
      const queue = held.get(event);
      held.delete(event);
      for (const payload of queue ?? []) listener(payload);
      return () => void current.delete(listener);
    },
  };
}
