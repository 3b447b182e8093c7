import type { DeskPatientRow } from '../../../shared/bridge/desk-contract';
import { matchesDeskQuery, parseDeskQuery } from '../../../shared/bridge/desk-search';
import { startOfLocalDay } from '../local-day';

/** Today's read: everyone with activity since the start of the desk's local day. */
export function todayInput(now = new Date()): { since: string } {
  return { since: startOfLocalDay(now) };
}

/**
 * What Today shows for a query: today's rows that match (instantly, in the page), then
 * the host's matches among all patients that are not already shown.
 */
export function todayMatches(today: readonly DeskPatientRow[], query: string, others: readonly DeskPatientRow[] = []): DeskPatientRow[] {
  const parsed = parseDeskQuery(query);
  if (parsed.kind === 'empty') return [...today];
  const shown = today.filter((row) => matchesDeskQuery(row, parsed));
  const ids = new Set(shown.map((row) => row.patient_id));
  return [...shown, ...others.filter((row) => !ids.has(row.patient_id))];
}

/** The visible slice of a fixed-height list, with a few rows either side so fast scrolling never shows blanks. */
export function visibleRange(input: { scrollTop: number; viewportHeight: number; rowHeight: number; count: number; overscan?: number }): { start: number; end: number } {
  const { scrollTop, viewportHeight, rowHeight, count, overscan = 6 } = input;
  if (count === 0) return { start: 0, end: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + viewportHeight) / rowHeight);
  return { start: Math.max(0, first - overscan), end: Math.min(count, last + overscan) };
}
