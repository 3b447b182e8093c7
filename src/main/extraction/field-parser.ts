import { EXTRACTED_FIELDS, type ClearinghouseEntity, type ExtractedFieldName, type ExtractedFields } from '../../shared/contract';
import { boxOf, segmentPage, verticalOverlap, type Segment } from './card-layout';
import { FIELD_FORMATS } from './field-formats';
import { labelAt, type LabelledField } from './field-labels';
import type { OcrBox, OcrPage, OcrWord } from './ocr-worker';
import { matchPayer } from './payer-match';

export interface ParseContext {
  /** The known clearinghouse entities; the payer is matched against their names. */
  entities: readonly ClearinghouseEntity[];
}

/** Where a value was found relative to its label; values found without a label count less. */
type Source = 'inline' | 'right' | 'below' | 'unlabelled';
const SOURCE_WEIGHT: Record<Source, number> = { inline: 1, right: 0.97, below: 0.97, unlabelled: 0.75 };

interface Candidate {
  field: LabelledField;
  value: string;
  confidence: number;
  segment: Segment;
  /** Where the value itself was read, and the OCR's own confidence in its words (0..1). */
  box: OcrBox;
  ocr: number;
  /** The label's segment, for the Rx-block rule. */
  label?: Segment;
}

interface LabelHit {
  field: LabelledField;
  segment: Segment;
  tokens: string[];
  quality: number;
  labelWords: OcrWord[];
  valueWords: OcrWord[];
  rest?: string;
}

function meanConfidence(words: OcrWord[]): number {
  if (words.length === 0) return 0;
  return words.reduce((sum, w) => sum + Math.max(0, Math.min(100, w.confidence)), 0) / words.length / 100;
}

function round2(value: number): number {
  return Math.round(Math.max(0, Math.min(1, value)) * 100) / 100;
}

/** Every label on the card with the words that follow it in its own segment. */
function findLabels(segments: Segment[]): LabelHit[] {
  const hits: LabelHit[] = [];
  for (const segment of segments) {
    const tokens = segment.words.map((w) => w.text);
    const found: (ReturnType<typeof labelAt> & {})[] = [];
    for (let i = 0; i < tokens.length; ) {
      const match = labelAt(tokens, i, i > 0);
      if (match) {
        found.push(match);
        i = match.end;
      } else i++;
    }
    found.forEach((match, n) => {
      const next = found[n + 1]?.start ?? tokens.length;
      hits.push({
        field: match.field,
        segment,
        tokens,
        quality: match.quality,
        labelWords: segment.words.slice(match.start, match.end),
        valueWords: segment.words.slice(match.end, next),
        rest: match.rest,
      });
    });
  }
  return hits;
}

function startsWithLabel(segment: Segment): boolean {
  return !!labelAt(
    segment.words.map((w) => w.text),
    0,
    false,
  );
}

/**
 * Where a value stands relative to a label alone in its segment: to its right (a table
 * of labels and values), or under it (a small caption above the value).
 */
const PLACEMENTS = {
  right: {
    fits: (label: Segment, s: Segment) =>
      s.bbox.x0 >= label.bbox.x1 && s.bbox.x0 - label.bbox.x1 < 14 * label.height && verticalOverlap(s.bbox, label.bbox) >= 0.5,
    order: (s: Segment) => s.bbox.x0,
  },
  below: {
    fits: (label: Segment, s: Segment) =>
      s.bbox.y0 >= label.bbox.y0 + 0.5 * label.height &&
      s.bbox.y0 - label.bbox.y1 < 1.8 * Math.max(label.height, s.height) &&
      Math.abs(s.bbox.x0 - label.bbox.x0) < 2 * label.height,
    order: (s: Segment) => s.bbox.y0,
  },
} as const;

/** The nearest segment in that place, on the label's photo. */
function valueAt(placement: keyof typeof PLACEMENTS, hit: LabelHit, segments: Segment[]): Segment | undefined {
  const label = hit.segment;
  const { fits, order } = PLACEMENTS[placement];
  return segments.filter((s) => s !== label && s.page === label.page && fits(label, s)).sort((a, b) => order(a) - order(b))[0];
}

