import type { QueryClient } from '@tanstack/react-query';
import type { BridgeApi, BridgeInput } from '../../../shared/bridge/contract';
import { readAhead } from '../bridge/query-client';
import { localDate, nextDay } from '../local-day';
import type { ScreenName } from './navigation';

/**
 * What the screens read ahead below show first: today's report, tomorrow's worklist. The
 * screens start from these, so a read asked for here is the one their first render asks for.
 */
export const FIRST_INPUTS = {
  endOfDay: (): BridgeInput<'collections.endOfDay'> => ({ date: localDate() }),
  worklist: (): BridgeInput<'appointments.worklist'> => ({ date: nextDay(localDate()) }),
};

/**
 * The first read of a screen whose host answer is slow, asked for at the keystroke or click
 * that opens it, beside the screen's code loading and its first render instead of after them
 * (issue 31: End of day for 1,000 visits spent 110–180 ms on the host's report, which started
 * only once its chunk had loaded and the screen had mounted; the Schedule's worklist of a
 * day's 1,000 appointments, with their estimates, is the same kind of read). The screen's
 * mount takes the answer as its own read (`readAhead`); each opening asks again, as a mount
 * would.
 */
const FIRST_READS: Partial<Record<ScreenName, (client: QueryClient, bridge: BridgeApi) => Promise<void>>> = {
  end_of_day: (client, bridge) => readAhead(client, bridge, 'collections.endOfDay', FIRST_INPUTS.endOfDay()),
  schedule: (client, bridge) => readAhead(client, bridge, 'appointments.worklist', FIRST_INPUTS.worklist()),
};

/** Starts the opened screen's slow first read, if it has one; the host still decides whether it may be read. */
export function readOnOpen(client: QueryClient, bridge: BridgeApi, screen: ScreenName): void {
  void FIRST_READS[screen]?.(client, bridge).catch(() => undefined);
}
