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

/** What a desk query asks for: a date of birth, a member id, or name words. */
export type DeskQuery =
  | { kind: 'empty' }
  | { kind: 'date_of_birth'; date_of_birth: string }
  | { kind: 'member_id'; member_id: string }
  | { kind: 'name'; tokens: string[] };

/**
 * Reads a query the way a desk means it: a date is a date of birth, anything else with a
 * digit is a member id (names have no digits), and the rest are name words.
 */
export function parseDeskQuery(query: string): DeskQuery {
  const text = query.trim();
  if (!text) return { kind: 'empty' };
  const dob = dateQueryToIso(text);
  if (dob) return { kind: 'date_of_birth', date_of_birth: dob };
  if (/\d/.test(text)) return { kind: 'member_id', member_id: normalizeMemberId(text) };
  return { kind: 'name', tokens: nameTokens(text) };
}

/** The fields a query is matched against, as Today's rows and search results carry them. */
export interface DeskSearchable {
  first_name: string;
  last_name: string;
  date_of_birth: string;
  member_id?: string;
}

/** "O'Brien" and "obrien" alike, "Smith-Jones" as two words: how names are typed varies. */
export function normalizeNameText(text: string): string {
  return text.toLowerCase().replace(/'/g, '').replace(/-/g, ' ');
}

/** " mary smith jones": a leading space so each word's start is " word". */
export function nameHaystack(firstName: string, lastName: string): string {
  return ` ${normalizeNameText(`${firstName} ${lastName}`)}`;
}

/**
 * Whether a patient matches: every name word starts a word of the first or last name; a member id
 * matches from its start, ignoring spaces and dashes. The host's SQL search applies the same rules.
 */
export function matchesDeskQuery(row: DeskSearchable, query: DeskQuery): boolean {
  switch (query.kind) {
    case 'empty':
      return true;
    case 'date_of_birth':
      return row.date_of_birth === query.date_of_birth;
    case 'member_id':
      return row.member_id !== undefined && normalizeMemberId(row.member_id).startsWith(query.member_id);
    case 'name': {
      const haystack = nameHaystack(row.first_name, row.last_name);
      return query.tokens.every((token) => haystack.includes(` ${normalizeNameText(token)}`));
    }
  }
}
