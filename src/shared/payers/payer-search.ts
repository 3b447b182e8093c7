import type { PayerEntry } from './payer-directory';

/**
 * Payer search as a front desk types: any name or alternate name, in any word order, with
 * the abbreviations cards and people use ("BCBS TX", "UHC", "Blue Cross Texas"), or any
 * payer id or alias id ("84980", "TXBCBS"). Every query word must match the start of a
 * word of one name (so each keystroke narrows the list); ids also match by prefix.
 *
 * Abbreviations are added on the directory's side once, when the index is built ("Blue
 * Cross Blue Shield of Texas" also holds "bcbs" and "tx"), so a keystroke is a few binary
 * searches over sorted words, not a scan of every name.
 */

export interface PayerHit {
  entry: PayerEntry;
  /** Higher is better; only the order means anything. */
  score: number;
  /** What matched: the name, an alternate name, the payer id or an alias id. */
  matched: { kind: 'name' | 'alternate_name' | 'payer_id' | 'alias_id'; text: string };
}

export interface PayerIndex {
  readonly size: number;
  /** @internal */ readonly docs: readonly Doc[];
  /** @internal */ readonly words: readonly string[];
  /** @internal */ readonly postings: readonly (readonly number[])[];
}

interface Doc {
  entry: number;
  kind: PayerHit['matched']['kind'];
  text: string;
  /** Words of a name with the abbreviations they stand for; the id itself (lower-cased) for an id. */
  tokens: readonly string[];
  /** How many words the name has as written (a short name that matches says more). */
  length: number;
  /** The name's letters and digits run together, for "united health" → "UnitedHealthcare". */
  joined: string;
}

/** US states (and DC, Puerto Rico) by postal code: cards and people use either. */
export const US_STATES: Readonly<Record<string, string>> = {
  al: 'alabama', ak: 'alaska', az: 'arizona', ar: 'arkansas', ca: 'california', co: 'colorado', ct: 'connecticut', de: 'delaware',
  dc: 'district of columbia', fl: 'florida', ga: 'georgia', hi: 'hawaii', id: 'idaho', il: 'illinois', in: 'indiana', ia: 'iowa',
  ks: 'kansas', ky: 'kentucky', la: 'louisiana', me: 'maine', md: 'maryland', ma: 'massachusetts', mi: 'michigan', mn: 'minnesota',
  ms: 'mississippi', mo: 'missouri', mt: 'montana', ne: 'nebraska', nv: 'nevada', nh: 'new hampshire', nj: 'new jersey',
  nm: 'new mexico', ny: 'new york', nc: 'north carolina', nd: 'north dakota', oh: 'ohio', ok: 'oklahoma', or: 'oregon',
  pa: 'pennsylvania', ri: 'rhode island', sc: 'south carolina', sd: 'south dakota', tn: 'tennessee', tx: 'texas', ut: 'utah',
  vt: 'vermont', va: 'virginia', wa: 'washington', wv: 'west virginia', wi: 'wisconsin', wy: 'wyoming', pr: 'puerto rico',
};

/** Phrases (as normalized words) and the abbreviations people type for them. */
const ABBREVIATIONS: readonly [string, readonly string[]][] = [
  ['blue cross blue shield', ['bcbs']],
  ['bluecross blueshield', ['bcbs']],
  ['blue cross', ['bc']],
  ['blue shield', ['bs']],
  ['united healthcare', ['uhc']],
  ['unitedhealthcare', ['uhc', 'united', 'healthcare']],
  ['blue cross and blue shield', ['bcbs']],
  ['medicare', ['mcr']],
  ['medicaid', ['mcd']],
  ['health maintenance organization', ['hmo']],
  ['preferred provider organization', ['ppo']],
  ['federal employee program', ['fep']],
  ['centers for medicare and medicaid services', ['cms']],
  ...Object.entries(US_STATES).map(([code, state]) => [state, [code]] as [string, string[]]),
];

/**
 * The brand abbreviations cards print for the payer's name ("BCBS", "UHC"), spelled out as
 * the phrase they stand for (the first in `ABBREVIATIONS`), with a state code run into or
 * after "BCBS" as the state ("BCBSIL", "BCBS IL": the Blue plans' own short forms). Plan
 * words ("PPO", "HMO") are left alone: cards print them beside every payer's name.
 */
