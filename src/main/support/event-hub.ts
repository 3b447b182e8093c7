import type { BridgeEvent, BridgeEventPayload } from '../../shared/bridge/contract';

/** The host's events, typed by the bridge contract; every adapter subscribes here. */
export interface EventHub {
  emit<E extends BridgeEvent>(event: E, payload: BridgeEventPayload<E>): void;
  on<E extends BridgeEvent>(event: E, listener: (payload: BridgeEventPayload<E>) => void): () => void;
}

export function createEventHub(): EventHub {
  const listeners = new Map<string, Set<(payload: never) => void>>();
  return {
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) {
        try {
          listener(payload as never);
        } catch {
          // One broken subscriber (a closed window) must not stop the others.
        }
      }
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
  };
}
