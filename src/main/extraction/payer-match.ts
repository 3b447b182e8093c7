import type { ClearinghouseEntity } from '../../shared/contract';
import { UNSURE_AT_MOST } from '../../shared/review-threshold';
import { withDirectoryFacts, type PayerEntry } from '../../shared/payers/payer-directory';
import { normalizePayerText, PAYER_FILLER_WORDS, spellOutPayerBrands, US_STATES } from '../../shared/payers/payer-search';
import { withinOneEdit } from './field-labels';
import { payerWebsite } from './payer-website';
import { WEB_ADDRESS } from './printed-text';

export interface PayerMatch {
  entity: ClearinghouseEntity;
  /** How surely the card names this payer, 0..1. */
  score: number;
  /** A payer id printed on the card ("Payer ID 87726"), the payer's name, or its website. */
  via: 'payer_id' | 'name' | 'website';
  /** What the match rests on, in the desk's words: "the website bcbstx.com and the name on the card". */
  evidence: string;
}

/** A line of the card as read: its text and the OCR's confidence in it, 0..1. */
export interface CardLine {
  text: string;
  confidence: number;
  /** In the card's header (its top third), where payers print their mark. */
  header?: boolean;
}

const FILLER = PAYER_FILLER_WORDS;

/** Filler words that say what kind of payer a name is, as one spelling each ("ins" is insurance). */
const KIND_WORDS = new Map([
  ['plan', 'plan'],
  ['plans', 'plan'],
  ['insurance', 'insurance'],
  ['ins', 'insurance'],
]);

/** US state names' words: the region in a payer's name, which its cards often leave out. */
const REGION_WORDS = new Set(Object.values(US_STATES).flatMap((state) => state.split(' ').filter((w) => !FILLER.has(w))));

/** The region words that name one state: a card naming another state is another payer. */
const STATE_WORDS = new Set([...REGION_WORDS].filter((w) => !['new', 'north', 'south', 'west', 'island', 'district', 'columbia', 'rico', 'hampshire', 'jersey', 'mexico', 'york', 'carolina', 'dakota'].includes(w)));

interface NameDoc {
  entry: number;
  /** The name as the directory writes it. */
  name: string;
  /** Distinct meaningful words, in print order (the first is the brand). */
  words: string[];
  /** The name's letters run together: "UnitedHealthcare" and "United Healthcare" are one name. */
  joined: string;
  /** The payer's own name, not one of its alternate names (which include product names). */
  primary: boolean;
  /**
   * Words only in the name's parentheses: a qualifier the directory adds (an acronym, the
   * administrator, a city: "United Medical Resources (UMR Onalaska)"), which cards leave out.
   */
  qualifier: Set<string>;
  /** Every word only in the parentheses, also of a name with one word outside them ("UMR (United Medical Resources Wausau)"). */
  parenthesised: Set<string>;
}

/**
 * A state's postal code after a region word of the name ("…of Washington DC"): part of the
 * region, which cards leave out as they leave out the rest of it.
 */
function stateCodeOfRegion(words: readonly string[], w: string): boolean {
  const at = words.indexOf(w);
  return at > 0 && w in US_STATES && REGION_WORDS.has(words[at - 1]);
}