const PRINTED_BRANDS = ['bcbs', 'uhc'] as const;
const BRAND_PHRASES = new Map(PRINTED_BRANDS.map((brand) => [brand, ABBREVIATIONS.find(([, abbreviations]) => abbreviations.includes(brand))![0]]));
const STATE_CODES = Object.keys(US_STATES).join('|');
const BRAND_WITH_STATE = new RegExp(`\\b(${PRINTED_BRANDS.join('|')})(?: ?(${STATE_CODES}))?\\b`, 'g');

/** State codes that are everyday words: after a space ("BCBS in your area") they are not the state. */
const WORD_LIKE_CODES = new Set(['in', 'or', 'me', 'hi', 'ok', 'oh', 'id', 'de', 'la', 'al', 'ma', 'pa']);

/** Normalized text (`normalizePayerText`) with printed brand abbreviations spelled out. */
export function spellOutPayerBrands(normalized: string): string {
  return normalized.replace(BRAND_WITH_STATE, (match: string, brand: (typeof PRINTED_BRANDS)[number], state?: string) => {
    const isState = brand === 'bcbs' && !!state && !(match.includes(' ') && WORD_LIKE_CODES.has(state));
    return [BRAND_PHRASES.get(brand), isState ? US_STATES[state!] : state].filter(Boolean).join(' ');
  });
}

/** Words that never tell payers apart: dropped from queries unless they are all there is, and from card text. */
export const PAYER_FILLER_WORDS: ReadonlySet<string> = new Set(['of', 'the', 'and', 'for', 'inc', 'co', 'company', 'corp', 'llc', 'plan', 'plans', 'insurance', 'ins']);

/** Lower case, no accents, `&` as "and", anything else that is not a letter or digit a space. */
export function normalizePayerText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function nameTokens(name: string): string[] {
  const norm = normalizePayerText(name);
  const words = norm.split(' ').filter(Boolean);
  const padded = ` ${norm} `;
  const extra: string[] = [];
  for (const [phrase, abbreviations] of ABBREVIATIONS) {
    if (padded.includes(` ${phrase} `)) extra.push(...abbreviations);
  }
  // "[TX]" and "(FEP)" style codes are already words; two-letter state codes also name the state.
  for (const word of words) if (word.length === 2 && US_STATES[word]) extra.push(...US_STATES[word].split(' '));
  return [...new Set([...words, ...extra])];
}

/** Builds the index once per directory; `searchPayers` then answers each keystroke. */
export function buildPayerIndex(entries: readonly PayerEntry[]): PayerIndex {
  const docs: Doc[] = [];
  const id = (entry: number, kind: Doc['kind'], text: string): Doc => ({ entry, kind, text, tokens: [text.toLowerCase()], length: 1, joined: text.toLowerCase() });
  const name = (entry: number, kind: Doc['kind'], text: string): Doc => {
    const norm = normalizePayerText(text);
    return { entry, kind, text, tokens: nameTokens(text), length: norm.split(' ').length, joined: norm.replace(/ /g, '') };
  };
  entries.forEach((entry, i) => {
    docs.push(id(i, 'payer_id', entry.payer_id));
    for (const alias of entry.alias_ids) docs.push(id(i, 'alias_id', alias));
    docs.push(name(i, 'name', entry.name));
    for (const alternate of entry.alternate_names) docs.push(name(i, 'alternate_name', alternate));
  });
  const byWord = new Map<string, number[]>();
  docs.forEach((doc, d) => {
    for (const token of doc.tokens) {
      const list = byWord.get(token);
      if (list) list.push(d);
      else byWord.set(token, [d]);
    }
  });
  const words = [...byWord.keys()].sort();
  const index = { size: entries.length, docs, words, postings: words.map((w) => byWord.get(w)!) };
  return Object.assign(index, { entries }) as PayerIndex;
}

function entriesOf(index: PayerIndex): readonly PayerEntry[] {
  return (index as PayerIndex & { entries: readonly PayerEntry[] }).entries;
}

