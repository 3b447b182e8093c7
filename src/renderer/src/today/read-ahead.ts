import type { QueryClient } from '@tanstack/react-query';
import type { BridgeApi } from '../../../shared/bridge/contract';
import { bridgeKey, readAhead } from '../bridge/query-client';
import { todayInput } from './today-rows';

/**
 * How many of Today's rows are read before the rest: more than a tall window shows (a row is
 * 64 px), few enough that the host shapes them at once.
 */
export const TODAY_FIRST_ROWS = 50;

/**
 * The first screen's reads, started as the page starts, before React renders (issue 31): the
 * gate's question first (answered at once, so the gate and the shell render while the host
 * works), then Today's first rows and the count of all, then, once they are in, Today whole. Today whole was asked
 * for only after the gate had answered and the screen had mounted, and it is the host's
 * longest read (10,000 rows shaped); its first rows are Today's answer until it is in.
 */
export function readFirstScreen(bridge: BridgeApi, client: QueryClient, now = new Date()): void {
  const input = todayInput(now);
  void readAhead(client, bridge, 'staff.session', {});
  const firstRows = bridge.desk.today({ ...input, first: TODAY_FIRST_ROWS }).then((result) => {
    const key = bridgeKey('desk.today', input);
    const whole = client.getQueryState(key);
    // Only while the whole list is still on its way: never over it, nor over a refusal.
    if (result.ok && whole?.fetchStatus === 'fetching' && whole.data === undefined) client.setQueryData(key, result.value);
  });
  // Asked for once the first rows are in: sent together, the host may shape all 10,000 first.
  void readAhead(client, bridge, 'desk.today', input, firstRows);
}
