/**
 * How the desk types what it searches for. Shared by Today's instant filter (renderer) and
 * patient search (host), so both read "03/07/1984" and "XJ-44 102" the same way.
 */

/** A date of birth as typed at a US desk (M/D/YYYY, M-D-YYYY) or ISO, as YYYY-MM-DD; else null. */
export function dateQueryToIso(query: string): string | null {
  const text = query.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  const us = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  const [year, month, day] = iso ? [iso[1], iso[2], iso[3]] : us ? [us[3], us[1], us[2]] : [];
  if (!year) return null;
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${year}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Member ids are printed with spaces and dashes that people type or leave out at will. */
export function normalizeMemberId(value: string): string {
  return value.replace(/[\s-]/g, '').toUpperCase();
}

/** Name words, lower-cased, without the comma of "Last, First". */
export function nameTokens(query: string): string[] {
  return query
    .toLowerCase()
    .split(/[\s,]+/)
    .filter((token) => token.length > 0);
}
