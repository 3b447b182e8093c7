import type { QueryClient } from '@tanstack/react-query';
import type { BridgeApi } from '../../../shared/bridge/contract';
import { bridgeKey, readAhead } from '../bridge/query-client';
import { TODAY_FIRST_ROWS, type FirstReads } from './first-reads';
import { todayInput } from './today-rows';

export { TODAY_FIRST_ROWS } from './first-reads';

/** What `readFirstScreen` started, for the page's first render. */
export interface FirstScreenReads {
  /** Settles once the gate's answer and Today's first rows are in the query layer (or refused). */
  ready: Promise<void>;
}

/**
 * The first screen's reads, started as the page starts, before React renders (issue 31): the
 * gate's question first (answered at once, so the gate and the shell render while the host
 * works), then Today's first rows and the count of all, then, once they are in, Today whole. Today whole was asked
 * for only after the gate had answered and the screen had mounted, and it is the host's
 * longest read (10,000 rows shaped); its first rows are Today's answer until it is in.
 * `painted`: the whole list waits for it too (the page's first paint), so the host shapes
 * 10,000 rows after the page has drawn the first ones, not on the same two cores meanwhile.
 */
export function readFirstScreen(bridge: BridgeApi, client: QueryClient, now = new Date(), sent?: FirstReads, painted?: Promise<unknown>): FirstScreenReads {
  const input = todayInput(now);
  if (sent) bridge = withFirstReads(bridge, sent);
  const session = readAhead(client, bridge, 'staff.session', {});
  const firstRows = bridge.desk.today({ ...input, first: TODAY_FIRST_ROWS }).then((result) => {
    const key = bridgeKey('desk.today', input);
    const whole = client.getQueryState(key);
    // Only while the whole list is still on its way: never over it, nor over a refusal.
    if (result.ok && whole?.fetchStatus === 'fetching' && whole.data === undefined) client.setQueryData(key, result.value);
  });
  // Asked for once the first rows are in: sent together, the host may shape all 10,000 first.
  void readAhead(client, bridge, 'desk.today', input, painted ? Promise.all([firstRows, painted]) : firstRows);
  return { ready: Promise.all([session, firstRows]).then(() => undefined) };
}

/**
 * The bridge, with the page's first script's reads (`first-read.ts`) as the answers to the
 * first asks for them: the same questions, already on their way, never sent twice. Today's
 * first rows only for the same day (the page may have been opened just before midnight).
 */
function withFirstReads(bridge: BridgeApi, sent: FirstReads): BridgeApi {
  let session: FirstReads['session'] | undefined = sent.session;
  let todayFirstRows: FirstReads['todayFirstRows'] | undefined = sent.todayFirstRows;
  return {
    ...bridge,
    staff: {
      ...bridge.staff,
      session: (input) => {
        const answer = session ?? bridge.staff.session(input);
        session = undefined;
        return answer;
      },
    },
    desk: {
      ...bridge.desk,
      today: (input) => {
        if (!todayFirstRows || input.since !== sent.since || input.first !== TODAY_FIRST_ROWS) return bridge.desk.today(input);
        const answer = todayFirstRows;
        todayFirstRows = undefined;
        return answer;
      },
    },
  };
}
