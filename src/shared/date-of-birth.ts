import { dateQueryToIso } from './bridge/desk-search';

/**
 * The century rule for a date of birth typed with a two-digit year, stated once so the form
 * can say it: the year is the latest one ending in those digits that does not put the birth
 * after today. On 2026-11-23, 3/14/80 is 1980, 3/14/05 is 2005, 11/23/26 is 2026 and
 * 11/24/26 is 1926 (a birth cannot be tomorrow).
 */
export const TWO_DIGIT_YEAR_RULE = 'A two-digit year means the latest year that is not in the future (80 → 1980, 05 → 2005).';

/**
 * A date of birth as a desk types it (M/D/YYYY, M/D/YY, M-D-YY, or ISO) as YYYY-MM-DD, or
 * null when it is not a real date. `today` is the desk's local date (YYYY-MM-DD): only the
 * page knows its time zone.
 */
export function dateOfBirthToIso(text: string, today: string): string | null {
  const short = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2})$/.exec(text.trim());
  if (!short) return dateQueryToIso(text);
  const [, month, day, yy] = short as unknown as [string, string, string, string];
  const todayYear = Number(today.slice(0, 4));
  const sameCentury = Math.floor(todayYear / 100) * 100 + Number(yy);
  for (const year of [sameCentury, sameCentury - 100]) {
    const iso = dateQueryToIso(`${month}/${day}/${year}`);
    if (iso === null) {
      // 2/29 of a year that is not a leap year, in this century; the century before may have it.
      continue;
    }
    if (iso <= today) return iso;
  }
  return null;
}

/**
 * The other century a two-digit year could have meant, when that is a possible birth year
 * (1900 or later): "6/3/26" read as 2026 could be 1926. Null for a year typed in full, or
 * when the rule already took the earlier century (the later one would be in the future).
 */
export function otherCenturyYear(text: string, iso: string): number | null {
  if (!/^\d{1,2}[/.-]\d{1,2}[/.-]\d{2}$/.test(text.trim())) return null;
  const earlier = Number(iso.slice(0, 4)) - 100;
  return earlier >= 1900 ? earlier : null;
}
