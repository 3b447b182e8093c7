import { BRIDGE_METHODS, isBridgeMethod, type BridgeError, type BridgeResult } from '../../shared/bridge/contract';
import { ServiceError, parseOrThrow } from '../../shared/service-error';
import type { BridgeHandlers } from './handlers';

/**
 * The one entry for a bridge call from any adapter (IPC, HTTP): checks the method exists,
 * validates the input with the contract's schema, and answers `{ok, value} | {ok, error}`
 * so an error keeps its code across the boundary. Unexpected errors are reported without
 * their message or stack: those could carry PHI.
 */
export async function dispatchBridgeCall(handlers: BridgeHandlers, method: string, input: unknown): Promise<BridgeResult<unknown>> {
  try {
    if (!isBridgeMethod(method)) throw new ServiceError('route_not_found', `There is no bridge method named ${method}.`);
    const handler = handlers[method] as (input: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(parseOrThrow(BRIDGE_METHODS[method].input, input ?? {})) };
  } catch (error) {
    return { ok: false, error: toBridgeError(error) };
  }
}

export function toBridgeError(error: unknown): BridgeError {
  const known = error instanceof ServiceError ? error : new ServiceError('internal_error', 'Something went wrong inside Coverdesk. Nothing you entered was lost; try again.');
  return { ...known.toBody(), status: known.status };
}
