// Apart from format.ts (whose formatters the page's first script need not load): Today's `since`
// is computed by the page's first script (today/first-reads.ts) before anything else runs.

/** The start of the desk's local day, as the host's Timestamp: Today's `since`. */
export function startOfLocalDay(now = new Date()): string {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate()).toISOString();
}

/** The desk's local calendar date as YYYY-MM-DD (what a date of birth is compared with). */
export function localDate(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** The day after `date` (YYYY-MM-DD), as YYYY-MM-DD: the Schedule opens on it. */
export function nextDay(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return localDate(new Date(y, m - 1, d + 1));
}
