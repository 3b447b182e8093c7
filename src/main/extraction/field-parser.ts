import { EXTRACTED_FIELDS, type ClearinghouseEntity, type ExtractedFieldName, type ExtractedFields } from '../../shared/contract';
import { boxOf, segmentPage, verticalOverlap, type Segment } from './card-layout';
import { asMbiWithExtraGlyph, closingHookAsJ, FIELD_FORMATS, holdsDate, medigapPlan, type FormattedValue } from './field-formats';
import { isCaption, isCaptionWord, isCardWord, PHONE, TOLL_FREE } from './printed-text';
import { endsAnotherCaption, isNcpdpCaption, labelAt, withinOneEdit, type LabelledField } from './field-labels';
import type { OcrBox, OcrPage, OcrWord } from './ocr-worker';
import { UNSURE_AT_MOST } from '../../shared/review-threshold';
import { matchPayerLines, payerNames } from './payer-match';

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
  /** Where the caption's own words were read: a value's place beside it says whether its start was lost. */
  labelBox?: OcrBox;
  /** The caption's words as read. */
  caption?: string;
  /**
   * The value rests on a standard caption and the standard shape, each read as printed, and
   * nothing since has put it in doubt: only then may it be sure, now or after a closer look.
   */
  evidenced?: boolean;
  /** Its caption was one of the standard's list read as printed (not recovered from a misread). */
  captionAsPrinted?: boolean;
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

/** Words that join the words of a name: "Plan de Salud", "Group of Companies", "Plan for Employees". */
const JOINING = /^(of|de|del|della|des|du|la|las|los|for|and|y|&)$/i;

/**
 * Whether a caption word is the start of a name instead ("Plan de Salud Bella Vista", "Plan of
 * Texas"): a caption ends at its colon or "#", or is followed by its value; a joining word after a
 * bare caption word makes the two one name, and a value never starts with one.
 */