/** First position in the sorted words at or after `prefix`. */
function lowerBound(words: readonly string[], prefix: string): number {
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (words[mid] < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Docs with a word starting with `token`, and whether that word is `token` itself. */
function docsForPrefix(index: PayerIndex, token: string): Map<number, boolean> {
  const found = new Map<number, boolean>();
  for (let w = lowerBound(index.words, token); w < index.words.length && index.words[w].startsWith(token); w++) {
    const exact = index.words[w] === token;
    for (const d of index.postings[w]) if (exact || !found.has(d)) found.set(d, exact || (found.get(d) ?? false));
  }
  return found;
}

const KIND_RANK: Record<PayerHit['matched']['kind'], number> = { payer_id: 40, alias_id: 30, name: 20, alternate_name: 0 };

/**
 * The payers matching `query`, best first, at most `limit`. An empty query matches
 * nothing (the picker shows its own first page). Each payer appears once, with what
 * matched best.
 */
export function searchPayers(index: PayerIndex, query: string, limit = 20): PayerHit[] {
  const all = normalizePayerText(query).split(' ').filter(Boolean);
  if (all.length === 0) return [];
  const meaningful = all.filter((t) => !PAYER_FILLER_WORDS.has(t));
  const tokens = meaningful.length > 0 ? meaningful : all;
  // Rarest word first, so the candidate set is small from the start.
  const perToken = tokens.map((t) => docsForPrefix(index, t)).sort((a, b) => a.size - b.size);
  const best = new Map<number, PayerHit>();
  const entries = entriesOf(index);
  const joinedQuery = tokens.join('');
  for (const [d] of perToken[0]) {
    let exactWords = 0;
    let matchesAll = true;
    for (const found of perToken) {
      const exact = found.get(d);
      if (exact === undefined) {
        matchesAll = false;
        break;
      }
      if (exact) exactWords++;
    }
    if (!matchesAll) continue;
    const doc = index.docs[d];
    const isId = doc.kind === 'payer_id' || doc.kind === 'alias_id';
    const entry = entries[doc.entry];
    // Whole words beat prefixes, a name typed from its start beats words found anywhere,
    // names that say little else beat long ones, ids typed in full beat all; among equals
    // the payers known by many names (the national ones) come first.
    let score = KIND_RANK[doc.kind] + exactWords * 25 - Math.min(doc.length, 15);
    if (isId && exactWords === tokens.length) score += 200;
    if (!isId && exactWords === tokens.length) score += 10;
    if (!isId && doc.joined.startsWith(joinedQuery)) score += doc.kind === 'name' ? 30 : 10;
    score += Math.min(8, Math.log2(1 + entry.alias_ids.length + entry.alternate_names.length));
    const previous = best.get(doc.entry);
    if (!previous || score > previous.score) best.set(doc.entry, { entry, score, matched: { kind: doc.kind, text: doc.text } });
  }
  return [...best.values()].sort((a, b) => b.score - a.score || a.entry.name.localeCompare(b.entry.name)).slice(0, limit);
}

/** What a payer written in a file names: one payer, several it could be, or none the desk knows. */
export type PayerResolution = { kind: 'matched'; entry: PayerEntry } | { kind: 'ambiguous'; entries: PayerEntry[] } | { kind: 'none' };

/**
 * The payer a file's cell names (a schedule's payer column), through the same search the
 * payer picker uses. A payer id or alias id written in full names its payer (a primary id
 * wins over another payer's alias); else a name or alternate name written in full; else
 * the search's hits. One payer: matched. More than one: a person chooses among the best
 * (`limit`), never guessed, since a wrong payer checks the wrong coverage.
 */
export function resolvePayer(index: PayerIndex, text: string, limit = 6): PayerResolution {
  const hits = searchPayers(index, text, 60);
  if (hits.length === 0) return { kind: 'none' };
  const wanted = text.trim().toUpperCase();
  const byPrimaryId = hits.filter((h) => h.entry.payer_id.toUpperCase() === wanted);
  if (byPrimaryId.length === 1) return { kind: 'matched', entry: byPrimaryId[0].entry };
  const byAlias = hits.filter((h) => h.entry.alias_ids.some((id) => id.toUpperCase() === wanted));
  if (byAlias.length > 0) return byAlias.length === 1 ? { kind: 'matched', entry: byAlias[0].entry } : { kind: 'ambiguous', entries: byAlias.slice(0, limit).map((h) => h.entry) };
  const norm = normalizePayerText(text);
  const byName = hits.filter((h) => normalizePayerText(h.entry.name) === norm);
  if (byName.length === 1) return { kind: 'matched', entry: byName[0].entry };
  if (byName.length > 1) return { kind: 'ambiguous', entries: byName.slice(0, limit).map((h) => h.entry) };
  const byAlternate = hits.filter((h) => h.entry.alternate_names.some((n) => normalizePayerText(n) === norm));
  if (byAlternate.length === 1) return { kind: 'matched', entry: byAlternate[0].entry };
  const candidates = (byAlternate.length > 1 ? byAlternate : hits).slice(0, limit).map((h) => h.entry);
  return candidates.length === 1 ? { kind: 'matched', entry: candidates[0] } : { kind: 'ambiguous', entries: candidates };
}
