import type { ExtractedFields } from '../../shared/contract';
import { REVIEW_BELOW, UNSURE_AT_MOST } from '../../shared/review-threshold';
import { keepsNcpdpLetters } from './field-labels';
import { FIELD_FORMATS } from './field-formats';
import { readCardFields, rxCaptionBoxes, type FieldSource, type FieldSources } from './field-parser';
import type { OcrBox, OcrPage } from './ocr-worker';
import type { PreparedImage } from './prepare-image';

/** NCPDP's pharmacy block, in the order its card guide prints it. */
const RX_FIELDS = ['rx_bin', 'rx_pcn', 'rx_group'] as const;

/**
 * How far around the captions and values read the block may go, in caption heights: NCPDP
 * prints BIN, PCN and GRP one under the other (a line missed below the last one read) or
 * side by side (captions missed to the right of the last one), each value beside or under
 * its caption. To the right, two more columns: a form's boxed row prints its captions small
 * over values twice their height ("RxPCN | RxGRP | EFFECTIVE DATE"), and twenty caption heights
 * cut the next box's value in half (tuning seed 606: "FH" of FH64D).
 */
const AROUND = { left: 3, right: 40, up: 2, down: 9 };
/** The caption height the block is enlarged to: where the model reads small print best. */
const TEXT_HEIGHT = 30;
const MAX_SCALE = 3;
const MAX_SIDE = 2400;

/** Which page holds the pharmacy block, the region to read and how much to enlarge it. */
export interface RxBlockRegion {
  page: number;
  box: OcrBox;
  scale: number;
}

/**
 * A field of the block still to be read: missing, or under "check this" with a run of one
 * glyph the reader may have merged. Codes merely read unsurely are left to the closer re-read
 * of the value alone: looking at the block for them too ran the look on 22 of 60 cards instead
 * of 5–6 and changed no code but a merged run (seeds 202, 303).
 */
function unread(fields: ExtractedFields, field: (typeof RX_FIELDS)[number]): boolean {
  const current = fields[field];
  return !current?.value || (current.confidence < REVIEW_BELOW && RUN.test(current.value));
}

/** A run of one glyph, three or more: where a line reader may have merged repeats. */
const RUN = /(.)\1\1/;
/** A code's runs of one glyph: "03200000" is 0 3 2 0×5. */
const runs = (value: string): [string, number][] => (value.match(/(.)\1*/g) ?? []).map((r) => [r[0], r.length]);

/**
 * Whether `longer` is `shorter` with some run of one glyph read longer and nothing else
 * changed: a line reader's decoder merges repeated glyphs, never adds them, so of two readings
 * that differ only so, the longer kept what the other lost ("03200000" read "032000"), however
 * surely the shorter was read.
 */
export function lengthensRun(shorter: string, longer: string): boolean {
  const a = runs(shorter);
  const b = runs(longer);
  return longer.length > shorter.length && a.length === b.length && a.every(([c, n], i) => b[i][0] === c && b[i][1] >= n);
}

/**
 * The region of the pharmacy block on the photo whose Rx captions were read, when the card
 * shows it prints one (a caption of NCPDP's read) and a field of it is still to be read
 * (`unread`): only those cards pay for the look. Undefined otherwise.
 */
export function rxBlockRegion(sizes: readonly { width: number; height: number }[], fields: ExtractedFields, sources: FieldSources, captions: readonly { page: number; box: OcrBox }[]): RxBlockRegion | undefined {
  if (captions.length === 0 || !RX_FIELDS.some((f) => unread(fields, f))) return undefined;
  const byPage = new Map<number, OcrBox[]>();
  for (const c of captions) byPage.set(c.page, [...(byPage.get(c.page) ?? []), c.box]);
  const [page, boxes] = [...byPage].sort((a, b) => b[1].length - a[1].length)[0];
  const heights = boxes.map((b) => b.y1 - b.y0).sort((a, b) => a - b);
  const h = heights[heights.length >> 1];
  const size = sizes[page];
  if (!size || h <= 0) return undefined;
  // The values already read belong to the block too: where they are says how far it goes.
  const values = RX_FIELDS.flatMap((f) => (sources[f] && sources[f].page === page ? [sources[f].box] : []));
  const all = [...boxes, ...values];
  const box = {
    x0: Math.max(0, Math.min(...all.map((b) => b.x0)) - AROUND.left * h),
    y0: Math.max(0, Math.min(...all.map((b) => b.y0)) - AROUND.up * h),
    x1: Math.min(size.width, Math.max(...all.map((b) => b.x1)) + AROUND.right * h),
    y1: Math.min(size.height, Math.max(...all.map((b) => b.y1)) + AROUND.down * h),
  };
  const scale = Math.max(1, Math.min(MAX_SCALE, TEXT_HEIGHT / h, MAX_SIDE / Math.max(box.x1 - box.x0, box.y1 - box.y0)));
  return { page, box, scale };
}

/** A reading of the enlarged region, its words put back where they are on the whole side. */
export function onTheSide(read: OcrPage, region: RxBlockRegion, size: { width: number; height: number }): OcrPage {
  const left = Math.max(0, Math.floor(region.box.x0));
  const top = Math.max(0, Math.floor(region.box.y0));
  const back = (b: OcrBox): OcrBox => ({ x0: left + b.x0 / region.scale, y0: top + b.y0 / region.scale, x1: left + b.x1 / region.scale, y1: top + b.y1 / region.scale });
  return {
    text: read.text,
    lines: read.lines.map((l) => ({ ...l, bbox: back(l.bbox), words: l.words.map((w) => ({ ...w, bbox: back(w.bbox) })) })),
    width: size.width,
    height: size.height,
  };
}

