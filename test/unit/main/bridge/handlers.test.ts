import { describe, expect, it } from 'vitest';
import { BRIDGE_METHOD_NAMES } from '@src/shared/bridge/contract';
import { composeBridgeHandlers, type BridgeHandlers } from '@src/main/bridge/handlers';

function handlersFor(methods: readonly string[]): Partial<BridgeHandlers> {
  return Object.fromEntries(methods.map((method) => [method, async () => undefined])) as Partial<BridgeHandlers>;
}

describe('composeBridgeHandlers', () => {
  it('accepts maps that cover every method of the contract once', () => {
    const [first, ...rest] = BRIDGE_METHOD_NAMES;
    const handlers = composeBridgeHandlers(handlersFor([first]), handlersFor(rest));
    expect(Object.keys(handlers).sort()).toEqual([...BRIDGE_METHOD_NAMES].sort());
  });

  it('refuses a method handled twice', () => {
    const [first] = BRIDGE_METHOD_NAMES;
    expect(() => composeBridgeHandlers(handlersFor(BRIDGE_METHOD_NAMES), handlersFor([first]))).toThrow(`Two handlers for bridge method ${first}`);
  });

  it('refuses a contract method left without a handler, naming it', () => {
    const last = BRIDGE_METHOD_NAMES[BRIDGE_METHOD_NAMES.length - 1];
    expect(() => composeBridgeHandlers(handlersFor(BRIDGE_METHOD_NAMES.slice(0, -1)))).toThrow(`No handler for bridge methods ${last}`);
  });

  it('refuses a handler for a method the contract does not declare', () => {
    expect(() => composeBridgeHandlers(handlersFor([...BRIDGE_METHOD_NAMES, 'records.teleport']))).toThrow('records.teleport');
  });
});
