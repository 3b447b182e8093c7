import type { QueryClient } from '@tanstack/react-query';
import type { BridgeApi } from '../../../shared/bridge/contract';
import { readAhead } from '../bridge/query-client';
import { todayInput } from './today-rows';

/**
 * The first screen's reads, started as the page starts, before React renders (issue 31): the
 * gate's question first (answered at once, so the gate and the shell render while the host
 * works), then Today, the longest read, which was asked for only after the gate had answered
 * and the screen had mounted.
 */
export function readFirstScreen(bridge: BridgeApi, client: QueryClient, now = new Date()): void {
  void readAhead(client, bridge, 'staff.session', {});
  void readAhead(client, bridge, 'desk.today', todayInput(now));
}
