import type { BridgeApi, BridgeEvent, BridgeMethod, BridgeResult } from './contract';
import { METHOD_ROLES } from './method-roles';

/**
 * Builds the nested `window.coverdesk` object from one invoke function (preload, web client):
 * `coverdesk.patients.create(input)` for `patients.create`. The method names come from
 * `METHOD_ROLES`, a `Record` over every method of the contract (exactly those: a method missing
 * or unknown there does not compile), so the page builds its bridge without building the
 * contract's zod schemas: none is built before Today's first paint (issue 31).
 */
export function buildBridgeApi(
  invoke: (method: BridgeMethod, input: unknown) => Promise<BridgeResult<unknown>>,
  on: (event: BridgeEvent, listener: (payload: unknown) => void) => () => void,
): BridgeApi {
  const api: Record<string, Record<string, unknown>> = {};
  for (const method of Object.keys(METHOD_ROLES) as BridgeMethod[]) {
    const [domain, verb] = method.split('.') as [string, string];
    api[domain] ??= {};
    api[domain][verb] = (input: unknown) => invoke(method, input);
  }
  return { ...api, on } as unknown as BridgeApi;
}
