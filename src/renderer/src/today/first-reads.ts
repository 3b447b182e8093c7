import type { BridgeMethod, BridgeOutput, BridgeResult } from '../../../shared/bridge/contract';
import { OPEN_PAGE_PATH } from '../../../shared/bridge/web-paths';
import { createEventsGap, type EventsGap } from '../bridge/events-gap';
import { webBridgeCall } from '../bridge/web-bridge-call';
import { todayInput } from './today-rows';

/**
 * How many of Today's rows are read before the rest: more than a tall window shows (a row is
 * 64 px), few enough that the host shapes them at once.
 */
export const TODAY_FIRST_ROWS = 50;

/** The first screen's reads as the page's own first script sent them (`main.tsx` takes them over). */
export interface FirstReads {
  /** Today's read these rows are the start of. */
  since: string;
  session: Promise<BridgeResult<BridgeOutput<'staff.session'>>>;
  todayFirstRows: Promise<BridgeResult<BridgeOutput<'desk.today'>>>;
  /** Sent over HTTP by this script: what its answers said of the host's events, for the main entry's bridge. */
  gap?: EventsGap;
}

/**
 * Sends the sign-in gate's question and Today's first rows. Sent from `first-read.ts`, the page's own
 * entry loaded beside the main one (electron.vite.config.ts) and importing neither React nor
 * the contract's schemas, so the host works on them while the rest of the script downloads
 * and runs (issue 31: the reads used to start only once all of it had run). `undefined` where
 * the page cannot call the bridge yet (a browser-mode address without its secret: the main
 * entry sends it to the page that says how to open the desk).
 */
export function sendFirstReads(page: Pick<Window, 'coverdesk' | 'location'>, now = new Date()): FirstReads | undefined {
  const secret = new URLSearchParams(page.location.hash.slice(1)).get('secret');
  let call: (method: BridgeMethod, input: unknown) => Promise<BridgeResult<unknown>>;
  let gap: EventsGap | undefined;
  if (page.coverdesk) {
    const bridge = page.coverdesk;
    call = (method, input) => (method === 'staff.session' ? bridge.staff.session({}) : bridge.desk.today(input as { since: string; first: number }));
  } else if (secret) {
    gap = createEventsGap();
    call = webBridgeCall(secret, () => page.location.replace(OPEN_PAGE_PATH), gap);
  }
  else return undefined;
  const { since } = todayInput(now);
  return {
    since,
    session: call('staff.session', {}) as FirstReads['session'],
    todayFirstRows: call('desk.today', { since, first: TODAY_FIRST_ROWS }) as FirstReads['todayFirstRows'],
    gap,
  };
}
