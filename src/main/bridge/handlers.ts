import { BRIDGE_METHOD_NAMES, type BridgeMethod, type BridgeOutput, type BridgeParsedInput } from '../../shared/bridge/contract';

export type BridgeHandler<M extends BridgeMethod> = (input: BridgeParsedInput<M>) => Promise<BridgeOutput<M>>;

/** Every bridge method's handler. The host composes it from one map per domain. */
export type BridgeHandlers = { [M in BridgeMethod]: BridgeHandler<M> };

/**
 * The handlers of some methods: each domain module (records, inbox, desk, sync, settings,
 * local API, extraction) returns one of these, and `composeBridgeHandlers` checks at start
 * that together they cover the contract exactly: a method with no handler, or with two,
 * would otherwise surface only when the renderer first calls it.
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
  const missing = BRIDGE_METHOD_NAMES.filter((method) => !Object.hasOwn(all, method));
  if (missing.length > 0) throw new Error(`No handler for bridge methods ${missing.join(', ')}`);
  const unknown = Object.keys(all).filter((method) => !(BRIDGE_METHOD_NAMES as string[]).includes(method));
  if (unknown.length > 0) throw new Error(`Handlers for methods the bridge contract does not declare: ${unknown.join(', ')}`);
  return all as BridgeHandlers;
}
