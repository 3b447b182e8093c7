import type { BridgeMethod, BridgeOutput, BridgeParsedInput } from '../../shared/bridge/contract';

export type BridgeHandler<M extends BridgeMethod> = (input: BridgeParsedInput<M>) => Promise<BridgeOutput<M>>;

/** Every bridge method's handler. The host composes it from one map per domain. */
export type BridgeHandlers = { [M in BridgeMethod]: BridgeHandler<M> };

/**
 * The handlers of some methods: each domain module (records, inbox, desk, sync, settings,
 * local API, extraction) returns one of these, and `composeBridgeHandlers` checks that
 * together they cover the contract exactly.
 */
export type HandlersFor<M extends BridgeMethod> = Pick<BridgeHandlers, M>;

export function composeBridgeHandlers(...maps: Partial<BridgeHandlers>[]): BridgeHandlers {
  const all: Partial<BridgeHandlers> = {};
  for (const map of maps) {
    for (const method of Object.keys(map) as BridgeMethod[]) {
      if (Object.hasOwn(all, method)) throw new Error(`Two handlers for bridge method ${method}`);
      (all as Record<string, unknown>)[method] = map[method];
    }
  }
  return all as BridgeHandlers;
}