/** The words of a name outside and inside its parentheses. */
export function nameParts(printed: string): { words: string[]; qualifier: Set<string>; parenthesised: Set<string> } {
  // A possessive's "s" ("Businessmen's Assurance") is no word of the name: the card's own
  // one-letter words are never looked at, so a name needing one could never be found.
  const name = printed.replace(/(\p{L})['’]s\b/giu, '$1');
  const meaningful = (text: string) => wordsOf(text).filter((w) => !FILLER.has(w));
  const words = [...new Set(meaningful(name))];
  const outside = new Set(meaningful(name.replace(/\([^)]*\)?/g, ' ')));
  // One word outside the parentheses is too little to go on alone ("iCare" turns up inside
  // "MEDICARE"): such a name, like one all in parentheses, is matched whole.
  const parenthesised = new Set(words.filter((w) => !outside.has(w)));
  const qualifier = outside.size < 2 ? new Set<string>() : parenthesised;
  return { words, qualifier, parenthesised };
}

interface Matcher {
  entries: PayerEntry[];
  entities: readonly ClearinghouseEntity[];
  docs: NameDoc[];
  postings: Map<string, number[]>;
  idf: Map<string, number>;
  /** Every word of every name, sorted: misread words are looked up among their neighbours. */
  vocabulary: string[];
  byId: Map<string, number>;
  /** For each word, in how many names it stands after the first word (a brand stands first). */
  inside: Map<string, number>;
  /** For each two words in a row ("blue shield"), in how many names they stand so. */
  pairs: Map<string, number>;
}

/** A word is read as two run together unless the names spell it as one over ten times as often. */
const SPLIT_AT_MOST = 10;

/** A word in more of the directory's names than this is common ("health", "blue", "network"). */
const COMMON_WORD = 15;

const matchers = new WeakMap<readonly ClearinghouseEntity[], Matcher>();
let lastBuilt: { signature: string; matcher: Matcher } | null = null;

/** A name's words, brand abbreviations spelled out; a web address is left to `bySite`, which reads it as one. */
const wordsOf = (text: string) => (WEB_ADDRESS.test(text) ? normalizePayerText(text) : spellOutPayerBrands(normalizePayerText(text))).split(' ').filter((w) => w.length > 0);

/**
 * The index of the desk's payers with the directory's alternate names and alias ids,
 * built once per entity list (~3,500 payers in tens of milliseconds) and kept.
 */
function matcherFor(entities: readonly ClearinghouseEntity[]): Matcher {
  const cached = matchers.get(entities);
  if (cached) return cached;
  // The desk lists its entities afresh for each card: the same list is the same index.
  const signature = entities.map((e) => `${e.id}\u0000${e.name}\u0000${e.payer_id}`).join('\u0001');
  if (lastBuilt?.signature === signature) {
    matchers.set(entities, lastBuilt.matcher);
    return lastBuilt.matcher;
  }
  const entries = withDirectoryFacts(entities);
  const docs: NameDoc[] = [];
  const byId = new Map<string, number>();
  entries.forEach((entry, i) => {
    [entry.name, ...entry.alternate_names].forEach((name, k) => {
      const { words, qualifier, parenthesised } = nameParts(name);
      if (words.length > 0) docs.push({ entry: i, name, words, joined: words.join(''), primary: k === 0, qualifier, parenthesised });
    });
    for (const id of [entry.payer_id, ...entry.alias_ids]) if (!byId.has(id.toUpperCase())) byId.set(id.toUpperCase(), i);
  });
  // Primary ids win over another payer's alias.
  entries.forEach((entry, i) => byId.set(entry.payer_id.toUpperCase(), i));
  const postings = new Map<string, number[]>();
  docs.forEach((doc, d) => {
    for (const w of doc.words) {
      const list = postings.get(w);
      if (list) list.push(d);
      else postings.set(w, [d]);
    }
  });
  const inside = new Map<string, number>();
  for (const doc of docs) for (const w of doc.words.slice(1)) inside.set(w, (inside.get(w) ?? 0) + 1);
  const pairs = new Map<string, number>();
  for (const doc of docs) for (const pair of new Set(doc.words.slice(1).map((w, i) => `${doc.words[i]} ${w}`))) pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
  const idf = new Map<string, number>();
  for (const [w, list] of postings) idf.set(w, Math.log(1 + docs.length / list.length));
  const matcher = { entries, entities, docs, postings, idf, vocabulary: [...postings.keys()].sort(), byId, inside, pairs };
  matchers.set(entities, matcher);
  lastBuilt = { signature, matcher };
  return matcher;
}

/**
 * The directory words a printed word stands for: itself; one misread letter away (words of
 * six letters or more); or two words printed run together ("BlueCross" is blue + cross).
 */
function readAs(m: Matcher, word: string): { word: string; sure: number }[] {
  const out: { word: string; sure: number }[] = [];
  if (word.length >= 7) {
    const asOne = m.postings.get(word)?.length ?? 0;
    for (let cut = 3; cut <= word.length - 3; cut++) {
      const a = word.slice(0, cut);
      const b = word.slice(cut);
      // A word the directory's names spell as one far more often than as the two is that word:
      // "Medical" (in 90 names) is not "Medi" + "Cal" (one: "Medi-Cal", a California programme
      // that an Ohio Medicaid card's "Medical Assistance" line named); "BlueShield" (17) is
      // "Blue Shield" (14) as well.
      if (m.postings.has(a) && m.postings.has(b) && (m.pairs.get(`${a} ${b}`) ?? 0) * SPLIT_AT_MOST >= asOne) out.push({ word: a, sure: 1 }, { word: b, sure: 1 });
    }
  }
  if (m.postings.has(word)) return [...out, { word, sure: 1 }];
  if (out.length === 0 && word.length >= 6) {
    let lo = 0;
    let hi = m.vocabulary.length;
    const prefix = word.slice(0, 2);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (m.vocabulary[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < m.vocabulary.length && m.vocabulary[k].startsWith(prefix); k++) {
      const v = m.vocabulary[k];
      if (v.length >= 6 && withinOneEdit(v, word)) out.push({ word: v, sure: 0.85 });
    }
  }
  return out;
}

interface Scored {
  entry: number;
  name: string;
  /** Share of the name's weight found on the card. */
  coverage: number;
  /** The weight found: a long distinctive name found whole says more than a short common one. */
  weight: number;
  words: string[];
  /** How many payers have a name with all the words found: one word alone ("Medicare") names many. */
  sharedBy: number;
  primary: boolean;
  /** Found on a header line. */
  header: boolean;
  /** The name's region or its parenthesised qualifier is not on the card ("Premera Blue Cross" for "…of Alaska"). */
  regionLeftOut: boolean;
  /** A state of the name's own (outside its parentheses) is not on the card: which of a brand's regional plans is a guess. */
  stateLeftOut: boolean;
  /** The card's words the name was found in, for the desk to see what the match rests on. */
  printed?: string;
  /** The name's words read on the card (all of them for a name read run together). */
  seen: string[];
}

function sharedBy(m: Matcher, words: string[]): number {
  if (words.length === 0) return Infinity;
  const lists = words.map((w) => m.postings.get(w) ?? []).sort((a, b) => a.length - b.length);
  const entries = new Set<number>();
  for (const d of lists[0]) if (lists.every((list) => list.includes(d))) entries.add(m.docs[d].entry);
  return entries.size;
}

/**
 * The payers a few consecutive lines name, each with how much of its name is there.
 * `breaks`: where each line after the first starts in `words`, when the window is two or three lines.
 */
function scoreWindow(m: Matcher, words: string[], header: boolean, fromSiteTable = false, breaks: readonly number[] = []): Scored[] {
  const found = new Map<string, number>();
  const at = new Map<string, number[]>();
  // Words that name nothing: filler and single letters.
  const nameless = (w: string) => FILLER.has(w) || w.length < 2;
  words.forEach((w, position) => {
    if (nameless(w)) return;
    for (const r of readAs(m, w)) {
      found.set(r.word, Math.max(found.get(r.word) ?? 0, r.sure));
      at.set(r.word, [...(at.get(r.word) ?? []), position]);
    }
  });
  // What a card may leave out of a name: its region, and what the directory adds in parentheses.
  // A name the desk's own table gives ("UMR" for umr.com) is the brand itself: what its directory
  // name adds in parentheses is a qualifier even where only one word stands outside them.
  const qualifierOf = (doc: NameDoc) => (fromSiteTable ? doc.parenthesised : doc.qualifier);
  const mayLeaveOut = (doc: NameDoc, w: string) => REGION_WORDS.has(w) || qualifierOf(doc).has(w) || stateCodeOfRegion(doc.words, w);
  // The name's words in its own order, close together: "HEALTH SAVINGS PLAN" over
  // "Shared In and Out of Network" does not spell "Shared Health". Across two lines a name
  // runs on from the end of the first into the start of the second ("BlueCross BlueShield" /
  // "of Texas"): "Plan Type: Premier PPO" over "Questions: highmarkhealth.com" does not
  // spell "Premier Health".
  const inOrder = (doc: NameDoc) => {
    const named = doc.words.filter((w) => !mayLeaveOut(doc, w));
    const positions: number[] = [];
    for (const w of named) {
      const next = (at.get(w) ?? []).find((p) => p >= (positions.at(-1) ?? -1));
      if (next === undefined) return false;
      positions.push(next);
    }
    const first = positions[0] ?? -1;
    const last = positions.at(-1) ?? -1;
    if (last - first > named.length + 2) return false;
    // Each line break the name crosses: the name ends the line before it and starts the one after.
    return breaks.every((at) => {
      if (first >= at || last < at) return true;
      const endBefore = Math.max(...positions.filter((p) => p < at));
      const startAfter = Math.min(...positions.filter((p) => p >= at));
      // Only nameless words or the name's own between: a word of the name said twice ("Blue
      // Cross" / "Blue Shield") stands with it.
      const ofName = (from: number, to: number) => words.slice(from, to).every((w) => nameless(w) || doc.words.includes(w));
      return ofName(endBefore + 1, at) && ofName(at, startAfter);
    });
  };
  const cardWords = words.filter((w) => !FILLER.has(w));
  const joinedCard = cardWords.join('');
  // Where the card's words start and end in `joinedCard`: a name run together must span
  // whole words ("MEDICARE NAME" holds "caren", which is not "Care N' Care").
  const starts = new Set<number>();
  const ends = new Set<number>();
  cardWords.reduce((at, w) => (starts.add(at), ends.add(at + w.length), at + w.length), 0);
  const spansWords = (joined: string) => {
    for (let at = joinedCard.indexOf(joined); at >= 0; at = joinedCard.indexOf(joined, at + 1)) if (starts.has(at) && ends.has(at + joined.length)) return true;
    return false;
  };
  const cardRegions = [...found.keys()].filter((w) => STATE_WORDS.has(w));
  const candidates = new Set<number>();
  for (const w of found.keys()) for (const d of m.postings.get(w) ?? []) candidates.add(d);
  const out: Scored[] = [];
  for (const d of candidates) {
    const doc = m.docs[d];
    // The brand (the name's first word) must be on the card, or the whole name run together.
    const whole = doc.joined.length >= 4 && spansWords(doc.joined);
    if (!whole && !found.has(doc.words[0])) continue;
    // "…of South Central Wisconsin" is not a California payer, however many words it shares.
    const docRegions = doc.words.filter((w) => STATE_WORDS.has(w));
    if (cardRegions.length > 0 && docRegions.length > 0 && !docRegions.some((w) => cardRegions.includes(w))) continue;
    // Every word of the name but its region must be there: "Shared Health Mississippi" is
    // not named by a line that says "Shared". A name of common words only ("Network
    // Health") must be printed as it is written, words together.
    if (!whole && (doc.words.some((w) => !mayLeaveOut(doc, w) && !found.has(w)) || !inOrder(doc))) continue;
    if (!whole && doc.words.length === 2 && doc.words.every((w) => (m.postings.get(w)?.length ?? 0) > COMMON_WORD)) continue;
    // A short acronym alone ("CMS", "GHI") turns up on cards by chance, and a one-word name
    // is too little to go on when it was only nearly read ("Benefits" is not "Benefit Inc.").
    // A name the desk's own table gives for a payer's web address ("umr.com": UMR) is no chance reading.
    if (doc.words.length === 1 && !fromSiteTable && (doc.joined.length < 4 || (!whole && doc.joined.length < 8 && found.get(doc.words[0]) !== 1))) continue;
    // A single word below the header (a sentence of the small print, a copay table) never
    // names a payer on its own: brands are printed at the top, as a logo or a name line.
    if (doc.words.length === 1 && !header) continue;
    let total = 0;
    let got = 0;
    for (const w of doc.words) {
      // Cards often leave out the region a payer's name ends with ("Premera Blue Cross").
      // A qualifier weighs less still: the directory's addition, rarely on the card at all.
      const weight = (m.idf.get(w) ?? 0) * (qualifierOf(doc).has(w) ? 0.1 : REGION_WORDS.has(w) || stateCodeOfRegion(doc.words, w) ? 0.25 : 1);
      total += weight;
      got += weight * (whole ? 1 : (found.get(w) ?? 0));
    }
    const seen = doc.words.filter((w) => found.has(w) || whole);
    if (total > 0) out.push({ entry: doc.entry, name: doc.name, coverage: got / total, weight: got, words: doc.words, sharedBy: sharedBy(m, seen), primary: doc.primary, header, regionLeftOut: !whole && doc.words.some((w) => mayLeaveOut(doc, w) && !found.has(w)), stateLeftOut: !whole && doc.words.some((w) => REGION_WORDS.has(w) && !qualifierOf(doc).has(w) && !found.has(w)), seen });
  }
  return out;
}

/** A payer id printed on the card: "Payer ID 87726", "Payor ID: 61101", "Payer # 87726". */
/** Better first: more of the name found, the payer's own name, in the header, rarer words. */
function compare(a: Scored, b: Scored): number {
  return b.coverage - a.coverage || Number(b.primary) - Number(a.primary) || Number(b.header) - Number(a.header) || b.weight - a.weight;
}

const PAYER_ID_LINE = /\bpay[eo]r\s*(?:id|#|no\.?|number)\s*[:#.]?\s*([A-Z0-9]{5,7})\b/i;

/**
 * Which of the desk's payers the card belongs to, from its lines. A payer id printed on
 * the card names the payer outright (when the desk knows that id, as a primary or alias
 * id). Otherwise the payer is the one whose name, or one of its alternate names, is most
 * fully printed on one line (or two lines in a row, "BlueCross BlueShield" / "of Texas"),
 * words weighted by how rare they are among the directory's names, so "Health" or "Blue"
 * alone names nobody. When two payers fit about as well the match is kept but its score
 * says so.
 */
export function matchPayerLines(lines: readonly CardLine[], entities: readonly ClearinghouseEntity[]): PayerMatch | null {
  if (entities.length === 0) return null;
  const m = matcherFor(entities);
  let byId: { entry: number; confidence: number; id: string } | null = null;
  for (const line of lines) {
    const id = PAYER_ID_LINE.exec(line.text);
    const entry = id ? m.byId.get(id[1].toUpperCase()) : undefined;
    if (entry !== undefined) {
      byId = { entry, confidence: line.confidence, id: id![1] };
      break;
    }
  }
  const named = byName(m, lines);
  const site = bySite(m, lines);
  const nameEvidence = (s: Scored) => `the name “${s.printed}” on the card`;
  if (byId) {
    const top = named?.top;
    const agrees = top?.entry === byId.entry || named?.best.get(byId.entry)?.coverage === 1 || site?.entry === byId.entry;
    // A misread digit could name another payer: without its name on the card too, the
    // printed id is trusted only as far as it was read clearly.
    const score = agrees ? 0.99 : top && top.coverage >= 0.9 ? 0.6 : Math.min(0.95, byId.confidence);
    const evidence = `payer id ${byId.id} printed on the card${agrees && top?.entry === byId.entry ? ` and ${nameEvidence(top)}` : agrees && site ? ` and the website ${site.domain}` : ''}`;
    if (agrees || !top || top.coverage < 0.9) return { entity: m.entities[byId.entry], score, via: 'payer_id', evidence };
  }
  if (!named) {
    if (site) return { entity: m.entities[site.entry], score: site.score, via: 'website', evidence: `the website ${site.domain}` };
    return medicare(m, lines);
  }
  const { top, score, nearly } = named;
  if (site && site.entry === top.entry) {
    // Unless another payer's name is printed there but for one word: the website names the brand both share.
    return { entity: m.entities[top.entry], score: nearly ? score : Math.max(score, 0.97), via: 'name', evidence: `${nameEvidence(top)} and the website ${site.domain}` };
  }
  if (site) {
    // Name and website disagree. The website says which of a brand's regional plans
    // ("Blue Cross Blue Shield" of which state): it wins over a name that left its region
    // out or was only a lead; against a name read whole and surely, neither is sure.
    if (score < 0.9 || top.regionLeftOut) return { entity: m.entities[site.entry], score: Math.min(site.score, 0.85), via: 'website', evidence: `the website ${site.domain} (the name on the card fits several payers)` };
    return { entity: m.entities[top.entry], score: Math.min(score, 0.7), via: 'name', evidence: `${nameEvidence(top)}; the website ${site.domain} names another payer` };
  }
  return { entity: m.entities[top.entry], score, via: 'name', evidence: nameEvidence(top) };
}

/** The payer the card's name lines spell best, and how surely; null when none is spelled well enough. */
function byName(m: Matcher, lines: readonly CardLine[], fromSiteTable = false): { top: Scored; score: number; best: Map<number, Scored>; nearly: boolean } | null {
  const best = new Map<number, Scored>();
  const lineWords = lines.map((l) => wordsOf(l.text));
  // Free text (no layout) counts as header throughout.
  const header = (i: number) => lines[i].header ?? true;
  for (let i = 0; i < lineWords.length; i++) {
    const windows: [string[], string, boolean, number[]][] = [[lineWords[i], lines[i].text, header(i), []]];
    // Two lines in a row are the header's only when both are ("BlueCross BlueShield" / "of Texas").
    if (i + 1 < lineWords.length) windows.push([[...lineWords[i], ...lineWords[i + 1]], `${lines[i].text} ${lines[i + 1].text}`, header(i) && header(i + 1), [lineWords[i].length]]);
    // A logo stacked in three lines ("Blue Cross" / "Blue Shield" / "of Michigan"): in the header only.
    if (i + 2 < lineWords.length && header(i) && header(i + 1) && header(i + 2)) {
      const breaks = [lineWords[i].length, lineWords[i].length + lineWords[i + 1].length];
      windows.push([[...lineWords[i], ...lineWords[i + 1], ...lineWords[i + 2]], `${lines[i].text} ${lines[i + 1].text} ${lines[i + 2].text}`, true, breaks]);
    }
    for (const [words, printed, inHeader, breaks] of windows) {
      for (const s of scoreWindow(m, words, inHeader, fromSiteTable, breaks)) {
        const current = best.get(s.entry);
        if (!current || compare(s, current) < 0) best.set(s.entry, { ...s, printed: printed.trim().replace(/\s+/g, ' ') });
      }
    }
  }
  // Words found that few payers share: "Medicare", "Health" or "Blue Cross" alone name nobody.
  const few = Math.max(5, m.entries.length * 0.03);
  // (A name found whole, brand and all, stands: "Aetna" is shared by many Aetna plans' names.)
  // A one-word name that is an everyday word of payers' names ("Benefit", "Health") rather than
  // a brand (it stands mostly inside other names, not first) names nobody: "Prescription
  // Benefit" is no "Benefit Inc.", "Benefits Identification Card" no "Benefits, Inc.".
  const everyday = (s: Scored) => s.words.length === 1 && (m.inside.get(s.words[0]) ?? 0) > (m.postings.get(s.words[0])?.length ?? 0) / 2;
  const ranked = [...best.values()].filter((s) => s.coverage >= 0.75 && !everyday(s) && (s.sharedBy <= few || (s.coverage >= 0.999 && s.words.some((w) => w.length >= 5)))).sort(compare);
  let top = ranked[0];
  if (!top) return null;
  // A payer's own name printed in the header, where payers print their mark, through a word
  // of its own, outweighs another payer's alternate name (the directory keeps products and
  // employer groups there: "Choice Plus (TRW)") read whole from the plan's line, whichever
  // covers more of its name (the directory's qualifier "(Salt Lake City)" is rarely printed).
  // Not when its state is left out: "AmeriHealth Caritas" names several states' plans, and an
  // alternate name that says which ("…Louisiana (LaCare)") is the better reading.
  const own = top.primary ? undefined : ranked.find((s) => s.primary && s.header && !s.stateLeftOut && !restsOnCommonWords(m, s));
  if (own) top = own;
  // Names that differ only in the word saying what kind of payer it is ("WPS Health Plan",
  // "WPS Health Insurance"), which the matcher sets aside as filler: that word, printed for
  // one of them only, tells them apart; otherwise they are rivals.
  const kinds = (s: Scored) => [...new Set(normalizePayerText(s.name).split(' ').filter((w) => KIND_WORDS.has(w)).map((w) => KIND_WORDS.get(w)!))].sort().join(' ');
  const twins = ranked.filter((s) => s.entry !== top.entry && s.words.length === top.words.length && s.words.every((w) => top.words.includes(w)) && kinds(s) !== kinds(top));
  let twinned = false;
  if (twins.length > 0) {
    // On the line the name was read from ("Plan" elsewhere on the card is another caption):
    // the name whose kind words are the ones printed there, none for a name without one.
    const printed = (s: Scored) => kinds({ ...s, name: s.printed ?? '' });
    const told = [top, ...twins].filter((s) => kinds(s) === printed(s));
    if (told.length === 1) top = told[0];
    else twinned = true;
  }
  // A rival that fits as well (another payer of the same brand and region) halves the certainty.
  // A payer whose name is only part of the top one's ("Molina Healthcare" beside "Molina
  // Healthcare of California") is less specific, not a rival.
  // Nor is a payer found only by an alternate name (often a product: "Medicare Advantage")
  // when the top one is found by its own name.
  const nearly = printsRivalName(m, top);
  const rival =
    nearly ||
    ranked.some(
      (s) => s.entry !== top.entry && s.coverage >= top.coverage - 0.05 && s.weight >= top.weight * 0.85 && s.words.some((w) => !top.words.includes(w)) && (s.primary || !top.primary),
    );
  // A payer named only by an alternate name (a product, a former name) is a lead to check.
  // So is a one-word name found only below the header ("BENEFIT INFORMATION" is not
  // "Benefit Inc."): brands are printed at the top.
  // Words several payers' names share, and the region that would tell them apart left
  // out ("MEDICARE ADVANTAGE PPO" is in the names of many regional plans): a guess, like a rival.
  const regionGuessed = top.regionLeftOut && top.sharedBy > 1;
  const score = top.coverage * (rival || twinned || regionGuessed ? 0.7 : 1) * (top.primary ? 1 : 0.75) * (top.words.length === 1 && !top.header ? 0.7 : 1);
  // Sure needs evidence that holds on any card, not only the words of a name turning up:
  // a name read only through words many payers' names share ("Community", "Health",
  // "Choice": a sentence of the fine print can hold them), or a regional payer whose state
  // is not the one the card prints, is a lead for a person to check.
  const held = restsOnCommonWords(m, top) || otherStatePrinted(top, lineWords);
  return { top, score: held ? Math.min(score, UNSURE_AT_MOST) : score, best, nearly };
}

/**
 * Whether the line the top name was read from prints another payer's name, whole or but for
 * one word, with words of it the top name leaves unexplained: "Health Choice BCBS of Arizona"
 * is "Blue Cross Blue Shield Arizona" read whole, and "Health Choice BCBS of Arizona ACA" but
 * for the product word the directory adds. Whole, in any order: a logo's two lines merged by
 * the OCR come out in either order ("Ohio valley Health Plan of Upper" is "Valley Health Plan"
 * in order, and "Health Plan of Upper Ohio Valley" out of it). The one read in order is then
 * no surer than its rival.
 */
function printsRivalName(m: Matcher, top: Scored): boolean {
  const printed = new Set(wordsOf(top.printed ?? '').filter((w) => !FILLER.has(w)));
  const unexplained = [...printed].filter((w) => !top.words.includes(w) && m.postings.has(w));
  const docs = new Set(unexplained.flatMap((w) => m.postings.get(w)!));
  for (const d of docs) {
    const doc = m.docs[d];
    if (doc.entry === top.entry || !top.seen.every((w) => doc.words.includes(w))) continue;
    const unprinted = doc.words.filter((w) => !printed.has(w) && !REGION_WORDS.has(w) && !doc.qualifier.has(w));
    if (unprinted.length <= 1) return true;
  }
  return false;
}

/**
 * Whether a payer's name was read only through common words: words in many of the
 * directory's names that mostly stand inside them, after a brand ("Health", "Care",
 * "Choice"), not first as the brand does. A state printed with them is specific ("Mississippi
 * Children's Health Insurance Program": a state's own programme), so it counts as a word of
 * the name's own.
 */
function restsOnCommonWords(m: Matcher, top: Scored): boolean {
  const distinctive = (w: string) => {
    const names = m.postings.get(w)?.length ?? 0;
    return names <= COMMON_WORD || (m.inside.get(w) ?? 0) <= names / 2;
  };
  // A state seen whole: "New York" is both its words ("New" alone is no state).
  const stateSeen = STATE_NAME_WORDS.some((state) => state.every((w) => top.seen.includes(w)));
  return !stateSeen && !top.seen.some(distinctive);
}

/** Each state's name as the matcher's words ("new york" is ["new", "york"]). */
const STATE_NAME_WORDS = Object.values(US_STATES).map((state) => state.split(' ').filter((w) => w.length > 0 && !FILLER.has(w)));

/**
 * Whether the card prints a state that is not the regional payer's own: a Blue plan's logo
 * names its state ("BlueCross BlueShield" / "Illinois"), and a plan of another state that
 * matched on the brand's words is not the card's payer, however fully they were read.
 */
function otherStatePrinted(top: Scored, lineWords: readonly string[][]): boolean {
  const own = top.words.filter((w) => STATE_WORDS.has(w));
  if (own.length === 0) return false;
  const printed = new Set(lineWords.flat().filter((w) => STATE_WORDS.has(w)));
  return printed.size > 0 && !own.some((w) => printed.has(w));
}

/** The payer the card's web address names, looked up in the directory by name (and state). */
function bySite(m: Matcher, lines: readonly CardLine[]): { entry: number; score: number; domain: string } | null {
  const site = payerWebsite(lines.map((l) => l.text));
  if (!site) return null;
  if (site.name === 'Medicare') {
    const entry = m.byId.get(MEDICARE_ALIAS);
    return entry === undefined ? null : { entry, score: 0.85, domain: site.domain };
  }
  const found = byName(m, [{ text: site.name, confidence: 1, header: true }], true);
  if (!found || found.top.coverage < 0.9) return null;
  // The address names the payer as surely as its printed name would, no surer.
  return { entry: found.top.entry, score: Math.min(0.9, found.score), domain: site.domain };
}

/**
 * Original Medicare's card names no plan, only "MEDICARE" and "HEALTH INSURANCE" (the
 * red, white and blue card) or a Medicare number caption ("MEDICARE CLAIM NUMBER",
 * "Medicare Number"). Its payer is the national Medicare one: the directory entry with
 * the alias id MEDICARE (Medicare Advantage cards name their plan's payer, matched first).
 */
const MEDICARE_CARD = [/\bmedicare\b.*\bhealth\s+insurance\b|\bhealth\s+insurance\b.*\bmedicare\b/i, /\bmedicare\s+(claim\s+)?number\b/i];
const MEDICARE_ALIAS = 'MEDICARE';

function medicare(m: Matcher, lines: readonly CardLine[]): PayerMatch | null {
  const entry = m.byId.get(MEDICARE_ALIAS);
  if (entry === undefined) return null;
  const text = lines.map((l) => l.text).join(' ');
  const signs = MEDICARE_CARD.filter((re) => re.test(text)).length;
  if (signs === 0) return null;
  // Both signs: the card is surely Medicare's. One: a lead to check.
  return { entity: m.entities[entry], score: signs === 2 ? 0.9 : 0.7, via: 'name', evidence: signs === 2 ? 'the Medicare card’s title and its Medicare number caption' : 'a Medicare caption on the card' };
}

/** `matchPayerLines` over free text, one line per line. */
export function matchPayer(text: string, entities: readonly ClearinghouseEntity[]): PayerMatch | null {
  return matchPayerLines(
    text.split('\n').map((t) => ({ text: t, confidence: 1 })),
    entities,
  );
}

/** The names a payer is printed by: its own and the directory's alternate names. */
export function payerNames(entity: ClearinghouseEntity, entities: readonly ClearinghouseEntity[]): string[] {
  const m = matcherFor(entities);
  const entry = m.entries.find((e) => e.id === entity.id);
  return entry ? [entry.name, ...entry.alternate_names] : [entity.name];
}
