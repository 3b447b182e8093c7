import type { BridgeMethod, BridgeResult } from '../../../shared/bridge/contract';
import { EVENTS_TOLD_HEADER } from '../../../shared/bridge/web-paths';
import type { EventsGap } from './events-gap';

/** One bridge call over HTTP: what the browser mode's bridge and the page's first reads send. */
export type WebBridgeCall = (method: BridgeMethod, input: unknown) => Promise<BridgeResult<unknown>>;

/**
 * The browser mode's bridge call, without the contract's schemas: the page's first reads
 * (`first-read.ts`) send it before the rest of the page's script has loaded. The per-run
 * secret is sent on every call; a 401 means it is not this run's (`onUnauthorized`). Every
 * answer tells `gap` how many events the host had told when it began.
 */
export function webBridgeCall(secret: string, onUnauthorized: () => void, gap: EventsGap): WebBridgeCall {
  return async (method, input) => {
    try {
      const response = await fetch(`/bridge/${method}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Coverdesk-Secret': secret },
        body: JSON.stringify(input ?? {}),
      });
      // Only a missing or wrong secret answers 401 here (bridge errors travel in a 200).
      if (response.status === 401) onUnauthorized();
      const toldBefore = response.headers.get(EVENTS_TOLD_HEADER);
      if (toldBefore !== null) gap.answered(Number(toldBefore));
      return (await response.json()) as BridgeResult<unknown>;
    } catch {
      return {
        ok: false,
        error: { type: 'api_error', code: 'host_unreachable', message: 'Coverdesk is not running. Start it again, then retry.', status: 0 },
      };
    }
  };
}
