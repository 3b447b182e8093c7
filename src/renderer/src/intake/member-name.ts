/** A patient's name as the desk registers it: first and last, as people write them. */
export interface SplitName {
  first: string;
  last: string;
}

// Printed after the last name on cards ("JOHN SMITH JR"); not part of either name field.
const SUFFIXES = new Set(['JR', 'SR', 'II', 'III', 'IV', 'V', 'MD', 'PHD', 'ESQ']);
// Written in lower case inside a surname ("de la Cruz", "van der Berg") and part of it.
const PARTICLES = new Set(['DA', 'DAL', 'DE', 'DEL', 'DELA', 'DELLA', 'DER', 'DI', 'DOS', 'DU', 'LA', 'LE', 'VAN', 'VON', 'ST']);
const LOWER_PARTICLES = new Set(['da', 'de', 'del', 'della', 'der', 'di', 'dos', 'du', 'la', 'van', 'von']);

/**
 * One word of a name in title case. Cards print names in capitals; a name already written
 * in mixed case ("McDonald", "DeShawn") was written by someone who knew it and is kept.
 */
function titleWord(word: string, inSurname: boolean, isFirstOfSurname: boolean): string {
  if (/[a-z]/.test(word) && /[A-Z]/.test(word)) return word;
  const lower = word.toLowerCase();
  if (inSurname && !isFirstOfSurname && LOWER_PARTICLES.has(lower)) return lower;
  // Each part after a hyphen or apostrophe starts a name of its own: Smith-Jones, O'Brien.
  let out = lower.replace(/(^|[-'’])(\p{L})/gu, (_, sep: string, letter: string) => sep + letter.toUpperCase());
  // Mc is almost always followed by a capital (McDonald); Mac is not (Mack, Macy), so it is left.
  if (/^mc\p{L}{2,}/iu.test(out)) out = `Mc${out[2].toUpperCase()}${out.slice(3)}`;
  return out;
}

function words(text: string): string[] {
  return text
    .split(/\s+/)
    .map((w) => w.replace(/^[.,]+|[.,]+$/g, ''))
    .filter(Boolean);
}

function stripSuffixes(parts: string[]): string[] {
  const kept = [...parts];
  while (kept.length > 1 && SUFFIXES.has(kept[kept.length - 1].toUpperCase().replace(/\./g, ''))) kept.pop();
  return kept;
}

function titleSurname(parts: string[]): string {
  return parts.map((word, i) => titleWord(word, true, i === 0)).join(' ');
}

/**
 * The member name a card prints, as the patient's first and last name: "DOE, JANE M" and
 * "JANE M DOE" both give Jane / Doe. Middle names and initials are left out (the patient
 * record has no field for them); a surname's particles stay with it ("JUAN DE LA CRUZ" →
 * Juan / De la Cruz). Null when the text is not a name of at least two words.
 */
export function splitMemberName(printed: string): SplitName | null {
  const text = printed.trim();
  if (!text || /\d/.test(text)) return null;
  const comma = text.indexOf(',');
  if (comma > 0) {
    const last = stripSuffixes(words(text.slice(0, comma)));
    const given = words(text.slice(comma + 1)).filter((w) => !SUFFIXES.has(w.toUpperCase().replace(/\./g, '')));
    if (last.length === 0 || given.length === 0) return null;
    return { first: titleWord(given[0], false, false), last: titleSurname(last) };
  }
  const parts = stripSuffixes(words(text));
  if (parts.length < 2) return null;
  // The surname starts at its first particle when one precedes the last word ("DE LA CRUZ").
  let start = parts.length - 1;
  while (start > 1 && PARTICLES.has(parts[start - 1].toUpperCase())) start--;
  return { first: titleWord(parts[0], false, false), last: titleSurname(parts.slice(start)) };
}

/** Letters only, lower case, accents off: "Ó'Brien-Núñez" → ["obrien", "nunez"]. */
function nameTokens(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/['’]/g, '')
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter(Boolean);
}

/**
 * Whether the member name printed on a card is this patient: every word of the last name
 * is there, and the first name or its initial ("DICKINSON, EMILY E", "E DICKINSON").
 * Case, accents, order, middle names and suffixes are forgiven. A blank member name names
 * no one else, so it is taken as a match.
 */
export function memberNamesPatient(printed: string, patient: { first_name: string; last_name: string }): boolean {
  const member = nameTokens(printed);
  if (member.length === 0) return true;
  const last = nameTokens(patient.last_name);
  const [first] = nameTokens(patient.first_name);
  if (!last.every((word) => member.includes(word))) return false;
  if (!first) return true;
  const others = member.filter((word) => !last.includes(word));
  return others.some((word) => word === first || (word.length === 1 && first.startsWith(word)));
}
