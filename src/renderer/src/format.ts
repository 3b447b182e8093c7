/** "1984-03-07" → "03/07/1984": how a US desk reads and types dates of birth. */
export function formatDob(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return match ? `${match[2]}/${match[3]}/${match[1]}` : iso;
}

// Formatters made once: `toLocale…String` builds a new Intl formatter on every call, the
// largest cost of drawing a long table of times (End of day's entries, the audit log). Made on
// first use, not as the page's script loads: each one is milliseconds of the first screen's
// start (issue 31), and Today's first rows need only the time.
let timeFormat: Intl.DateTimeFormat | undefined;
let dayFormat: Intl.DateTimeFormat | undefined;
let dayYearFormat: Intl.DateTimeFormat | undefined;
const TIME = () => (timeFormat ??= new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }));
const DAY = () => (dayFormat ??= new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' }));
const DAY_YEAR = () => (dayYearFormat ??= new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }));

/** A timestamp as local time: "2:05 PM" today, "Mar 7, 2:05 PM" on another day. */
export function formatWhen(timestamp: string, now = new Date()): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return timestamp;
  const time = TIME().format(date);
  if (date.toDateString() === now.toDateString()) return time;
  const day = (date.getFullYear() !== now.getFullYear() ? DAY_YEAR() : DAY()).format(date);
  return `${day}, ${time}`;
}

export { formatCents } from '../../shared/money';

/**
 * Date and time, always both: "Nov 26, 2026, 1:24 PM". For records read later and out of
 * context (the audit log, its printouts), where "1:24 PM" alone would not say which day.
 */
export function formatDateTime(timestamp: string): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return timestamp;
  return `${DAY_YEAR().format(date)}, ${TIME().format(date)}`;
}

/** A fraction as a percentage: 0.2 → "20%", 0.125 → "12.5%". */
export function formatPercent(fraction: number): string {
  return `${Math.round(fraction * 1000) / 10}%`;
}

/** "Last, First", the way a desk files and calls out names. */
export function patientName(p: { first_name: string; last_name: string }): string {
  return `${p.last_name}, ${p.first_name}`;
}

export { localDate, startOfLocalDay } from './local-day';
