/** "1984-03-07" → "03/07/1984": how a US desk reads and types dates of birth. */
export function formatDob(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return match ? `${match[2]}/${match[3]}/${match[1]}` : iso;
}

/**
 * "2:05 PM": what `Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' })` writes,
 * without making one. Chromium took 37 ms to make that formatter (the page's first), inside the
 * render of Today's first rows, which show only times of today (issue 31).
 */
function timeOfDay(date: Date): string {
  const hours = date.getHours();
  return `${hours % 12 || 12}:${String(date.getMinutes()).padStart(2, '0')} ${hours < 12 ? 'AM' : 'PM'}`;
}

// Formatters made once: `toLocale…String` builds a new Intl formatter on every call, the
// largest cost of drawing a long table of times (End of day's entries, the audit log). Made on
// first use, not as the page's script loads (issue 31: the first screen needs none of them).
let dayFormat: Intl.DateTimeFormat | undefined;
let dayYearFormat: Intl.DateTimeFormat | undefined;
const DAY = () => (dayFormat ??= new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' }));
const DAY_YEAR = () => (dayYearFormat ??= new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }));

/** A timestamp as local time: "2:05 PM" today, "Mar 7, 2:05 PM" on another day. */
export function formatWhen(timestamp: string, now = new Date()): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return timestamp;
  const time = timeOfDay(date);
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
  return `${DAY_YEAR().format(date)}, ${timeOfDay(date)}`;
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
