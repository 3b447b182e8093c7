import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import type { BridgeHandlers } from '@src/main/bridge/handlers';
import type { BridgeError, BridgeResult } from '@src/shared/bridge/contract';

/**
 * Bridge calls as the renderer makes them (through dispatch: the contract's validation, the
 * audit trail, the lock), against whichever host the test has now (`reopen` replaces it).
 */
export function bridgeCalls(handlers: () => BridgeHandlers) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each bridge method answers its own shape; the tests assert the fields they read
  const call = (method: string, input: unknown = {}): Promise<BridgeResult<any>> => dispatchBridgeCall(handlers(), method, input);
  return {
    call,
    /** The value; throws with the host's error when refused. */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
    async ok(method: string, input: unknown = {}): Promise<any> {
      const result = await call(method, input);
      if (!result.ok) throw new Error(`${method}: ${JSON.stringify(result.error)}`);
      return result.value;
    },
    /** The host's error; throws when the call was accepted. */
    async refused(method: string, input: unknown = {}): Promise<BridgeError> {
      const result = await call(method, input);
      if (result.ok) throw new Error(`${method} was accepted`);
      return result.error;
    },
  };
}
