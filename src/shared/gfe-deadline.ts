/**
 * When a Good Faith Estimate is due (No Surprises Act, 45 CFR 149.610(b)(1)(vi)) for an
 * uninsured or self-pay patient:
 *  - an item or service scheduled at least 3 business days ahead: no later than 1 business
 *    day after the date of scheduling;
 *  - scheduled at least 10 business days ahead: no later than 3 business days after scheduling;
 *  - on request (the patient asks for one, scheduled or not): no later than 3 business days
 *    after the request.
 * Fewer than 3 business days ahead and not requested, no GFE is required.
 *
 * Business days are Monday to Friday except US federal holidays (5 U.S.C. 6103, as observed:
 * one falling on a Saturday is kept on the Friday before, on a Sunday the Monday after).
 * Dates are the practice's local calendar days, `YYYY-MM-DD`; the arithmetic is on whole days
 * in UTC so no time zone or daylight-saving change moves a day.
 */

export type GfeRule = 'scheduled_3_to_9' | 'scheduled_10_or_more' | 'requested' | 'not_required';

export interface GfeDeadlineInput {
  /** The day the visit was scheduled (booked). */
  scheduled_on: string;
  /** The day of the visit. */
  service_on: string;
  /** The day the patient asked for a GFE, if they did. */
  requested_on?: string | null;
}

export interface GfeDeadline {
  /** Business days from the scheduling day to the visit (the visit's day counted, the scheduling day not). */
  business_days_ahead: number;
  rule: GfeRule;
  /** The last day the GFE may be given; null when none is required. */
  due_on: string | null;
}

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function toDay(date: string): number {
  const match = DATE.exec(date);
  const day = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  if (!match || Number.isNaN(day) || new Date(day).toISOString().slice(0, 10) !== date) throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${date}`);
  return day / DAY_MS;
}
const fromDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const weekday = (day: number) => new Date(day * DAY_MS).getUTCDay();

/** The `n`th given weekday (0 Sunday … 6 Saturday) of a month (0-based); n = -1 is the last. */
function nthWeekday(year: number, month: number, dow: number, n: number): number {
  if (n > 0) {
    const first = Date.UTC(year, month, 1) / DAY_MS;
    return first + ((dow - weekday(first) + 7) % 7) + (n - 1) * 7;
  }
  const last = Date.UTC(year, month + 1, 0) / DAY_MS;
  return last - ((weekday(last) - dow + 7) % 7);
}

/** A fixed-date holiday on a weekend is observed on the Friday before or the Monday after. */
function observed(day: number): number {
  const dow = weekday(day);
  return dow === 6 ? day - 1 : dow === 0 ? day + 1 : day;
}

const holidayCache = new Map<number, Set<number>>();

/** The US federal holidays observed in a year, as day numbers. */
export function federalHolidays(year: number): Set<number> {
  let days = holidayCache.get(year);
  if (!days) {
    const fixed = (month: number, date: number) => observed(Date.UTC(year, month, date) / DAY_MS);
    days = new Set([
      fixed(0, 1), // New Year's Day
      nthWeekday(year, 0, 1, 3), // Martin Luther King Jr.'s Birthday
      nthWeekday(year, 1, 1, 3), // Washington's Birthday
      nthWeekday(year, 4, 1, -1), // Memorial Day
      fixed(5, 19), // Juneteenth
      fixed(6, 4), // Independence Day
      nthWeekday(year, 8, 1, 1), // Labor Day
      nthWeekday(year, 9, 1, 2), // Columbus Day
      fixed(10, 11), // Veterans Day
      nthWeekday(year, 10, 4, 4), // Thanksgiving Day
      fixed(11, 25), // Christmas Day
    ]);
    // New Year's Day of next year on a Saturday is observed on this year's December 31.
    const nextNewYear = observed(Date.UTC(year + 1, 0, 1) / DAY_MS);
    if (new Date(nextNewYear * DAY_MS).getUTCFullYear() === year) days.add(nextNewYear);
    holidayCache.set(year, days);
  }
  return days;
}

function isBusinessDayNumber(day: number): boolean {
  const dow = weekday(day);
  return dow !== 0 && dow !== 6 && !federalHolidays(new Date(day * DAY_MS).getUTCFullYear()).has(day);
}

export function isBusinessDay(date: string): boolean {
  return isBusinessDayNumber(toDay(date));
}

/** The `n`th business day after `date` (n ≥ 1): "1 business day after Friday" is the Monday. */
export function addBusinessDays(date: string, n: number): string {
  let day = toDay(date);
  for (let left = n; left > 0; ) {
    day += 1;
    if (isBusinessDayNumber(day)) left -= 1;
  }
  return fromDay(day);
}

/** Business days after `from` up to and including `to`: Monday to Thursday is 3. */
export function businessDaysBetween(from: string, to: string): number {
  const start = toDay(from);
  const end = toDay(to);
  let count = 0;
  for (let day = start + 1; day <= end; day++) if (isBusinessDayNumber(day)) count += 1;
  return count;
}

export function gfeDeadline(input: GfeDeadlineInput): GfeDeadline {
  const ahead = businessDaysBetween(input.scheduled_on, input.service_on);
  const candidates: { rule: GfeRule; due_on: string }[] = [];
  if (ahead >= 10) candidates.push({ rule: 'scheduled_10_or_more', due_on: addBusinessDays(input.scheduled_on, 3) });
  else if (ahead >= 3) candidates.push({ rule: 'scheduled_3_to_9', due_on: addBusinessDays(input.scheduled_on, 1) });
  if (input.requested_on) candidates.push({ rule: 'requested', due_on: addBusinessDays(input.requested_on, 3) });
  // Scheduled and asked for: the earlier deadline is the one that binds.
  const first = candidates.sort((a, b) => a.due_on.localeCompare(b.due_on))[0];
  return first ? { business_days_ahead: ahead, ...first } : { business_days_ahead: ahead, rule: 'not_required', due_on: null };
}
