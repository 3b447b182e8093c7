import { dateQueryToIso } from '../../shared/bridge/desk-search';
import { dateOfBirthToIso } from '../../shared/date-of-birth';

/**
 * The values of a schedule's cells as scheduling systems write them. Each reader answers the
 * normalised value, or null when the cell is not one (the caller names the row and field).
 */

/**
 * An appointment's date: `M/D/YYYY`, `YYYY-MM-DD` or `MM-DD-YY` (a two-digit year is this
 * century: appointments are near today, unlike births). A time after the date ("1/5/2027
 * 9:30 AM", "2027-01-05T09:30") is returned apart.
 */
export function readAppointmentDate(cell: string): { date: string; time?: string } | null {
  const match = /^(\S+?)(?:[T\s]+(.+))?$/.exec(cell.trim());
  if (!match) return null;
  const [, day, rest] = match as unknown as [string, string, string | undefined];
  const short = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2})$/.exec(day);
  const date = short ? dateQueryToIso(`${short[1]}/${short[2]}/20${short[3]}`) : dateQueryToIso(day);
  if (!date) return null;
  return rest ? { date, time: rest } : { date };
}

/** A time of day in 12-hour ("9:30 AM", "9:30a", "2pm") or 24-hour ("14:05", "1405", "09:30:00") form, as HH:MM. */
export function readTime(cell: string): string | null {
  const text = cell.trim().toLowerCase().replace(/\s+/g, ' ');
  const match = /^(\d{1,2})(?::?(\d{2}))?(?::\d{2}(?:\.\d+)?)?\s*(a|p|am|pm|a\.m\.|p\.m\.)?$/.exec(text);
  if (!match) return null;
  let hours = Number(match[1]);
  const minutes = match[2] === undefined ? 0 : Number(match[2]);
  const half = match[3]?.[0];
  if (minutes > 59) return null;
  if (half) {
    if (hours < 1 || hours > 12) return null;
    hours = (hours % 12) + (half === 'p' ? 12 : 0);
  } else if (match[2] === undefined || hours > 23) {
    // "9" alone is not a time: is it 9 AM or 9 PM?
    return null;
  }
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** A date of birth (M/D/YYYY, YYYY-MM-DD, M/D/YY with the desk's century rule); `today` is the desk's local date. */
export function readDateOfBirth(cell: string, today: string): string | null {
  const iso = dateOfBirthToIso(cell.trim(), today);
  if (!iso || iso < '1900-01-01' || iso > today) return null;
  return iso;
}

/** "Last, First", "LAST, FIRST M", "First Last": the name in one cell, split. */
export function splitPatientName(cell: string): { first_name: string; last_name: string } | null {
  const text = cell.trim().replace(/\s+/g, ' ');
  if (!text) return null;
  const comma = text.indexOf(',');
  if (comma >= 0) {
    const last = text.slice(0, comma).trim();
    const first = text.slice(comma + 1).trim();
    return first && last ? { first_name: first, last_name: last } : null;
  }
  const words = text.split(' ');
  if (words.length < 2) return null;
  return { first_name: words.slice(0, -1).join(' '), last_name: words[words.length - 1] };
}

/**
 * A name as the matcher compares it: accents dropped ("Peña" = "Pena"), case ignored,
 * apostrophes dropped ("O'Brien" = "OBrien"), hyphens and spaces one separator
 * ("Smith-Jones" = "Smith Jones").
 */
export function nameKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’.]/g, '')
    .replace(/[-\s,]+/g, ' ')
    .trim();
}

/** The person as the desk knows them: both names and the birth date, forgiving as `nameKey` is. */
export function personKey(firstName: string, lastName: string, dateOfBirth: string): string {
  return `${nameKey(lastName)}|${nameKey(firstName)}|${dateOfBirth}`;
}

/** The same person written with first and last names split differently ("Mary Ann" + "Lee" vs "Mary" + "Ann Lee"). */
export function looseKey(firstName: string, lastName: string, dateOfBirth: string): string {
  const words = nameKey(`${firstName} ${lastName}`).split(' ').sort();
  return `${words.join(' ')}|${dateOfBirth}`;
}