export interface RxBlockLookDeps {
  /** One recognition of an image (the region enlarged), block-read with these tesseract variables. */
  recognize(image: PreparedImage, params: Record<string, string>): Promise<OcrPage>;
  /** The region of a side enlarged smoothly. */
  enlarge(image: PreparedImage, box: OcrBox, scale: number): Promise<PreparedImage>;
}

export interface RxBlockLookInput {
  /** The card's reading so far; fields the look finds are added to it. */
  read: { fields: ExtractedFields; sources: FieldSources };
  /** The first reading's pages, whose captions say where the block is. */
  pages: OcrPage[];
  prepared: PreparedImage[];
  /** How much surer the OCR must be of the look's reading to replace an unsure one (the engine's re-read rule). */
  surerBy: number;
}

/**
 * Whether the words the look read at a value's place have its field's NCPDP shape as printed
 * (BIN six digits; PCN and GRP NCPDP's characters and length) with no glyph repaired: a
 * repair is a guess, no ground to replace another reading.
 */
export function printedInShape(field: (typeof RX_FIELDS)[number], page: OcrPage, at: OcrBox, value: string): boolean {
  const inside = (b: OcrBox): boolean => b.x0 >= at.x0 - 1 && b.x1 <= at.x1 + 1 && b.y0 >= at.y0 - 1 && b.y1 <= at.y1 + 1;
  const words = page.lines.flatMap((l) => l.words.filter((w) => inside(w.bbox)));
  const formatted = words.length > 0 ? FIELD_FORMATS[field](words.map((w) => w.text).join(' ')) : null;
  return !!formatted && formatted.value === value && formatted.fit >= 1 && formatted.repairs === 0;
}

/**
 * Whether a value was read under its own caption with only the caption's "Rx" misread ("RPCN",
 * "HxGRP"): NCPDP's three letters still say whose value it is, but not surely, so it may fill a
 * blank (under "check this") and never replace a reading.
 */
function underMisreadCaption(source: FieldSource): boolean {
  return !source.captioned && keepsNcpdpLetters(source.caption);
}

/**
 * Whether the look's reading of a field takes its place: a missing field is filled by a value
 * read beside or under its own caption, read as printed or with only its "Rx" misread
 * (`underMisreadCaption`); an unsure one (under "check this") is replaced only by
 * a value that is also in its field's shape as printed and that the OCR read clearly surer, as
 * a closer re-read must be (a second reading of the same pixels is otherwise no better), or
 * that keeps a run of one glyph the first reading merged.
 */
export function takesThePlace(current: { value: string; confidence: number } | undefined, currentSource: FieldSource | undefined, found: { value: string; source: FieldSource; shaped: boolean }, surerBy: number): boolean {
  if (!found.value) return false;
  if (!current?.value) return !!found.source.captioned || underMisreadCaption(found.source);
  if (!found.source.captioned || current.value === found.value || current.confidence >= REVIEW_BELOW) return false;
  return found.shaped && (found.source.ocr >= (currentSource?.ocr ?? 0) + surerBy || lengthensRun(current.value, found.value));
}

/**
 * A second look at the pharmacy block where the card shows one and a field of it is still to be read:
 * the block cut out around its captions and values read, enlarged, and read as one block of
 * text (no sparse layout analysis to lose a line of it). A value is taken (`takesThePlace`)
 * only where its own caption was read beside or above it (never one placed by its line's
 * position), in the field's NCPDP shape, with the confidence the parser gives it:
 * a value repaired, loosely shaped or read unclearly stays under "check this". Returns the
 * steps run, for the log.
 */
export async function lookAtRxBlock(deps: RxBlockLookDeps, input: RxBlockLookInput): Promise<string[]> {
  const { read, pages, prepared } = input;
  const region = rxBlockRegion(prepared, read.fields, read.sources, rxCaptionBoxes(pages));
  if (!region) return [];
  const side = prepared[region.page];
  const enlarged = await deps.enlarge(side, region.box, region.scale);
  const page = onTheSide(await deps.recognize(enlarged, { tessedit_pageseg_mode: '6' }), region, side);
  const empty = (size: PreparedImage): OcrPage => ({ text: '', lines: [], width: size.width, height: size.height });
  const block = readCardFields(
    prepared.map((p, i) => (i === region.page ? page : empty(p))),
    { entities: [] },
  );
  for (const field of RX_FIELDS) {
    const found = block.fields[field];
    const source = block.sources[field];
    // The look's own confidence goes with its value: a replacement is never made surer.
    if (!found || !source) continue;
    const shaped = source.page === region.page && printedInShape(field, page, source.box, found.value);
    if (!takesThePlace(read.fields[field], read.sources[field], { value: found.value, source, shaped }, input.surerBy)) continue;
    // A fill under a misread caption is a lead, whatever the parser made of it.
    read.fields[field] = source.captioned ? found : { ...found, confidence: Math.min(found.confidence, UNSURE_AT_MOST) };
    read.sources[field] = source;
  }
  return ['rx-block'];
}