function candidate(field: LabelledField, raw: string, words: OcrWord[], source: Source, quality: number, segment: Segment, label?: LabelHit): Candidate | null {
  const formatted = FIELD_FORMATS[field](raw);
  if (!formatted) return null;
  const ocr = meanConfidence(words);
  const confidence = ocr * formatted.fit * SOURCE_WEIGHT[source] * quality * 0.97 ** formatted.repairs;
  return { field, value: formatted.value, confidence, segment, box: boxOf(words), ocr, label: label?.segment };
}

/**
 * The longest run of the words after a label that fits the field: "011552 RrxpcN TXBCBS"
 * (a next label misread) still gives the BIN, and "01 7010" (a digit gap) stays whole.
 */
function candidateFromWords(field: LabelledField, rest: string | undefined, words: OcrWord[], source: Source, quality: number, segment: Segment, hit: LabelHit): Candidate | null {
  for (let n = words.length; n >= (rest ? 0 : 1); n--) {
    const used = words.slice(0, n);
    const raw = [rest ?? '', ...used.map((w) => w.text)].join(' ').trim();
    const c = candidate(field, raw, used.length > 0 ? used : hit.labelWords.slice(-1), source, quality, segment, hit);
    if (c) return c;
  }
  return null;
}

function labelledCandidates(hits: LabelHit[], segments: Segment[]): Candidate[] {
  const out: Candidate[] = [];
  for (const hit of hits) {
    if (hit.valueWords.length > 0 || hit.rest) {
      const c = candidateFromWords(hit.field, hit.rest, hit.valueWords, 'inline', hit.quality, hit.segment, hit);
      if (c) out.push(c);
      continue;
    }
    for (const source of ['right', 'below'] as const) {
      const found = valueAt(source, hit, segments);
      if (!found || startsWithLabel(found)) continue;
      const c = candidateFromWords(hit.field, undefined, found.words, source, hit.quality, found, hit);
      if (c) out.push(c);
    }
  }
  return out;
}

/**
 * "GRP" under "BIN" and "PCN" is the pharmacy group, not the medical group: a group label
 * in the Rx block is RxGRP when the card has no RxGRP label of its own.
 */
function applyRxBlockRule(candidates: Candidate[]): void {
  if (candidates.some((c) => c.field === 'rx_group')) return;
  const rx = candidates.filter((c) => (c.field === 'rx_bin' || c.field === 'rx_pcn') && c.label);
  const groups = candidates.filter((c) => c.field === 'group_number' && c.label);
  if (groups.length < 2 || rx.length === 0) return;
  for (const group of groups) {
    const label = group.label!;
    const inBlock = rx.some(
      (r) =>
        r.label!.page === label.page &&
        Math.abs(r.label!.bbox.x0 - label.bbox.x0) < 2 * label.height &&
        Math.abs(r.label!.bbox.y0 - label.bbox.y0) < 4 * label.height,
    );
    if (inBlock) group.field = 'rx_group';
  }
}

const PLAN_WORDS =
  /\b(PPO|HMO|POS|EPO|HDHP|HSA|PLUS|CHOICE|CARE|PLAN|ACCESS|ADVANTAGE|SELECT|NETWORK|GOLD|SILVER|BRONZE|PLATINUM|ESSENTIALS?|PREMIER|OPTIONS|CORE|FREEDOM|LIBERTY|METRO|MEDI-CAL|MEDICAID|MEDICARE|MARKETPLACE|VALUE|LOCALPLUS|CONNECT|NAVIGATE|BALANCED|SECURE|DUAL|COVERED|OPEN|MANAGED|BLUE\w*|OAP|IN|II|III)\b/i;

function lettersOf(text: string): string {
  return text.toLowerCase().replace(/[^a-z]/g, '');
}

/** Whether a segment is (part of) the payer's printed name: "of Texas", "HEALTH PLANS". */
function isPayerMark(segment: Segment, entity: ClearinghouseEntity | undefined): boolean {
  if (!entity) return false;
  const seg = lettersOf(segment.text);
  if (seg.length === 0) return false;
  if (lettersOf(entity.name).includes(seg)) return true;
  const match = matchPayer(segment.text, [entity]);
  return !!match && match.score >= 0.5 && seg.length <= lettersOf(entity.name).length + 4;
}