function continuesAName(tokens: string[], match: { end: number; rest?: string; translated?: boolean }): boolean {
  if (match.rest || match.translated || /[:#]$/.test(tokens[match.end - 1] ?? '')) return false;
  return JOINING.test(tokens[match.end] ?? '');
}

/** Every label on the card with the words that follow it in its own segment. */
function findLabels(segments: Segment[]): LabelHit[] {
  const hits: LabelHit[] = [];
  for (const segment of segments) {
    const tokens = segment.words.map((w) => w.text);
    const found: (ReturnType<typeof labelAt> & {})[] = [];
    for (let i = 0; i < tokens.length; ) {
      // After the PCN's caption on the same line, a plain group caption is the Rx group's
      // ("BIN 610502 PCN ADV GRP RX2076"): NCPDP's block, in its order, printed on one line.
      const afterRx = found.some((f) => f.field === 'rx_pcn');
      const asRead = labelAt(tokens, i, i > 0);
      const plain = afterRx && i > 0 && !asRead ? labelAt(tokens, i, false) : undefined;
      const match = plain?.field === 'group_number' ? { ...plain, field: 'rx_group' as const } : asRead;
      if (match && !continuesAName(tokens, match)) {
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

/** Beyond this many text heights, a segment to a caption's right is its value only in a column of values. */
const FAR_RIGHT = 14;

/**
 * Where a value stands relative to a label alone in its segment: to its right (a table
 * of labels and values), or under it (a small caption above the value).
 */
const PLACEMENTS = {
  right: {
    fits: (label: Segment, s: Segment) =>
      s.bbox.x0 >= label.bbox.x1 && s.bbox.x0 - label.bbox.x1 < FAR_RIGHT * label.height && verticalOverlap(s.bbox, label.bbox) >= 0.5,
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

/**
 * Whether a segment starts a column of values: two other rows start where it starts, each with
 * a caption in the label's column before it. A table of captions and values (a portal's printed
 * temporary card, a form) lines its values up however far from their captions the column is.
 */
function inValueColumn(label: Segment, s: Segment, segments: readonly Segment[]): boolean {
  const h = label.height;
  const rows = segments.filter(
    (o) =>
      o !== s &&
      o.page === s.page &&
      Math.abs(o.bbox.x0 - s.bbox.x0) < h &&
      verticalOverlap(o.bbox, s.bbox) < 0.5 &&
      segments.some((c) => c !== o && c.page === o.page && Math.abs(c.bbox.x0 - label.bbox.x0) < h && c.bbox.x1 <= o.bbox.x0 && verticalOverlap(c.bbox, o.bbox) >= 0.5),
  );
  return rows.length >= 2;
}

/** The nearest segment in that place, on the label's photo. */
function valueAt(placement: keyof typeof PLACEMENTS, hit: LabelHit, segments: Segment[]): Segment | undefined {
  const label = hit.segment;
  const { fits, order } = PLACEMENTS[placement];
  const found = segments.filter((s) => s !== label && s.page === label.page && !specksOnly(s) && fits(label, s)).sort((a, b) => order(a) - order(b))[0];
  if (found || placement !== 'right') return found;
  // Nothing near: the nearest segment on the row, when it stands in a column of values.
  const far = segments
    .filter((s) => s !== label && s.page === label.page && s.bbox.x0 >= label.bbox.x1 && s.bbox.x0 - label.bbox.x1 >= FAR_RIGHT * label.height && verticalOverlap(s.bbox, label.bbox) >= 0.5)
    .sort((a, b) => a.bbox.x0 - b.bbox.x0)[0];
  return far && inValueColumn(label, far, segments) ? far : undefined;
}

export { UNSURE_AT_MOST };

/**
 * Whether a value rests on what the standards print, so may be sure: a caption from the
 * standard's list read as printed (not recovered from a misread), and a value of the field's
 * standard shape read as printed (no look-alike repaired, nothing dropped). A value placed by
 * position, of a loose shape or repaired may be right, but only a person can say so.
 */
function isEvidenced(source: Source, quality: number, formatted: FormattedValue): boolean {
  return source !== 'unlabelled' && quality >= 1 && formatted.fit >= 1 && formatted.repairs === 0;
}

/**
 * Codes with no shape to check them by: NCPDP's RxPCN (up to 10 characters, any letters and
 * digits) and RxGRP, and the medical group number, which each payer assigns as it likes. A
 * glyph lost or misread leaves another well-formed code, so only a clean read says it is whole.
 * A plan's name is as shapeless: its words are the payer's to choose, and a letter misread
 * ("POS IL", "Stiver 70 HMO") leaves words a plan could be named by.
 */
const SHAPELESS: ReadonlySet<LabelledField> = new Set<LabelledField>(['rx_pcn', 'rx_group', 'group_number', 'plan_name']);
/** Tesseract's word confidence (0..100) under which some glyph of the word was in doubt. */
const CLEAN_WORD = 85;
/**
 * Three of one character in a row: where a line reader merges repeated glyphs (its decoder
 * collapses repeats), so "03200000" reads "032000" as confidently as the rest of the card.
 */
const RUN_OF_ONE = /(.)\1\1/;

/**
 * Whether a shapeless code was read cleanly: every word read surely and no run of one glyph
 * the reader may have shortened. Without that the caption alone cannot make it sure, and no
 * closer look of the same pixels may later either (its read stays held to "check this").
 */
export function readCleanly(field: LabelledField, value: string, words: readonly OcrWord[]): boolean {
  if (!SHAPELESS.has(field)) return true;
  return words.length > 0 && words.every((w) => w.confidence >= CLEAN_WORD) && !RUN_OF_ONE.test(value);
}

/**
 * Whether a plan's name holds a number ("Gold 1500 EPO", "Silver 70 HMO"): a deductible or
 * an actuarial value, with no shape or check digit, so one digit misread (0 and 6 print alike:
 * "Gold 1560 EPO" read at OCR 93) is another plan's name read as surely. Such a name is a lead.
 */
function planNumberUnchecked(field: LabelledField, value: string): boolean {
  return field === 'plan_name' && /\d/.test(value);
}

/** Something put the value in doubt after it was read: held under "check this" for good. */
function doubt(c: Candidate): void {
  c.confidence = Math.min(c.confidence, UNSURE_AT_MOST);
  c.evidenced = false;
}

function candidate(field: LabelledField, raw: string, words: OcrWord[], source: Source, quality: number, segment: Segment, label?: LabelHit): Candidate | null {
  const formatted = FIELD_FORMATS[field](raw);
  if (!formatted) return null;
  // A name is wrong when any one of its words is: a word the OCR barely read weighs as much as
  // the clear ones together, so one doubtful word keeps the name under "check this".
  const ocr = field === 'member_name' && words.length > 1 ? (meanConfidence(words) + Math.min(...words.map((w) => meanConfidence([w])))) / 2 : meanConfidence(words);
  let confidence = ocr * formatted.fit * SOURCE_WEIGHT[source] * quality * 0.97 ** formatted.repairs;
  const evidenced = isEvidenced(source, quality, formatted) && readCleanly(field, formatted.value, words) && !planNumberUnchecked(field, formatted.value);
  if (!evidenced) confidence = Math.min(confidence, UNSURE_AT_MOST);
  return { field, value: formatted.value, confidence, segment, box: boxOf(words), ocr, label: label?.segment, labelBox: label ? boxOf(label.labelWords) : undefined, caption: label?.labelWords.map((w) => w.text).join(' '), evidenced, captionAsPrinted: !!label && quality >= 1 };
}

/**
 * The longest run of the words after a label that fits the field: "011552 RrxpcN TXBCBS"
 * (a next label misread) still gives the BIN, and "01 7010" (a digit gap) stays whole.
 */
function candidateFromWords(field: LabelledField, rest: string | undefined, allWords: OcrWord[], source: Source, quality: number, segment: Segment, hit: LabelHit): Candidate | null {
  const words = withoutBorders(withoutSpecks(allWords), field !== 'member_name');
  const c = candidateFromValueWords(field, rest, words, source, quality, segment, hit);
  // A border dropped may have been a character after all: a person says which.
  if (c && words.length < allWords.length) doubt(c);
  return c;
}

/**
 * A speck: one mark of punctuation read alone, what OCR makes of dust, a scan's dot or a smudge
 * between a caption and its value ("RxBIN . 610279", "RxPCN ' ADV"). No id, code or name starts
 * with one, so it is passed over; a stroke that may be a glyph ("|", "I") is the border rule's.
 */
const SPECK = /^[.,'`’‘"“”:;·•~_^*°-]$/;

/** The value's words from the first that is more than a speck. */
function withoutSpecks(words: OcrWord[]): OcrWord[] {
  const from = words.findIndex((w) => !SPECK.test(w.text));
  return from <= 0 ? words : words.slice(from);
}

/** Whether a segment is specks only: no value to look at beside or under a caption. */
function specksOnly(segment: Segment): boolean {
  return segment.words.every((w) => SPECK.test(w.text));
}

/** A word of one thin stroke: what OCR makes of a box's or a panel's edge ("|", "I", "l", "1", "[", "]"). */
const BORDER = /^[|Il1[\]!]$/;

/**
 * The value's words without a box border read beside them. Ids, codes and names print no
 * character standing apart on its own (ids come whole or in groups of two or more, "1EG4 TE5
 * MK73", "XYZ 123456789 01"), so a lone stroke at either end is the box the value is printed in.
 * A name's initial never comes first, but comes last in "SMITH, JOHN I": only its start is looked at.
 */
function withoutBorders(words: OcrWord[], bothEnds: boolean): OcrWord[] {
  let from = 0;
  let to = words.length;
  while (to - from > 1 && BORDER.test(words[from].text)) from++;
  while (bothEnds && to - from > 1 && BORDER.test(words[to - 1].text)) to--;
  return from === 0 && to === words.length ? words : words.slice(from, to);
}

function candidateFromValueWords(field: LabelledField, rest: string | undefined, words: OcrWord[], source: Source, quality: number, segment: Segment, hit: LabelHit): Candidate | null {
  let last = words.length;
  if (field === 'member_id' || field === 'group_number') {
    // An id is one word or digit groups ("123 456 789", "1EG4 TE5 MK73"); a longer word
    // after it is the next thing printed ("GROUP", a clinic's name), not more of the id.
    // A Blue plan's three-character prefix printed apart from a number that starts with a
    // letter ("ZGP W12345678") is one id too: BlueCard's prefix, then the plan's own number.
    const bluePrefixApart = (i: number) => i === 1 && /^[A-Z][A-Z0-9]{2}$/.test(words[0].text) && /^[A-Z]{1,2}\d{6,}$/.test(words[1].text);
    const stop = words.findIndex((w, i) => i > 0 && !/^[A-Za-z0-9-]{1,4}$/.test(w.text) && !/^[\dOIlS-]+$/.test(w.text) && !bluePrefixApart(i));
    if (stop > 0) last = stop;
  }
  // A code's value is never an NCPDP caption: where the code is blank, the next caption is
  // what stands beside its own ("RxPCN  RxGRP 1234" never gives the PCN "RXGRP").
  // Nor is a word of another caption: "BIN 610502 PCN ADV GRP RX2076" on one line gave the PCN
  // "ADVGRPRX2076", sure (a plain "GRP" mid-line is no label, but it is never part of a code).
  if (!FREE_TEXT_FIELDS.has(field)) {
    const caption = words.findIndex((w, i) => isNcpdpCaption(w.text) || (i > 0 && /^\p{L}{3,}[:#.]?$/u.test(w.text) && isCaptionWord(w.text)));
    if (caption >= 0) last = Math.min(last, caption);
    if (last === 0 && !rest) return null;
  }
  for (let n = last; n >= (rest ? 0 : 1); n--) {
    const used = words.slice(0, n);
    const raw = [rest ?? '', ...used.map((w) => w.text)].join(' ').trim();
    // A plan cut from a longer line ("Gold 1500 EPO  Effective 01/01/2024") shows it is a
    // product's name by a plan word; the start of a copay line ("Office Visit $20") does not.
    if (field === 'plan_name' && n < last && !namesAProduct(raw)) continue;
    const c = candidate(field, raw, used.length > 0 ? used : hit.labelWords.slice(-1), source, quality, segment, hit);
    if (c) return c;
  }
  return null;
}

/** Fields whose value is words: a name may be "Rubin", whatever caption it looks like. */
const FREE_TEXT_FIELDS: ReadonlySet<LabelledField> = new Set<LabelledField>(['member_name', 'plan_name']);

function labelledCandidates(hits: LabelHit[], segments: Segment[]): Candidate[] {
  const out: Candidate[] = [];
  for (const hit of hits) {
    // Caption words after a caption are more caption, in either language, when OCR lost the
    // slash between them ("Grupo Group", "Nombre Name"): the value is beside or under them.
    const captionOnly = !hit.rest && hit.valueWords.length > 0 && isCaption(hit.valueWords.map((w) => w.text).join(' '));
    if ((hit.valueWords.length > 0 || hit.rest) && !captionOnly) {
      const c = candidateFromWords(hit.field, hit.rest, hit.valueWords, 'inline', hit.quality, hit.segment, hit) ?? (hit.rest ? null : nameOnTwoLines(hit.valueWords, segments, 'inline', hit, hit.segment));
      if (c) out.push(c);
      continue;
    }
    for (const source of ['right', 'below'] as const) {
      // A row of captions printed close ("RxBIN RxPCN RxGRP" over "004336 ADV RX1234"), which
      // the layout reads as one segment or joins the values of: each caption's value is what
      // stands in its own column below it.
      const found = (source === 'below' && captionColumn(hit, hits, segments)) || valueAt(source, hit, segments);
      // What follows a label ending in a colon is its value, even one that reads like a
      // label itself ("Member:  SUBSCRIBER SMITH").
      const colon = hit.labelWords[hit.labelWords.length - 1]?.text.endsWith(':');
      if (!found || (startsWithLabel(found) && !colon)) continue;
      const c = candidateFromWords(hit.field, undefined, found.words, source, hit.quality, found, hit) ?? nameOnTwoLines(found.words, segments, source, hit, found);
      if (c) out.push(c);
    }
  }
  return out;
}

/**
 * Where a caption stands in a row of captions of two fields or more (a table's header printed
 * close, which the layout may read as one segment, or whose values it may join), the words of
 * the next line down that stand in its column: from halfway to the caption before it to halfway
 * to the caption after it. Undefined for a caption on a line that holds anything else (a value
 * beside it), which `valueAt` places.
 */
function captionColumn(hit: LabelHit, hits: readonly LabelHit[], segments: readonly Segment[]): Segment | undefined {
  // The captions of the row: on the caption's line, nothing but captions, each of another
  // field (one field twice is a caption and its translation: "Nombre / Name").
  const line = segments.filter((s) => s.page === hit.segment.page && verticalOverlap(s.bbox, hit.segment.bbox) >= 0.5);
  const row = hits.filter((h) => line.includes(h.segment)).sort((a, b) => a.labelWords[0].bbox.x0 - b.labelWords[0].bbox.x0);
  if (row.length < 2 || new Set(row.map((h) => h.field)).size < row.length || line.some((s) => !isCaption(s.text)) || row.some((h) => h.rest || (h.valueWords.length > 0 && !isCaption(h.valueWords.map((w) => w.text).join(' '))))) return undefined;
  // Every caption of the line bounds a column, also one of no field read here ("EFFECTIVE DATE"
  // beside the RxGRP of a paper form's boxed row).
  const own = boxOf(hit.labelWords);
  const cells = [
    ...row.flatMap((h) => [boxOf(h.labelWords), ...(h.valueWords.length > 0 ? [boxOf(h.valueWords)] : [])]),
    ...line.filter((s) => !row.some((h) => h.segment === s)).map((s) => s.bbox),
  ];
  const before = cells.filter((c) => c.x1 <= own.x0).map((c) => c.x1);
  const after = cells.filter((c) => c.x0 >= own.x1).map((c) => c.x0);
  const left = before.length > 0 ? (Math.max(...before) + own.x0) / 2 : -Infinity;
  const right = after.length > 0 ? (own.x1 + Math.min(...after)) / 2 : Infinity;
  const label = hit.segment;
  const inColumn = (w: OcrWord) => (w.bbox.x0 + w.bbox.x1) / 2 >= left && (w.bbox.x0 + w.bbox.x1) / 2 < right;
  const below = segments
    .filter((s) => s !== label && s.page === label.page && s.bbox.y0 >= label.bbox.y0 + 0.5 * label.height && s.bbox.y0 - label.bbox.y1 < 1.8 * Math.max(label.height, s.height) && s.words.some(inColumn))
    .sort((a, b) => a.bbox.y0 - b.bbox.y0);
  const next = below.filter((s) => verticalOverlap(s.bbox, below[0].bbox) >= 0.5);
  const words = next.flatMap((s) => s.words.filter(inColumn)).sort((a, b) => a.bbox.x0 - b.bbox.x0);
  if (words.length === 0) return undefined;
  return { words, text: words.map((w) => w.text).join(' '), bbox: boxOf(words), height: next[0].height, page: label.page };
}

/** A word a name may hold: letters (a comma after "LAST,"), no caption's or card's word. */
const NAME_WORD = /^\p{L}[\p{L}.'-]*,?$/u;

/**
 * A name too long for its box goes on on the next line ("MARIA ELENA" over "RODRIGUEZ", "SMITH,"
 * over "JOHN"): when the words after a name caption are name words but no whole name, the line
 * right under them, starting where they start and printed the same size, may finish it. The
 * join is the reader's guess: "check this".
 */
function nameOnTwoLines(words: OcrWord[], segments: readonly Segment[], source: Source, hit: LabelHit, segment: Segment): Candidate | null {
  if (hit.field !== 'member_name' || words.length === 0 || words.length > 3) return null;
  if (!words.every((w) => NAME_WORD.test(w.text) && !isCaptionWord(w.text) && !isCardWord(w.text))) return null;
  const first = boxOf(words);
  const h = first.y1 - first.y0;
  const next = segments
    .filter(
      (s) =>
        s.page === segment.page &&
        s !== segment &&
        Math.abs(s.bbox.x0 - first.x0) < h &&
        s.bbox.y0 >= first.y0 + 0.5 * h &&
        s.bbox.y0 - first.y1 < 1.2 * h &&
        Math.abs(s.height - h) < 0.35 * h &&
        s.words.length <= 3 &&
        !startsWithLabel(s),
    )
    .sort((a, b) => a.bbox.y0 - b.bbox.y0)[0];
  if (!next) return null;
  const c = candidateFromWords('member_name', undefined, [...words, ...next.words], source, hit.quality, segment, hit);
  if (c) doubt(c);
  return c;
}

/**
 * Captions printed in a column with their values beside them: the values start together (a
 * table) or the same small gap after their captions (inline). A value that starts further
 * right than its neighbour rows say lost its start to glare or a faded glyph ("585700" read
 * of H16585700, "1938" of V931938): what is left is well-formed and read clearly, so only its
 * place tells. A neighbour row is any line starting in the caption column with print beside
 * it, its caption known or not ("Benefit Plan  POS II"). Needs two neighbour rows that agree;
 * without them nothing is said.
 */
function startLost(c: Candidate, labelled: readonly Candidate[], segments: readonly Segment[]): boolean {
  const label = c.labelBox;
  if (!label || c.box.x0 < label.x1 || verticalOverlap(c.box, label) < 0.5) return false;
  const h = label.y1 - label.y0;
  const sameRow = (a: OcrBox, b: OcrBox) => verticalOverlap(a, b) >= 0.5;
  // Each neighbour row as (where its caption ends, where its value starts).
  const rows: { captionEnd: number; valueStart: number; y: number }[] = [];
  for (const s of segments) {
    if (s.page !== c.segment.page || Math.abs(s.bbox.x0 - label.x0) >= h || sameRow(s.bbox, label)) continue;
    if (rows.some((r) => Math.abs(r.y - s.bbox.y0) < 0.5 * h)) continue;
    const known = labelled.find((o) => o.labelBox && o.segment.page === s.page && sameRow(o.labelBox, s.bbox) && Math.abs(o.labelBox.x0 - s.bbox.x0) < h && o.box.x0 >= o.labelBox.x1 && sameRow(o.box, o.labelBox));
    if (known) {
      rows.push({ captionEnd: known.labelBox!.x1, valueStart: known.box.x0, y: s.bbox.y0 });
      continue;
    }
    const beside = segments
      .filter((v) => v !== s && v.page === s.page && sameRow(v.bbox, s.bbox) && v.bbox.x0 >= s.bbox.x1 && v.bbox.x0 - s.bbox.x1 < 14 * h)
      .sort((a, b) => a.bbox.x0 - b.bbox.x0)[0];
    if (beside) rows.push({ captionEnd: s.bbox.x1, valueStart: beside.bbox.x0, y: s.bbox.y0 });
  }
  // Values lose their start, never gain one: the earliest place two rows agree on is where
  // this one should start (a title line beside the column says nothing). A table lines its
  // values up (starts agree), inline captions keep one gap (gaps agree): the closer agreement
  // says which layout this is.
  const earliest = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const at = sorted.find((x, i) => sorted[i + 1] !== undefined && sorted[i + 1] - x < h);
    return at === undefined ? undefined : { at, tight: sorted.filter((x) => x >= at && x - at < 0.5 * h).length };
  };
  const gaps = rows.map((r) => r.valueStart - r.captionEnd);
  const starts = rows.map((r) => r.valueStart);
  // A value lined up with two rows, by its start or its gap, is in its place: a card may
  // print an inline block and a table one under the other (name and id, then the Rx block).
  const together = (xs: number[], x: number) => xs.filter((v) => Math.abs(v - x) < 0.5 * h).length >= 2;
  if (together(starts, c.box.x0) || together(gaps, c.box.x0 - label.x1)) return false;
  const gap = earliest(gaps);
  const start = earliest(starts);
  const late = 1.5 * h;
  const lateByGap = gap !== undefined && c.box.x0 - label.x1 > gap.at + late;
  const lateByStart = start !== undefined && c.box.x0 > start.at + late;
  if (gap && start && gap.tight !== start.tight) return gap.tight > start.tight ? lateByGap : lateByStart;
  return (gap !== undefined || start !== undefined) && (gap === undefined || lateByGap) && (start === undefined || lateByStart);
}

/**
 * "GRP" under "BIN" and "PCN" is the pharmacy group, not the medical group: a group label
 * in the Rx block is RxGRP when the card has no RxGRP label of its own.
 */
function applyRxBlockRule(candidates: Candidate[]): void {
  if (candidates.some((c) => c.field === 'rx_group')) return;
  const rx = candidates.filter((c) => (c.field === 'rx_bin' || c.field === 'rx_pcn') && c.label);
  const groups = candidates.filter((c) => c.field === 'group_number' && c.label);
  if (rx.length === 0) return;
  for (const group of groups) {
    const label = group.label!;
    // Printed in a column with the BIN and PCN, when the card has another group label.
    const stacked =
      groups.length >= 2 &&
      rx.some((r) => r.label!.page === label.page && Math.abs(r.label!.bbox.x0 - label.bbox.x0) < 2 * label.height && Math.abs(r.label!.bbox.y0 - label.bbox.y0) < 4 * label.height);
    // On one line with them ("BIN 003585   PCN ASPROD1   GRP 0418925"): NCPDP's pharmacy
    // block, whose group is the Rx group whatever the card calls it.
    const inLine = rx.some((r) => r.label!.page === label.page && verticalOverlap(r.label!.bbox, label.bbox) >= 0.5 && Math.abs(r.label!.bbox.x0 - label.bbox.x0) < 20 * label.height);
    if (stacked || inLine) group.field = 'rx_group';
  }
}

const PLAN_WORDS =
  /\b(PPO|HMO|POS|EPO|HDHP|HSA|PLUS|CHOICE|CARE|PLAN|ACCESS|ADVANTAGE|SELECT|NETWORK|GOLD|SILVER|BRONZE|PLATINUM|ESSENTIALS?|PREMIER|OPTIONS|CORE|FREEDOM|LIBERTY|METRO|MEDI-CAL|MEDICAID|MEDICARE|MARKETPLACE|VALUE|LOCALPLUS|CONNECT|NAVIGATE|BALANCED|SECURE|DUAL|COVERED|OPEN|MANAGED|BLUE\w*|OAP|IN|II|III)\b/i;

function lettersOf(text: string): string {
  return text.toLowerCase().replace(/[^a-z]/g, '');
}

/** Whether a segment is (part of) the payer's printed name: "of Texas", "HEALTH PLANS", "United Healthcare". */
function isPayerMark(segment: Segment, names: readonly string[]): boolean {
  const seg = lettersOf(segment.text);
  if (seg.length === 0) return false;
  return names.some((name) => {
    const n = lettersOf(name);
    return n.includes(seg) || (seg.includes(n) && seg.length <= n.length + 4);
  });
}

/** Whether a segment names the payer's brand anywhere ("Administered by United Healthcare Inc."). */
function mentionsPayer(segment: Segment, names: readonly string[]): boolean {
  const seg = lettersOf(segment.text);
  return names.some((name) => {
    const brand = lettersOf(name.split(/\s+/)[0] ?? '');
    return brand.length >= 4 && seg.includes(brand);
  });
}

/**
 * Segments listed under a "Dependents" (or "Spouse", "Other members") caption: the
 * member's family, never the member.
 */
function dependentSegments(segments: Segment[]): Set<Segment> {
  const out = new Set<Segment>();
  // Captions as OCR reads them, a letter or two lost ("ndents", "Depcndents").
  for (const caption of segments.filter((s) => /^(\w{0,3}(ndents?|pendents?|pcndents?)|other members|spouse|family members?)\b/i.test(s.text.replace(/[^A-Za-z ]/g, '').trim()))) {
    let bottom = caption.bbox.y1;
    const below = segments
      .filter((s) => s.page === caption.page && s.bbox.y0 >= caption.bbox.y0 + 0.5 * caption.height && Math.abs(s.bbox.x0 - caption.bbox.x0) < 2 * caption.height)
      .sort((a, b) => a.bbox.y0 - b.bbox.y0);
    for (const s of below) {
      if (s.bbox.y0 - bottom > 1.2 * Math.max(caption.height, s.height) || startsWithLabel(s)) break;
      out.add(s);
      bottom = s.bbox.y1;
    }
    // A dependent printed on the caption's own line: "Dependents: RICHARD DICKINSON".
    out.add(caption);
  }
  return out;
}

/** A name printed without a label: alone on its line, near the member id. */
function unlabelledName(segments: Segment[], used: Set<Segment>, anchor: Segment | undefined, names: readonly string[]): Candidate | null {
  const options = segments
    .filter((s) => !used.has(s) && !startsWithLabel(s) && !PLAN_WORDS.test(s.text) && !isPayerMark(s, names) && !mentionsPayer(s, names) && !/\d{3}/.test(s.text))
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

/** Words that make a line a plan's product name: plan types and the words products are named with. */
const PLAN_TYPE = /\b(BLUE(?!CROSS|SHIELD)[A-Z]{4,}|PPO|HMO|POS|EPO|HDHP|HSA|PLUS|CHOICE|ADVANTAGE|SELECT|GOLD|SILVER|BRONZE|PLATINUM|ESSENTIALS?|PREMIER|FREEDOM|LIBERTY|METRO|MEDI-CAL|MARKETPLACE|LOCALPLUS|NAVIGATE|OPTIONS|CORE|SAVINGS|OAP|PLAN|BALANCED|SECURE|DUAL|COVERED|MANAGED|OPEN ACCESS|HEALTHY|COMMUNITY|CARE \d+)\b/gi;
/** PLAN_TYPE for a yes/no test: without the global flag, whose lastIndex a `test` would carry over. */
const ANY_PLAN_TYPE = new RegExp(PLAN_TYPE.source, 'i');
/** Whether a line holds a word products are named with. */
function namesAProduct(text: string): boolean {
  return ANY_PLAN_TYPE.test(text);
}

/** Words of sentences and of other lines: a plan name is a name, not a sentence. */
const SENTENCE_WORDS = /\b(with|by|for|to|and|out|from|your|you|is|are|this|only)\b/i;

/**
 * A plan printed without a label: a product name in the header or footer ("UnitedHealthcare
 * Choice Plus", "HUMANA GOLD PLUS (HMO)", "HEALTH SAVINGS PLAN"): a short line with plan
 * words, often the payer's brand before them. Never the payer's name alone, a company
 * name without plan words, or a sentence. Below the "check this" threshold: it is a guess
 * from the card's look, not a labelled value.
 */
function unlabelledPlan(segments: Segment[], used: Set<Segment>, names: readonly string[]): Candidate | null {
  let best: { c: Candidate; score: number } | null = null;
  for (const s of segments) {
    // Numbers of a plan's own name ("Gold 1500 EPO", "Silver 70") are allowed; an id, a phone or a date is not.
    if (used.has(s) || startsWithLabel(s) || isPayerMark(s, names) || /\d{5}|\d[-/.]\d/.test(s.text)) continue;
    const words = s.text.split(/\s+/).length;
    const kinds = new Set((s.text.match(PLAN_TYPE) ?? []).map((w) => w.toUpperCase()));
    if (kinds.size === 0 || words > 7 || SENTENCE_WORDS.test(s.text)) continue;
    const c = candidate('plan_name', s.text, s.words, 'unlabelled', 1, s);
    if (!c) continue;
    // A standard plan's own name ("Plan G", CMS's Medigap letters) over a line of the kind's words.
    const score = kinds.size + (mentionsPayer(s, names) ? 1 : 0) + s.height / 100 + (medigapPlan(c.value) ? 2 : 0);
    if (!best || score > best.score) best = { c, score };
  }
  if (!best) return null;
  best.c.confidence = Math.min(best.c.confidence, 0.75);
  best.c.value = withPayerSpelling(best.c.value, names);
  return best.c;
}

/**
 * A plan name starts with its payer's brand more often than not ("UnitedHealthcare Core
 * Essential"): a long word one misread letter from a word of the payer's own name is that word.
 */
function withPayerSpelling(value: string, names: readonly string[]): string {
  const known = (names[0] ?? '').split(/[^\p{L}]+/u).filter((w) => w.length >= 7);
  return value
    .split(' ')
    .map((word) => known.find((k) => k.toLowerCase() !== word.toLowerCase() && withinOneEdit(k.toLowerCase(), word.toLowerCase())) ?? word)
    .join(' ');
}

/**
 * BCBS cards print the id in columns, "Prefix  Identification #  Suffix" over
 * "ABC  123456789  01": the member id is the prefix and the number run together (the
 * suffix names the person on the contract).
 */
function prefixColumnsId(segments: Segment[]): Candidate | null {
  for (const row of segments) {
    const words = row.words;
    const at = words.findIndex((w) => /^PREFIX$/i.test(w.text.replace(/[^A-Za-z]/g, '')));
    if (at < 0) continue;
    const prefixWord = words[at];
    const h = row.height;
    // The id caption: the next words on the row (same segment or the next one to the right).
    const sameRow = segments.filter((s) => s.page === row.page && verticalOverlap(s.bbox, row.bbox) >= 0.5).flatMap((s) => s.words);
    const idWord = sameRow
      .filter((w) => w.bbox.x0 > prefixWord.bbox.x1 && /^(.?DENTIFICATION|ID|MEMBER|SUBSCRIBER|NUMBER)/i.test(w.text.replace(/[^A-Za-z]/g, '')))
      .sort((a, b) => a.bbox.x0 - b.bbox.x0)[0];
    if (!idWord) continue;
    const below = segments
      .filter((s) => s.page === row.page && s.bbox.y0 >= row.bbox.y1 - 0.2 * h && s.bbox.y0 - row.bbox.y1 < 2 * h)
      .flatMap((s) => s.words)
      // Under the captions only: another column's line may sit higher than the values.
      .filter((w) => w.bbox.y0 - row.bbox.y1 < 2 * h && w.bbox.x1 > prefixWord.bbox.x0 - h && w.bbox.x0 < idWord.bbox.x1 + 4 * h);
    if (below.length === 0) continue;
    const top = Math.min(...below.map((w) => w.bbox.y0));
    const valueRow = below.filter((w) => w.bbox.y0 - top < h);
    const under = (caption: OcrWord, next?: OcrWord) =>
      valueRow
        .filter((w) => w.bbox.x1 > caption.bbox.x0 - h && w.bbox.x0 < (next ? next.bbox.x0 - 0.3 * h : Infinity))
        .sort((a, b) => a.bbox.x0 - b.bbox.x0);
    const prefix = under(prefixWord, idWord)[0];
    const number = under(idWord)[0];
    if (!prefix || !number) continue;
    const p = prefix.text.toUpperCase().replace(/[^A-Z0-9]/g, '');
    if (!/^[A-Z0-9]{2,4}$/.test(p)) continue;
    const c = candidate('member_id', p + number.text, [prefix, number], 'below', 1, row);
    if (c && /^[A-Z0-9]{2,4}\d{6,}$/.test(c.value)) return c;
  }
  return null;
}

/**
 * A Medicare Beneficiary Identifier printed without a caption the reader knows (or with its
 * caption lost): CMS's shape (11 characters, a digit 1-9 first, letters only where the
 * standard puts letters, never S L O I B Z) is specific enough to find it anywhere on the
 * card, printed whole or in CMS's groups of 4-3-4 ("1EG4-TE5-MK73").
 */
function unlabelledMbi(segments: Segment[]): Candidate | null {
  for (const segment of segments) {
    const words = segment.words;
    for (let i = 0; i < words.length; i++) {
      for (const n of [1, 3]) {
        const used = words.slice(i, i + n);
        if (used.length < n) continue;
        const raw = used.map((w) => w.text).join('');
        const compacted = raw.replace(/[^A-Za-z0-9]/g, '');
        if (n === 3 && !/^\w{4}$/.test(used[0].text.replace(/-/g, ''))) continue;
        const mbi = /\d/.test(compacted[0] ?? '') ? asMbiWithExtraGlyph(compacted) : null;
        // Letters in every place the standard allows them: a run of digits that happens to fit is not one.
        if (!mbi || mbi.repairs > 1 || (mbi.value.match(/[A-Z]/g) ?? []).length < 3) continue;
        const ocr = meanConfidence(used);
        // CMS's shape without its caption: a lead, however specific the shape.
        return { field: 'member_id', value: mbi.value, confidence: Math.min(UNSURE_AT_MOST, ocr * 0.9 * 0.97 ** mbi.repairs), segment, box: boxOf(used), ocr };
      }
    }
  }
  return null;
}

/** An id-shaped word: a short letter prefix and a long run of digits, or digits alone. */
const ID_SHAPE = /^[A-Z]{0,4}\d{7,14}[A-Z]?$/;
/** The issuer number of the health ID card standard, "(80840) 911-80708-01", is the plan's, not the member's. */
const ISSUER_LINE = /80840|\bissuer\b/i;

/**
 * A member id printed with no caption, or with one the OCR lost: the most prominent id-shaped
 * word on the card that no other label claims (not a phone, a date, the issuer number or an
 * Rx code). Cards print the member's id large, near the name. A lead for a person: below
 * "check this", however clearly it was read.
 */
function unlabelledId(segments: Segment[], used: Set<Segment>): Candidate | null {
  let best: { c: Candidate; height: number } | null = null;
  for (const segment of segments) {
    if (used.has(segment) || startsWithLabel(segment) || ISSUER_LINE.test(segment.text) || PHONE.test(segment.text) || TOLL_FREE.test(segment.text)) continue;
    for (const word of segment.words) {
      // A date ("07-01-1986") run together is eight digits, not an id.
      if (holdsDate(word.text)) continue;
      const raw = closingHookAsJ(word.text).text.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
      if (!ID_SHAPE.test(raw)) continue;
      const formatted = FIELD_FORMATS.member_id(raw);
      // The id shape above allows one letter after the digits (M4063745J, the HICN's 123456789A),
      // which the format's fit marks down as less usual; the shape itself is checked here.
      if (!formatted || formatted.fit < 0.85) continue;
      const height = word.bbox.y1 - word.bbox.y0;
      if (best && best.height >= height) continue;
      const ocr = meanConfidence([word]);
      best = { c: { field: 'member_id', value: formatted.value, confidence: Math.min(0.75, ocr * 0.75), segment, box: word.bbox, ocr }, height };
    }
  }
  return best?.c ?? null;
}

/** Segments in printed rows, page by page, top to bottom: the lines a payer's name is looked for on. */
function pageRows(segments: Segment[]): Segment[][] {
  const rows: Segment[][] = [];
  for (const segment of [...segments].sort((a, b) => a.page - b.page || a.bbox.y0 - b.bbox.y0)) {
    const row = rows.find((r) => r[0].page === segment.page && verticalOverlap(r[0].bbox, segment.bbox) >= 0.5);
    if (row) row.push(segment);
    else rows.push([segment]);
  }
  // Each segment alone too: a logo beside other text is its own line of print.
  const sorted = rows.map((r) => r.sort((a, b) => a.bbox.x0 - b.bbox.x0));
  // And a name in two lines of one column ("Health Plan of" over "San Joaquin"), which
  // rows do not keep together when something else is printed beside them (the plan, top right).
  const under = (s: Segment) =>
    segments
      .filter((u) => u !== s && u.page === s.page && u.bbox.y0 >= s.bbox.y1 - 0.2 * s.height && u.bbox.y0 - s.bbox.y1 < 1.2 * Math.max(s.height, u.height) && Math.abs(u.bbox.x0 - s.bbox.x0) < 1.5 * s.height)
      .sort((a, b) => a.bbox.y0 - b.bbox.y0)[0];
  const stacked = segments.flatMap((s) => {
    const below = under(s);
    return below ? [[s, below]] : [];
  });
  // A name's first line read in pieces ("SCOTT", "WHITE": the "&" between them lost, the gap
  // left splits the row) beside a title ("TEMPORARY ID CARD"): the row's first pieces, without
  // the title, over the line under its start.
  const startsStacked = sorted.flatMap((row) => {
    const below = row.length > 2 ? under(row[0]) : undefined;
    return below ? row.slice(2).map((_, i) => [...row.slice(0, i + 2), below]) : [];
  });
  return [...sorted, ...rows.filter((r) => r.length > 1).flatMap((r) => r.map((s) => [s])), ...stacked, ...startsStacked];
}

/** The line that introduces the company that runs an employer's plan or insures it. */
const ADMINISTERED_BY = /\b(administered|underwritten|insured|issued|offered)\s+by\b/i;

/**
 * Whether a segment names the plan's administrator or insurer: "Administered by …" itself, or
 * the line right under it. An employer's own plan prints the employer large at the top and its
 * payer small at the foot after these words, which say as plainly as a header whose name it is.
 */
function namesTheAdministrator(segment: Segment, segments: readonly Segment[]): boolean {
  if (ADMINISTERED_BY.test(segment.text)) return true;
  return segments.some(
    (by) =>
      by.page === segment.page &&
      ADMINISTERED_BY.test(by.text) &&
      /\bby\W*$/i.test(by.text) &&
      segment.bbox.y0 >= by.bbox.y0 + 0.5 * by.height &&
      segment.bbox.y0 - by.bbox.y1 < 1.5 * Math.max(by.height, segment.height) &&
      Math.abs(segment.bbox.x0 - by.bbox.x0) < 2 * by.height,
  );
}

/** Where each field's value was read: which photo, and its box on the prepared image. */
export type FieldSources = Partial<Record<ExtractedFieldName, FieldSource>>;

export interface FieldSource {
  page: number;
  box: OcrBox;
  /** The OCR's own confidence in the value's words, 0..1. */
  ocr: number;
  /**
   * The most any later step (a closer look, a merge of readings) may make this value's
   * confidence: 1 when it rests on a standard caption and shape, else `UNSURE_AT_MOST`. Two
   * readings of the same pixels agreeing are not evidence of the caption or the shape.
   */
  sureAtMost: number;
  /** The caption the value was read under, as read ("RxPCN", "RPCN"); none when placed by position or shape. */
  caption?: string;
  /**
   * Read beside or under its caption, that caption read as printed: not placed by its line's
   * position or by its shape alone, nor by a caption recovered from a misread ("RX GRO").
   */
  captioned?: boolean;
}

/** The pharmacy block's lines in the order NCPDP's pharmacy ID card guide prints them. */
const RX_ORDER = ['rx_bin', 'rx_pcn', 'rx_group'] as const;
/** A value placed by its line's position, not read from its caption: always "check this". */
const BY_POSITION_AT_MOST = 0.7;

/**
 * A line that is a caption OCR could not read, then one value: "Rae 610591", "Repex:
 * MEDDADV", "Rip: 0677175". Small print mangles "RxBIN" past any one-letter rule; what is
 * left is a short unknown word, an "Rx" misread keeping its R (or P, F, B, K) or the colon
 * saying a caption was meant. A word the card uses for something else is not one.
 */
function misreadCaption(segment: Segment): OcrWord[] | undefined {
  const [first, ...after] = segment.words;
  // NCPDP's three letters read apart after the misread "Rx" ("Ru GRP 2210133") are caption too.
  const rest = after.length > 1 && /^(BIN|PCN|GRP)[:#.]*$/i.test(after[0].text) ? after.slice(1) : after;
  if (!first || rest.length === 0 || rest.length > 2) return undefined;
  const letters = first.text.replace(/[:#.]+$/, '');
  if (!/^[A-Za-z]{2,6}$/.test(letters) || isCaptionWord(letters) || isCardWord(letters)) return undefined;
  if (!/^[RPFBK]/i.test(letters) && !first.text.endsWith(':')) return undefined;
  return rest;
}

/** The segment on the next line down whose left edge lines up with this one's. */
function lineBelow(segments: Segment[], above: Segment): Segment | undefined {
  return segments
    .filter(
      (s) =>
        s !== above &&
        s.page === above.page &&
        Math.abs(s.bbox.x0 - above.bbox.x0) < 2 * above.height &&
        s.bbox.y0 >= above.bbox.y0 + 0.5 * above.height &&
        s.bbox.y0 - above.bbox.y1 < 1.8 * Math.max(above.height, s.height),
    )
    .sort((a, b) => a.bbox.y0 - b.bbox.y0)[0];
}

/**
 * NCPDP's pharmacy ID card guide prints RxBIN, RxPCN and RxGRP one under the other, in that
 * order, the BIN six digits. Where OCR lost a caption in that stack, the line's place in it
 * says which value it is: the block starts at the BIN (its caption read, or misread with six
 * digits after it) and has at least two lines; a line whose caption reads as another field
 * ends it. Only fields the captions did not give are filled, and never as sure.
 */
function rxBlockByPosition(segments: Segment[], hits: LabelHit[], best: Map<LabelledField, Candidate>): void {
  if (RX_ORDER.every((field) => best.has(field))) return;
  const captioned = new Map<Segment, LabelledField>(hits.map((hit) => [hit.segment, hit.field]));
  for (const start of segments) {
    const misread = captioned.has(start) ? undefined : misreadCaption(start);
    if (captioned.get(start) !== 'rx_bin' && !(misread && /^\d{6}$/.test(misread.map((w) => w.text).join('')))) continue;
    const block: Segment[] = [start];
    for (let below = lineBelow(segments, start); below && block.length < RX_ORDER.length; below = lineBelow(segments, below)) {
      const field = captioned.get(below);
      if (field !== undefined && field !== RX_ORDER[block.length]) break;
      if (field === undefined && !misreadCaption(below)) break;
      block.push(below);
    }
    if (block.length < 2) continue;
    block.forEach((line, place) => {
      const field = RX_ORDER[place];
      const words = captioned.has(line) ? undefined : misreadCaption(line);
      if (!words || best.has(field)) return;
      const c = candidate(field, words.map((w) => w.text).join(' '), words, 'unlabelled', 1, line);
      if (c) best.set(field, { ...c, confidence: Math.min(c.confidence, BY_POSITION_AT_MOST), evidenced: false });
    });
  }
}

/**
 * NCPDP's stack with the BIN's caption lost: a line of six digits alone (the BIN's shape) right
 * above the PCN's captioned line, starting where the PCN's caption or its value starts. Its
 * place and shape say it is the BIN; without its caption, never as sure.
 */
function binAbovePcn(segments: Segment[], best: Map<LabelledField, Candidate>): void {
  const pcn = best.get('rx_pcn');
  if (best.has('rx_bin') || !pcn?.label) return;
  const label = pcn.label;
  const taken = new Set([...best.values()].map((c) => c.segment));
  for (const s of segments) {
    if (s.page !== label.page || taken.has(s)) continue;
    const text = s.words.map((w) => w.text).join('');
    if (!/^\d{6}$/.test(text)) continue;
    const h = Math.max(label.height, s.height);
    const above = s.bbox.y1 <= label.bbox.y0 + 0.5 * label.height && label.bbox.y0 - s.bbox.y1 < 1.8 * h;
    const aligned = Math.abs(s.bbox.x0 - label.bbox.x0) < 2 * label.height || Math.abs(s.bbox.x0 - pcn.box.x0) < 2 * label.height;
    if (!above || !aligned) continue;
    const c = candidate('rx_bin', text, s.words, 'unlabelled', 1, s);
    if (c) best.set('rx_bin', { ...c, confidence: Math.min(c.confidence, BY_POSITION_AT_MOST), evidenced: false });
    return;
  }
}

/** Where the pharmacy block's captions (RxBIN, RxPCN, RxGRP, as the labels read them) are printed, photo by photo. */
export function rxCaptionBoxes(pages: OcrPage[]): { page: number; box: OcrBox }[] {
  const segments = pages.flatMap((page, i) => segmentPage(page, i));
  return findLabels(segments)
    .filter((hit) => (RX_ORDER as readonly LabelledField[]).includes(hit.field))
    .map((hit) => ({ page: hit.segment.page, box: boxOf(hit.labelWords) }));
}

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

  for (const c of best.values()) if (startLost(c, candidates, segments)) doubt(c);

  rxBlockByPosition(segments, hits, best);
  binAbovePcn(segments, best);

  if (!best.has('member_id')) {
    const mbi = unlabelledMbi(segments);
    if (mbi) best.set('member_id', mbi);
  }

  const columns = prefixColumnsId(segments);
  if (columns) {
    // Two words read apart and joined: a little less sure than one read whole.
    columns.confidence *= 0.9;
    best.set('member_id', columns);
  } else if (best.has('member_id') && segments.some((s) => s.words.some((w) => /^PREFIX$/i.test(w.text.replace(/[^A-Za-z]/g, ''))))) {
    // The card prints a prefix column that could not be joined to the number: the id
    // read is likely missing its prefix.
    const id = best.get('member_id')!;
    id.confidence *= 0.7;
    doubt(id);
  }

  const bottoms = pages.map((_, i) => Math.max(0, ...segments.filter((s) => s.page === i).map((s) => s.bbox.y1)));
  // The member's name is no evidence of the payer: "ELIZABETH W WASHINGTON" on an Oregon
  // Medicaid card named "Medicaid Washington" (a state, a city or a brand can be a person's name).
  const person = best.get('member_name')?.segment;
  const payer = matchPayerLines(
    pageRows(segments.filter((s) => s !== person)).map((row) => ({
      text: row.map((s) => s.text).join(' '),
      confidence: meanConfidence(row.flatMap((s) => s.words)),
      header: (row[0].page === 0 && row[0].bbox.y0 < bottoms[0] / 3) || row.some((seg) => namesTheAdministrator(seg, segments)),
    })),
    context.entities,
  );
  const names = payer ? payerNames(payer.entity, context.entities) : [];
  // A payer's name in two lines whose second starts with "Plan" ("KEYSTONE HEALTH" over "PLAN
  // EAST") is the name, not a plan caption with its value: the next plan read stands instead.
  if (names.length > 0 && best.has('plan_name') && isPayerMark(best.get('plan_name')!.segment, names)) {
    const other = candidates.filter((c) => c.field === 'plan_name' && !isPayerMark(c.segment, names)).sort((a, b) => b.confidence - a.confidence)[0];
    if (other) best.set('plan_name', other);
    else best.delete('plan_name');
  }
  const dependents = dependentSegments(segments);
  const used = new Set<Segment>([...hits.map((h) => h.segment), ...[...best.values()].map((c) => c.segment), ...dependents]);
  const name = best.get('member_name');
  if (name && dependents.has(name.segment)) best.delete('member_name');

  if (!best.has('member_id')) {
    const id = unlabelledId(segments, used);
    if (id) {
      best.set('member_id', id);
      used.add(id.segment);
    }
  }
  if (!best.has('member_name')) {
    const anchor = hits.find((h) => h.field === 'member_id')?.segment;
    const unlabelled = unlabelledName(segments, used, anchor, names);
    if (unlabelled) {
      best.set('member_name', unlabelled);
      used.add(unlabelled.segment);
    }
  }
  if (!best.has('plan_name')) {
    const plan = unlabelledPlan(segments, used, names);
    if (plan) best.set('plan_name', plan);
  }

  const fields: ExtractedFields = {};
  const sources: FieldSources = {};
  for (const name of EXTRACTED_FIELDS) {
    if (name === 'payer_name') continue;
    const c = best.get(name);
    if (!c) continue;
    // A value that runs to the edge of the photo may go on past it: "MEDDAD" of "MEDDADV".
    const width = pages[c.segment.page]?.width ?? 0;
    if (width > 0 && c.box.x1 >= width * 0.985) {
      c.confidence *= 0.8;
      doubt(c);
    }
    // So may a caption that starts at the photo's left edge have lost its start, cut by a crop:
    // where what is left is the end of another field's caption ("GRP" of "RxGRP") the value may
    // be that field's, and "not found" beats the guess. Any other caption cut there still says
    // its field ("xBIN", "ibscriber ID"): measured, holding those too lost a whole reading.
    if (c.labelBox && c.labelBox.x0 < 0.25 * (c.labelBox.y1 - c.labelBox.y0) && c.caption && endsAnotherCaption(c.caption, name)) continue;
    fields[name] = { value: c.value, confidence: round2(c.confidence) };
    sources[name] = { page: c.segment.page, box: c.box, ocr: c.ocr, sureAtMost: c.evidenced ? 1 : UNSURE_AT_MOST, captioned: !!c.captionAsPrinted, ...(c.caption ? { caption: c.caption } : {}) };
  }
  if (payer) fields.payer_name = { value: payer.entity.name, confidence: round2(payer.score * 0.98), evidence: payer.evidence };
  return { fields, sources };
}