/** A name printed without a label: alone on its line, near the member id. */
function unlabelledName(segments: Segment[], used: Set<Segment>, anchor: Segment | undefined, entity: ClearinghouseEntity | undefined): Candidate | null {
  const options = segments
    .filter((s) => !used.has(s) && !startsWithLabel(s) && !PLAN_WORDS.test(s.text) && !isPayerMark(s, entity) && !(entity && matchPayer(s.text, [entity])) && !/\d{3}/.test(s.text))
    .map((s) => ({ s, c: candidate('member_name', s.text, s.words, 'unlabelled', 1, s) }))
    .filter((o): o is { s: Segment; c: Candidate } => o.c !== null);
  if (options.length === 0) return null;
  const distance = (s: Segment) => {
    if (!anchor || anchor.page !== s.page) return 1e6 + s.bbox.y0;
    const dy = anchor.bbox.y0 - s.bbox.y1;
    // Above the id and roughly left-aligned with it, as cards print them.
    return (dy < -anchor.height ? 1e5 : Math.abs(dy)) + Math.abs(anchor.bbox.x0 - s.bbox.x0) * 0.5;
  };
  options.sort((a, b) => distance(a.s) - distance(b.s));
  return options[0].c;
}

/** A plan printed without a label: product names sit in the header, beside the payer's mark. */
function unlabelledPlan(segments: Segment[], used: Set<Segment>, firstLabel: Segment | undefined, entity: ClearinghouseEntity | undefined): Candidate | null {
  const options = segments
    .filter(
      (s) =>
        !used.has(s) &&
        !startsWithLabel(s) &&
        !isPayerMark(s, entity) &&
        (firstLabel ? s.page === firstLabel.page && s.bbox.y1 <= firstLabel.bbox.y0 + firstLabel.height : true),
    )
    .map((s) => candidate('plan_name', s.text, s.words, 'unlabelled', PLAN_WORDS.test(s.text) ? 1 : 0.7, s))
    .filter((c): c is Candidate => c !== null && !/\d{3}/.test(c.value));
  options.sort((a, b) => b.confidence - a.confidence);
  return options[0] ?? null;
}

/** Where each field's value was read: which photo, and its box on the prepared image. */
export type FieldSources = Partial<Record<ExtractedFieldName, { page: number; box: OcrBox; ocr: number }>>;

/**
 * The card's fields from the OCR of its photos (front first). Each field comes from the
 * value after, beside or under its label; member name and plan also from where cards
 * print them unlabelled; the payer from the known entities' names. Confidence combines
 * the OCR's own certainty, how well the value fits the field's format, how it was found,
 * and how many characters had to be repaired.
 */
export function parseCardFields(pages: OcrPage[], context: ParseContext): ExtractedFields {
  return readCardFields(pages, context).fields;
}

/** `parseCardFields`, and where on the photos each value was read. */
export function readCardFields(pages: OcrPage[], context: ParseContext): { fields: ExtractedFields; sources: FieldSources } {
  const segments = pages.flatMap((page, i) => segmentPage(page, i));
  const hits = findLabels(segments);
  const candidates = labelledCandidates(hits, segments);
  applyRxBlockRule(candidates);

  const best = new Map<LabelledField, Candidate>();
  for (const c of candidates) {
    const current = best.get(c.field);
    if (!current || c.confidence > current.confidence) best.set(c.field, c);
  }

  const allText = segments.map((s) => s.text).join('\n');
  const payer = matchPayer(allText, context.entities);
  const used = new Set<Segment>([...hits.map((h) => h.segment), ...[...best.values()].map((c) => c.segment)]);

  if (!best.has('member_name')) {
    const anchor = hits.find((h) => h.field === 'member_id')?.segment;
    const name = unlabelledName(segments, used, anchor, payer?.entity);
    if (name) {
      best.set('member_name', name);
      used.add(name.segment);
    }
  }
  if (!best.has('plan_name')) {
    const firstLabel = hits.map((h) => h.segment).sort((a, b) => a.page - b.page || a.bbox.y0 - b.bbox.y0)[0];
    const plan = unlabelledPlan(segments, used, firstLabel, payer?.entity);
    if (plan) best.set('plan_name', plan);
  }

  const fields: ExtractedFields = {};
  const sources: FieldSources = {};
  for (const name of EXTRACTED_FIELDS) {
    if (name === 'payer_name') continue;
    const c = best.get(name);
    if (!c) continue;
    fields[name] = { value: c.value, confidence: round2(c.confidence) };
    sources[name] = { page: c.segment.page, box: c.box, ocr: c.ocr };
  }
  if (payer) fields.payer_name = { value: payer.entity.name, confidence: round2(payer.score * 0.98) };
  return { fields, sources };
}
