import { EXTRACTED_FIELDS, type BarcodeReading, type ClearinghouseEntity, type ExtractedFieldName, type ExtractedFields } from '../../shared/contract';
import type { DigitalCardDeps } from '../digital-card/read-digital-card';
import { readBarcodePayload } from './barcode-payload';
import { decodeBarcodes as decodeWithZxing, type DecodedBarcode } from './barcodes';
import { REVIEW_BELOW } from '../../shared/review-threshold';
import { pageText, segmentPage } from './card-layout';
import { asExtractionFailure, ExtractionFailure } from './extraction-failure';
import { FIELD_FORMATS, type FormattedValue } from './field-formats';
import type { LabelledField } from './field-labels';
import { readCardFields, UNSURE_AT_MOST, type FieldSource, type FieldSources } from './field-parser';
import { createOcrWorker, joinPages, type OcrBox, type OcrPage, type OcrWord, type OcrWorker, type OcrWorkerOptions } from './ocr-worker';
import type { ImageQuality } from './image-quality';
import { lookAtRxBlock } from './rx-block-look';
import { withoutRuledLines } from './ruled-lines';
import { crop, enlargeRegion, halvesForOcr, negative, prepareCard, timed, toPgm, withoutRules, type PreparedImage, type PrepareOptions, type StageTimer } from './prepare-image';

export interface ExtractionImage {
  bytes: Uint8Array;
  content_type?: string;
}

export interface ExtractionContext {
  /** The known clearinghouse entities; the payer is matched against their names. */
  entities: readonly ClearinghouseEntity[];
}

export interface ExtractionResult {
  fields: ExtractedFields;
  /** Everything read from the photos, front first, in reading order. */
  text: string;
  /** Each card side read (a photo of both sides gives two), front first: its blur and glare. */
  quality: ImageQuality[];
  /** Each barcode found on the photos, read: a licence's details, a card's fields, or a payload kept raw. */
  barcodes: BarcodeReading[];
}

export interface ExtractionEngineOptions {
  /** The folder holding `eng.traineddata.gz`; defaults to the bundled `@tesseract.js-data/eng`. */
  langPath?: string;
  /** A single recognition that takes longer fails the card and restarts the worker. */
  timeoutMs?: number;
  /** Ids and timings only: card text is PHI. */
  log?: (message: string) => void;
  /** What a SMART Health Card or Link found on a photo is read with. */
  digitalCard?: DigitalCardDeps;
  /** False: the OCR alone, no barcode look (the benchmark's measure of what the look costs). */
  barcodes?: boolean;
  /** The barcode look; zxing's by default (a test holds it back to see the OCR run beside it). */
  decodeBarcodes?: (sides: readonly PreparedImage[], photos: readonly Uint8Array[]) => Promise<DecodedBarcode[]>;
  /**
   * How long each step of a card took (preparing, each OCR pass, the re-reads, parsing, the
   * barcode look): for the bench and the card measure's `--profile`, never the app's log.
   */
  profile?: StageTimer;
  /**
   * Read each side as two halves at once, one on each worker, cut at a blank gap near its
   * middle, each half binarised by tesseract as the whole side is (`halvesForOcr`: padded with
   * the rest of the side's grey when its own would be binarised otherwise). Off: one tuning seed
   * lost two fields with it (docs/decisions.md, "The split, padded instead of pulled").
   */
  splitSides?: boolean;
  /** Makes each of the OCR workers; tesseract.js's by default (a test wraps it to see which reads what, or to fail one). */
  createOcrWorker?: (options: OcrWorkerOptions) => OcrWorker;
}

/**
 * On-device card extraction. Satisfies the hot folder's `HotFolderExtractor`. Failures
 * reject with an `ExtractionFailure` whose `reason` is the code to record.
 */
export interface ExtractionEngine {
  extract(images: ExtractionImage[], context: ExtractionContext): Promise<ExtractionResult>;
  /** Starts the OCR workers now (side by side) instead of on the first card; resolves with the ms it took. */
  warmUp(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The OCR workers as one card's reading uses them: stoppable between recognitions. `lane`
 * picks the worker (0 or 1): the two halves of a side go to both at once.
 */
interface Recognizer {
  recognize(image: Buffer, size: { width: number; height: number }, params: Record<string, string> | undefined, lane: number): Promise<OcrPage>;
}

/** OCR workers: one a core on the 2-core desks this runs on (measured: docs/decisions.md). */
const OCR_WORKERS = 2;

/** The OCR of a card was stopped: a licence's barcode was found, and a licence has no card to read. */
class OcrStopped extends Error {}

/** Fields worth a second look when the first pass misses them; every card has them. */
const KEY_FIELDS: ExtractedFieldName[] = ['member_name', 'member_id', 'payer_name'];
const UNSURE = 0.6;

interface Pass {
  name: string;
  /** Tesseract variables for this pass only. */
  params: Record<string, string>;
  invert?: boolean;
  /** Whether the fields so far (and the text read so far) call for this pass. */
  needed(fields: ExtractedFields, text: string): boolean;
}

/** The Rx labels as a first reading may have them ("RxPCN", "PCI" for a small "PCN"; "PCP" is another thing). */
const PCN_LABEL = /PCN|\bPC[Il1|]\b/i;
const BIN_LABEL = /BIN|\bB[Il1|][NM]\b/i;

/**
 * A key field missing or an Rx block half read. Not a field merely absent: many cards print no
 * group or Rx group, and a second pass for each of them was most of the time of a card
 * (measured on the held-out set). A BIN without its PCN (or the other way round) is an Rx
 * block half read when the other label is printed: many cards print a BIN and no PCN at all
 * (measured: those were a tenth of the generated cards, each paying a whole second pass for
 * nothing).
 */
function missing(fields: ExtractedFields, text: string): boolean {
  return (
    KEY_FIELDS.some((f) => !fields[f]) ||
    (!!fields.rx_bin && !fields.rx_pcn && PCN_LABEL.test(text)) ||
    (!fields.rx_bin && !!fields.rx_pcn && BIN_LABEL.test(text))
  );
}

/**
 * Tesseract binarises with one global threshold. That is the fastest and reads most
 * cards, so it goes first; the other passes run only for cards it leaves short (a quarter
 * of the generated set, so the median card costs one pass):
 * - local (Sauvola) thresholds, for glare and shadow the light correction left behind;
 * - the negative, for payer names printed white on a dark band, which tesseract's page
 *   layout takes for a picture.
 */
const PASSES: Pass[] = [
  { name: 'global', params: {}, needed: () => true },
  {
    name: 'local',
    params: { thresholding_method: '2' },
    needed: (fields, text) => missing(fields, text) || EXTRACTED_FIELDS.some((f) => fields[f] && fields[f].confidence < UNSURE),
  },
  { name: 'negative', params: {}, invert: true, needed: (fields) => !fields.payer_name },
];

/** The more confident reading of each field (only the fields not read yet, `fillOnly`), and where it was read. */
function merge(into: { fields: ExtractedFields; sources: FieldSources }, from: { fields: ExtractedFields; sources: FieldSources }, fillOnly = false): void {
  for (const name of EXTRACTED_FIELDS) {
    const candidate = from.fields[name];
    if (candidate && (!into.fields[name] || (!fillOnly && candidate.confidence > into.fields[name].confidence))) {
      into.fields[name] = candidate;
      into.sources[name] = from.sources[name];
    }
  }
}

/**
 * Every job's result, once all have ended: a failure is passed on only then, so no recognition
 * of this card is left running into the next one.
 */
async function allSettledOrThrow<T>(jobs: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(jobs);
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
}

/**
 * The quality gate (measured on sharp and blurred cards, docs/decisions.md): below
 * `BLUR_REFUSE` sharpness nothing on the card reads reliably; below `BLUR_RETAKE`, or
 * with more than `GLARE_RETAKE` of the card blown out, a card whose member id could not be
 * read surely asks for a retake.
 */
const BLUR_REFUSE = 25;
const BLUR_RETAKE = 100;
const GLARE_RETAKE = 0.04;
/** Under this sharpness a photo still reads, but a misread letter is likelier than the OCR thinks. */
const SOFT = 300;
/** A card enlarged this much to be read was held at under ~700 pixels across by the photo. */
const FEW_PIXELS = 1.6;
/** Words of insurance cards, fronts and backs. */
const CARD_WORDS = /^(members?|claims?|providers?|pharmacy|pharmacists?|coverage|benefits?|card|copays?|deductible|payer|payor|insurance|insured|subscriber|rx\w*|group|plan|network|emergency|eligibility|healthcare)\W*$/i;
/** Fields only a card has; a name or a plan-like line alone can be on any page. */
const CARD_EVIDENCE: ExtractedFieldName[] = ['member_id', 'group_number', 'rx_bin', 'rx_pcn', 'rx_group', 'payer_name'];
/** A reading with fewer of a card's fields than this (every card prints an id and a payer or Rx code) found too little. */
const ENOUGH_EVIDENCE = 2;
/** The long side a scaled-down photo is read at the second time: a card small in a screenshot at its own size. */
const WHOLE_PHOTO_SIDE = 2600;

/**
 * Print smaller than this (median height of the values read, in pixels) is under what the
 * model reads well: a card small in a screenshot of a document, a page scanned at low
 * resolution. Such print is read again, enlarged to `PRINT_HEIGHT`, the region around the
 * values read (`AROUND_VALUES` text heights each way: the card's other columns and its
 * logo), no larger than `ENLARGED_SIDE`.
 */
const SMALL_PRINT = 16;
const PRINT_HEIGHT = 30;
const AROUND_VALUES = { x: 20, y: 8 };
const ENLARGED_SIDE = 2400;

/** Where small print on one side is, and how much to enlarge it; none when the print is large enough. */
export function smallPrintRegion(size: { width: number; height: number }, values: OcrBox[]): { box: OcrBox; scale: number } | undefined {
  if (values.length === 0) return undefined;
  const heights = values.map((b) => b.y1 - b.y0).sort((a, b) => a - b);
  const h = heights[Math.floor(heights.length / 2)];
  if (h <= 0 || h >= SMALL_PRINT) return undefined;
  const box = {
    x0: Math.max(0, Math.min(...values.map((b) => b.x0)) - AROUND_VALUES.x * h),
    y0: Math.max(0, Math.min(...values.map((b) => b.y0)) - AROUND_VALUES.y * h),
    x1: Math.min(size.width, Math.max(...values.map((b) => b.x1)) + AROUND_VALUES.x * h),
    y1: Math.min(size.height, Math.max(...values.map((b) => b.y1)) + AROUND_VALUES.y * h),
  };
  const scale = Math.min(PRINT_HEIGHT / h, ENLARGED_SIDE / Math.max(box.x1 - box.x0, box.y1 - box.y0));
  return scale >= 1.3 ? { box, scale } : undefined;
}

/** How sure a reading is overall: what decides between two readings with as much evidence. */
function sureness(fields: ExtractedFields): number {
  return EXTRACTED_FIELDS.reduce((sum, f) => sum + (fields[f]?.value ? fields[f].confidence : 0), 0);
}

function evidenceOf(fields: ExtractedFields): number {
  return CARD_EVIDENCE.filter((f) => fields[f] && fields[f].value !== '').length + (fields.member_id && fields.member_id.confidence >= REVIEW_BELOW ? 1 : 0);
}

function notACard(): ExtractionFailure {
  return new ExtractionFailure('not_a_card', 'The photo does not look like an insurance card: no member id, group, Rx codes or payer were found on it. If it is a card, retake it flat, sharp and filling the frame.');
}

function retake(reason: 'retake_blurry' | 'retake_glare'): ExtractionFailure {
  return reason === 'retake_blurry'
    ? new ExtractionFailure('retake_blurry', 'Retake: the photo is too blurry to read the card. Hold the card flat and the camera still, in good light.')
    : new ExtractionFailure('retake_glare', 'Retake: glare over the id. Tilt the card or move away from the light so no reflection covers the printing.');
}

/** Values read less surely than this get a second, closer look on their own. */
const REREAD_BELOW = 0.75;
/** The text height a value is scaled to for that look: where the model reads best. */
const REREAD_TEXT_HEIGHT = 36;
const REREAD_FIELDS: LabelledField[] = ['member_id', 'member_name', 'group_number', 'rx_bin', 'rx_pcn', 'rx_group'];
/** OCR confidence (0..1) of a name above which it is not read again. */
const NAME_READ_CLEARLY = 0.9;
/** A member caption ("Member:", "Name"), alone on its line. */
const MEMBER_CAPTION = /^(member|name|subscriber|enrollee|cardholder)\W*$/i;
/** A name read under its caption counts as a value read under its label. */
const CAPTIONED = 0.97;
/** How much surer the OCR must be of the closer reading to take it. */
const REREAD_MARGIN = 0.2;
/**
 * Values a misread character leaves well formed (every digit string is a BIN; a name and a plan
 * have no shape at all: "TERESA J MORALES" read without its J at 0.90, tuning seed 707, "Choice
 * Phis PPO" at 0.88, seed 1414): read twice when only fairly sure.
 */
const CROSS_CHECKED: LabelledField[] = ['member_id', 'member_name', 'plan_name', 'group_number', 'rx_bin', 'rx_pcn', 'rx_group'];
const CROSS_CHECK_BELOW = 0.92;
/** Two readings that disagree: below "check this". */
const DISAGREED = 0.7;

/**
 * The confidence of a value read again, closer, that replaces the first reading. It carries
 * what the first carried for caption and layout (or, for a name found under a member caption
 * in the closer look, what a captioned value carries), but it is never surer than the
 * evidence allows: a value the parser held under "check this" (no standard caption, a loose
 * shape, a repair, found by position) stays there however clearly the closer look reads it,
 * because a clearer reading of the same pixels says nothing about the caption or the shape.
 * A name newly found under its caption may be sure only when it has the standard shape read
 * as printed, as a labelled value must.
 */
export function rereadConfidence(
  first: { confidence: number; source: Pick<FieldSource, 'ocr' | 'sureAtMost'> },
  again: { formatted: FormattedValue; sure: number; captioned: boolean },
): { confidence: number; sureAtMost: number } {
  const carried = again.captioned ? CAPTIONED : first.confidence / Math.max(0.01, first.source.ocr);
  const shaped = again.formatted.fit >= 1 && again.formatted.repairs === 0;
  const sureAtMost = shaped && (again.captioned || first.source.sureAtMost > UNSURE_AT_MOST) ? 1 : UNSURE_AT_MOST;
  const confidence = Math.min(sureAtMost, again.sure * again.formatted.fit * 0.97 ** again.formatted.repairs * carried);
  return { confidence: Math.round(confidence * 100) / 100, sureAtMost };
}

/**
 * The last word on every OCR value: none is surer than its evidence allows, whichever
 * reading, re-read or merge it came through. One place, so that a step added later cannot
 * lift a held value over "check this" by accident.
 */
export function holdToEvidence(read: { fields: ExtractedFields; sources: FieldSources }): void {
  for (const name of EXTRACTED_FIELDS) {
    const field = read.fields[name];
    const source = read.sources[name];
    if (field && source && field.confidence > source.sureAtMost) field.confidence = source.sureAtMost;
  }
}

/** How near the region's border (share of its width) a word counts as running into it; cards print a margin. */
const AT_BORDER = 0.004;

/**
 * Whether printed words run into the border of what was read: a card has a margin all
 * round, so a region cut through its printing is not the whole card.
 */
export function cutThroughPrint(page: Pick<OcrPage, 'lines' | 'width' | 'height'>): boolean {
  const edge = Math.max(2, AT_BORDER * page.width);
  // Only words the OCR read as words: specks and a scanner's streaks at the border are not print.
  return page.lines.some((l) => l.words.some((w) => w.confidence >= 60 && /\p{L}{2}|\d{2}/u.test(w.text) && (w.bbox.x0 <= edge || w.bbox.x1 >= page.width - edge || w.bbox.y0 <= edge || w.bbox.y1 >= page.height - edge)));
}

/**
 * Two warm tesseract.js workers (started on the first card, or by `warmUp`), reused for
 * every card and every photo: the cross-checks of a card's codes run on both at once (and,
 * with `splitSides`, a side's two halves); recognition runs in worker threads, so the main
 * process stays responsive. Nothing is fetched: the language data is read from node_modules.
 */
export function createExtractionEngine(options: ExtractionEngineOptions = {}): ExtractionEngine {
  const makeWorker = options.createOcrWorker ?? createOcrWorker;
  const workers: OcrWorker[] = Array.from({ length: OCR_WORKERS }, () => makeWorker({ langPath: options.langPath, timeoutMs: options.timeoutMs }));
  const log = options.log ?? (() => {});
  const decodeBarcodes = options.decodeBarcodes ?? decodeWithZxing;
  const { profile } = options;

  /** One recognition, timed under `stage` when profiling. */
  function recognize(ocr: Recognizer, stage: string, image: PreparedImage, params?: Record<string, string>, lane = 0): Promise<OcrPage> {
    return timed(profile, `ocr:${stage}`, () => ocr.recognize(toPgm(image), image, params, lane));
  }

  /**
   * A whole side, read as two halves at once (one a worker) when it has a blank gap near its
   * middle to cut at and each half can be binarised as the whole would be (`halvesForOcr`),
   * else whole. The halves' words are put back where they are on the side. Both halves are
   * waited for, so a failed one leaves no recognition of this card running. Only the global
   * threshold is split: tesseract's local (Sauvola) threshold looks at a window around each
   * pixel, which at a half's cut edge would see blank margin where the whole sees the next
   * lines, so that pass (a quarter of the cards) reads the side whole.
   */
  async function recognizeSide(ocr: Recognizer, stage: string, image: PreparedImage, params: Record<string, string>, invert: boolean, lane: number): Promise<OcrPage> {
    const read = invert ? negative(image) : image;
    const split = options.splitSides && !params.thresholding_method ? halvesForOcr(read) : undefined;
    if (split === undefined) return recognize(ocr, stage, read, params, lane);
    const [top, bottom] = await timed(profile, `ocr:${stage} as halves`, () => allSettledOrThrow(split.halves.map((half, lane) => ocr.recognize(toPgm(half), { width: half.width, height: half.height - split.padded[lane] }, params, lane))));
    return joinPages(top, bottom, split.cut, image);
  }

  /**
   * The worker for one card's reading: once `signal` is aborted, the next recognition is not
   * started (the one in flight runs to its end: tesseract.js cannot stop a job part way).
   */
  function stoppable(signal: AbortSignal): Recognizer {
    return {
      recognize: (image, size, params, lane) => (signal.aborted ? Promise.reject(new OcrStopped('The OCR of this card was stopped.')) : workers[lane].recognize(image, size, params)),
    };
  }

  /**
   * The stack of lines around a name read as a block. The name is the line under a member
   * caption; failing that, the line sharing a word with the first reading nearest the
   * middle, never one under a dependents caption. `dependent`: the first reading's line is
   * under a dependents caption and no member caption was seen.
   */
  async function nameStack(ocr: Recognizer, image: PreparedImage, box: OcrBox, first: string, lane: number): Promise<{ words: OcrWord[]; captioned: boolean; dependent: boolean }> {
    const region = withoutRules(crop(image, box, 1));
    const lines = (await recognize(ocr, 'reread-name', region, { tessedit_pageseg_mode: '6' }, lane)).lines.sort((a, b) => a.bbox.y0 - b.bbox.y0);
    const captionAt = lines.findIndex((l) => MEMBER_CAPTION.test(l.text.trim()));
    const dependentsAt = lines.findIndex((l) => /pendent|ndents/i.test(l.text));
    const candidates = lines.slice(0, dependentsAt >= 0 ? dependentsAt : lines.length);
    const known = first.toUpperCase().split(' ').filter((w) => w.length >= 3);
    const shares = (l: (typeof lines)[number]) => l.words.some((w) => known.includes(w.text.toUpperCase()));
    const under = captionAt >= 0 && captionAt + 1 < candidates.length ? candidates[captionAt + 1] : undefined;
    if (under) return { words: under.words, captioned: true, dependent: false };
    const middle = region.height / 2;
    const centre = (l: (typeof lines)[number]) => Math.abs((l.bbox.y0 + l.bbox.y1) / 2 - middle);
    const near = candidates.filter(shares).sort((a, b) => centre(a) - centre(b))[0];
    const dependent = !near && captionAt < 0 && dependentsAt >= 0 && lines.slice(dependentsAt + 1).some(shares);
    return { words: near?.words ?? [], captioned: false, dependent };
  }

  /**
   * A second look at an uncertain id or code, alone and enlarged, read as one line: a
   * stray mark or a neighbour's stroke that confused the whole-card reading is gone.
   * The closer reading replaces the first only when the OCR is clearly surer of it; its
   * confidence keeps what the first carried for label and layout.
   */
  async function rereadUnsure(ocr: Recognizer, read: { fields: ExtractedFields; sources: FieldSources }, prepared: PreparedImage[]): Promise<string[]> {
    const unsure = REREAD_FIELDS.filter((field) => {
      const current = read.fields[field];
      const source = read.sources[field];
      if (!current || !source || current.confidence >= REREAD_BELOW) return false;
      // A name read clearly, found without its caption: the closer look only ever changed
      // names the OCR was unsure of (measured), and it cost a recognition per card.
      return !(field === 'member_name' && source.ocr >= NAME_READ_CLEARLY && current.confidence >= UNSURE);
    });
    // Each field is read again on its own (a reading changes its field only): the re-reads
    // share the two workers.
    await allSettledOrThrow(unsure.map((field, i) => rereadOne(ocr, read, prepared, field, i % OCR_WORKERS)));
    return unsure.map((field) => `reread:${field}`);
  }

  async function rereadOne(ocr: Recognizer, read: { fields: ExtractedFields; sources: FieldSources }, prepared: PreparedImage[], field: LabelledField, lane: number): Promise<void> {
    const current = read.fields[field]!;
    const source = read.sources[field]!;
    let words: OcrWord[];
    /** Found under a member caption: as good as labelled, whatever the first reading carried. */
    let captioned = false;
    if (field === 'member_name') {
      // Names sit in a tight stack ("Member:" / the name / "Dependents:" / a dependent),
      // which sparse reading tangles into tall lines and loses the captions: read the
      // stack around the name as a block, at its own size.
      const h = source.box.y1 - source.box.y0;
      // No taller than the first reading: a rule printed above or below breaks block
      // reading (whitened in case one crosses it; measured: taller crops read worse).
      let stack = await nameStack(ocr, prepared[source.page], { ...source.box, x1: source.box.x1 + 0.5 * h }, current.value, lane);
      // The first reading was a dependent (its line is under the dependents caption): the
      // member is printed above, so look one reading's height higher.
      if (stack.dependent) stack = await nameStack(ocr, prepared[source.page], { ...source.box, y0: Math.max(0, source.box.y0 - h), x1: source.box.x1 + 0.5 * h }, current.value, lane);
      words = stack.dependent ? [] : stack.words;
      captioned = stack.captioned;
    } else {
      words = await readAlone(ocr, 'reread', prepared[source.page], source.box, lane);
    }
    const formatted = words.length > 0 ? FIELD_FORMATS[field](words.map((w) => w.text).join(' ')) : null;
    if (!formatted) return;
    const sure = words.reduce((sum, w) => sum + w.confidence, 0) / words.length / 100;
    // Under its caption the line is the name; otherwise the closer reading must be clearly surer.
    if (formatted.value === current.value || sure < source.ocr + (captioned ? 0 : REREAD_MARGIN)) return;
    const again = rereadConfidence({ confidence: current.confidence, source }, { formatted, sure, captioned });
    read.fields[field] = { value: formatted.value, confidence: again.confidence };
    read.sources[field] = { ...source, sureAtMost: again.sureAtMost };
  }

  /** A value alone, enlarged to the text height the model reads best, read as one line. */
  async function readAlone(ocr: Recognizer, stage: string, image: PreparedImage, box: OcrBox, lane = 0): Promise<OcrWord[]> {
    const region = crop(image, box, REREAD_TEXT_HEIGHT);
    return (await timed(profile, `ocr:${stage}`, () => ocr.recognize(toPgm(region), region, { tessedit_pageseg_mode: '7' }, lane))).lines.flatMap((l) => l.words);
  }

  /**
   * A second, independent reading of each code, name and plan read only fairly surely (the band just
   * above "check this"): the value alone, enlarged, as one line. Two readings that disagree
   * mean one of them misread a character ("616279" for "610279", "TERESA MORALES" for
   * "TERESA J MORALES"), so a person checks it.
   * Agreement proves nothing more than the first reading did: the confidence stays.
   */
  async function crossCheck(ocr: Recognizer, read: { fields: ExtractedFields; sources: FieldSources }, prepared: PreparedImage[]): Promise<string[]> {
    const sure = (field: LabelledField) => !!read.fields[field] && !!read.sources[field] && read.fields[field].confidence >= REVIEW_BELOW;
    const checked = CROSS_CHECKED.filter((field) => sure(field) && read.fields[field]!.confidence < CROSS_CHECK_BELOW);
    // Each code is checked on its own: the checks share the two workers.
    await allSettledOrThrow(
      checked.map(async (field, i) => {
        const current = read.fields[field]!;
        const source = read.sources[field]!;
        const words = await readAlone(ocr, 'cross-check', prepared[source.page], source.box, i % OCR_WORKERS);
        const again = words.length > 0 ? FIELD_FORMATS[field](words.map((w) => w.text).join(' ')) : null;
        if (again?.value !== current.value) current.confidence = Math.min(current.confidence, DISAGREED);
      }),
    );
    return checked.map((field) => `check:${field}`);
  }

  async function prepareAll(images: ExtractionImage[], options: PrepareOptions, tag = ''): Promise<PreparedImage[]> {
    const prepared: PreparedImage[] = [];
    const tagged: StageTimer | undefined = profile && ((stage, ms) => profile(tag + stage, ms));
    for (const image of images) prepared.push(...(await prepareCard(image.bytes, { ...options, profile: tagged })));
    return prepared;
  }

  /** The passes over the prepared sides, each only where the fields so far call for it. */
  async function readPasses(ocr: Recognizer, prepared: PreparedImage[], context: ExtractionContext, ran: string[], tag = ''): Promise<{ read: { fields: ExtractedFields; sources: FieldSources }; firstPages: OcrPage[] }> {
    const read = { fields: {} as ExtractedFields, sources: {} as FieldSources };
    let firstPages: OcrPage[] = [];
    for (const pass of PASSES) {
      if (!pass.needed(read.fields, firstPages.map((p) => p.text).join('\n'))) continue;
      // A photo of both sides: each side on its own worker, both at once.
      const pages = await allSettledOrThrow(prepared.map((image, i) => recognizeSide(ocr, tag + pass.name, image, pass.params, !!pass.invert, i % OCR_WORKERS)));
      if (firstPages.length === 0) firstPages = pages;
      const found = timed(profile, 'parse+payer', () => readCardFields(pages, context));
      merge(read, found);
      ran.push(tag + pass.name);
    }
    return { read, firstPages };
  }

  /**
   * Tesseract's layout takes text enclosed by ruled boxes for part of a picture and drops it (a
   * paper form's boxed fields, a boxed Rx block): a card still missing a field after every other
   * reading is read once more with its rules erased, on the sides that have any. Last, so the
   * readings of the whole photo and of its small print come first, and it only fills what is
   * missing: on text the layout did read, a reading of a changed image is no better, only
   * different (tuning seed 303: an MBI read right by the whole photo's reading was lost to a
   * phone number's digits the erased reading filled in first). Not every card: erased on all of
   * them, the rules cost more than they gave (seeds 202 and 303: train 290 → 291, 294 → 292;
   * validation 107 → 103, 107 → 105, payers lost on knockout bands and side panels).
   */
  async function readUnruled(ocr: Recognizer, prepared: PreparedImage[], read: { fields: ExtractedFields; sources: FieldSources }, firstPages: OcrPage[], context: ExtractionContext): Promise<string[]> {
    if (!missing(read.fields, firstPages.map((p) => p.text).join('\n'))) return [];
    const sides = prepared.map((image) => timed(profile, 'prepare:unruled', () => withoutRuledLines(image)));
    if (sides.every((side) => side === undefined)) return [];
    // A side without rules reads as the first pass read it (the same image, the same settings).
    const pages = await allSettledOrThrow(sides.map((side, i) => (side ? recognizeSide(ocr, 'unruled', side, {}, false, i % OCR_WORKERS) : Promise.resolve(firstPages[i]))));
    merge(read, timed(profile, 'parse+payer', () => readCardFields(pages, context)), true);
    return ['unruled'];
  }

  /** The barcodes on the prepared sides, each read by the reader of its kind. */
  async function readBarcodes(prepared: PreparedImage[], images: ExtractionImage[]): Promise<{ readings: BarcodeReading[]; fields: ExtractedFields }> {
    const readings: BarcodeReading[] = [];
    const fields: ExtractedFields = {};
    // The photos as the preparing decoded them, where it did at their full size: zxing decoding
    // a JPEG again was a third of its second look (measured on the bench's 24 cards: 63 ms CPU
    // a card from the file, 42 from the decoded grey). Upright by their EXIF orientation too,
    // which zxing's own decoder ignores.
    const decoded = [...new Set(prepared.map((side) => side.photo))];
    const photos = decoded.every((photo) => photo !== undefined) ? decoded.map((photo) => toPgm(photo)) : images.map((i) => i.bytes);
    for (const code of await decodeBarcodes(prepared, photos)) {
      const reading = await readBarcodePayload({ digitalCard: options.digitalCard }, code.format, code.text);
      readings.push(reading);
      // A digital card not verified still fills its fields (the desk sees where they are from and confirms them); a failed or invalid one fills nothing.
      if (reading.status === 'invalid' || reading.status === 'failed' || reading.status === 'waiting') continue;
      const source = reading.kind === 'digital_card' ? 'digital_card' : 'barcode';
      for (const name of EXTRACTED_FIELDS) {
        const value = reading.fields?.[name];
        if (value && !fields[name]) fields[name] = { value, confidence: 1, source };
      }
    }
    return { readings, fields };
  }

  /**
   * The barcode look and the OCR run side by side: the OCR in its worker thread, the look on
   * this one (measured before: the two looks in turn before the OCR made a card without a
   * barcode read at 0.72 to 0.90 of its speed). A licence found stops the OCR at its next
   * recognition; any other barcode's values win over the OCR's for their fields.
   */
  async function run(images: ExtractionImage[], context: ExtractionContext): Promise<ExtractionResult> {
    if (images.length === 0) throw new ExtractionFailure('no_photos', 'The card has no photos to read.');
    const prepared = await prepareAll(images, {});
    const stop = new AbortController();
    const reading = readByOcr(stoppable(stop.signal), images, context, prepared).then(
      (result) => ({ ok: true as const, result }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    let barcodes: { readings: BarcodeReading[]; fields: ExtractedFields } = { readings: [], fields: {} };
    let decodeMs = 0;
    if (options.barcodes !== false) {
      // The OCR's first recognition is handed to its worker before the decoder holds this thread.
      await new Promise((resolve) => setImmediate(resolve));
      const decodeStarted = Date.now();
      try {
        barcodes = await timed(profile, 'barcodes (beside the OCR)', () => readBarcodes(prepared, images));
      } catch (error) {
        stop.abort();
        await reading;
        throw error;
      }
      decodeMs = Date.now() - decodeStarted;
      // Kinds and states only (a payload is PHI): a card read without its barcode says so in the log.
      log(`extraction: barcodes ${barcodes.readings.map((r) => `${r.kind}/${r.status}`).join(', ') || 'none'}, ${decodeMs} ms`);
    }
    // A licence (or a barcode of no card) and nothing else: the OCR has no card to read.
    if (barcodes.readings.length > 0 && barcodes.readings.every((r) => r.kind === 'licence')) {
      stop.abort();
      // Waited for, so the next card's recognitions do not queue behind this one's.
      await reading;
      log(`extraction: ${images.length} photo(s), licence barcode, ${decodeMs} ms, OCR stopped`);
      return { fields: {}, text: '', quality: prepared.map((p) => p.quality ?? { sharpness: 0, glare: 0, blank: true }), barcodes: barcodes.readings };
    }
    const outcome = await reading;
    let ocr: ExtractionResult;
    if (outcome.ok) ocr = outcome.result;
    else {
      // The barcode carried the card: the OCR's failure (a blurred photo, too little text) does not undo it.
      // Nor does it lose a digital card that waits for the desk to be online (a phone's QR has no printed text).
      if (Object.keys(barcodes.fields).length === 0 && !barcodes.readings.some((r) => r.status === 'waiting')) throw outcome.error;
      ocr = { fields: {}, text: '', quality: prepared.map((p) => p.quality ?? { sharpness: 0, glare: 0, blank: true }), barcodes: [] };
    }
    // A barcode's value is exact: it wins over the OCR for its field.
    const fields: ExtractedFields = { ...ocr.fields, ...barcodes.fields };
    if (!fields.member_id) fields.member_id = { value: '', confidence: 0 };
    // A payload of no known layout is kept with the card's reading, as it was, never guessed at.
    const kept = barcodes.readings.filter((r) => r.kind === 'unknown' && r.raw).map((r) => `[${r.format} barcode] ${r.raw}`);
    return { ...ocr, fields, text: [ocr.text, ...kept].filter(Boolean).join('\n\n'), barcodes: barcodes.readings };
  }

  async function readByOcr(ocr: Recognizer, images: ExtractionImage[], context: ExtractionContext, preparedFirst: PreparedImage[]): Promise<ExtractionResult> {
    const started = Date.now();
    const ran: string[] = [];
    let prepared = preparedFirst;
    // Too blurred to read anything reliably: say so before spending the OCR on it.
    const photo = prepared[0].quality;
    if (photo && !photo.blank && photo.sharpness < BLUR_REFUSE) throw retake('retake_blurry');
    let { read, firstPages } = await readPasses(ocr, prepared, context, ran);
    // What the card finder cut out may not be the card (a box printed on it, a region between
    // a scanner's streaks), and a large photo scaled down to be read may hold the card too
    // small to read (a card in a screenshot of a document): when the first reading found
    // little, the whole photo is read again, at its own resolution where it was scaled down.
    // So may a region whose border runs through printed words: a box on the card, or the
    // card cut by a scanner's streak ("Open Access Plu" at the region's edge).
    const cutThrough = prepared.some((p, i) => p.cutOut && firstPages[i] && cutThroughPrint(firstPages[i]));
    if (evidenceOf(read.fields) < ENOUGH_EVIDENCE || cutThrough) {
      const cut = prepared.some((p) => p.cutOut);
      const reduced = prepared.some((p) => (p.enlarged ?? 1) < 0.95);
      if (cut || reduced) {
        const again = await prepareAll(images, { findCard: false, longSide: reduced && !cut ? WHOLE_PHOTO_SIDE : undefined }, 'whole:');
        const second = await readPasses(ocr, again, context, ran, 'whole:');
        if (evidenceOf(second.read.fields) > evidenceOf(read.fields)) ({ read, firstPages, prepared } = { ...second, prepared: again });
      }
    }
    const small = prepared.map((image, page) =>
      smallPrintRegion(
        image,
        Object.values(read.sources).flatMap((source) => (source && source.page === page ? [source.box] : [])),
      ),
    );
    if (small.some(Boolean)) {
      const again = await timed(profile, 'prepare:enlarge-small-print', () => Promise.all(prepared.map((image, page) => (small[page] ? enlargeRegion(image, small[page].box, small[page].scale) : image))));
      const larger = await readPasses(ocr, again, context, ran, 'enlarged:');
      if (evidenceOf(larger.read.fields) >= evidenceOf(read.fields) && sureness(larger.read.fields) > sureness(read.fields)) {
        // The payer is matched on the whole reading (a logo above the region, a web address
        // below it): the surer match of the two stands.
        const payer = read.fields.payer_name;
        ({ read, firstPages, prepared } = { ...larger, prepared: again });
        if (payer && payer.confidence > (read.fields.payer_name?.confidence ?? 0)) read.fields.payer_name = payer;
      }
    }
    ran.push(...(await readUnruled(ocr, prepared, read, firstPages, context)));
    // A pharmacy block shown by its captions with a field of it missing or merged: read the block alone.
    ran.push(...(await lookAtRxBlock({ recognize: (image, params) => recognize(ocr, 'rx-block', image, params), enlarge: (image, box, scale) => timed(profile, 'prepare:rx-block', () => enlargeRegion(image, box, scale)) }, { read, pages: firstPages, prepared, surerBy: REREAD_MARGIN })));
    const { fields } = read;
    const front = prepared[0].quality;
    ran.push(...(await rereadUnsure(ocr, read, prepared)));
    const text = timed(profile, 'text', () => firstPages.map((page, i) => pageText(segmentPage(page, i))).join('\n\n'));
    const blurred = !!front && !front.blank && front.sharpness < BLUR_RETAKE;
    // Only a name- or plan-like line (or nothing) and no label, id, Rx code or payer.
    if (!CARD_EVIDENCE.some((f) => fields[f])) {
      if (blurred) throw retake('retake_blurry');
      // Nothing read and a reflection over the card: the glare is why.
      if (front && front.glare >= GLARE_RETAKE) throw retake('retake_glare');
      // Plenty of words and none of a card's (a card's back speaks of members, claims and
      // providers): a letter, a form, a screen, not a card.
      const words = firstPages.flatMap((page) => page.lines.flatMap((line) => line.words.filter((w) => /\p{L}{3}/u.test(w.text) && w.confidence > 60)));
      if (words.length >= 12 && !words.some((w) => CARD_WORDS.test(w.text))) throw notACard();
      throw new ExtractionFailure('no_fields_found', 'No card fields could be read from the photos: photograph the front of the card in good light, flat and filling the frame.');
    }
    const id = fields.member_id;
    if (!id) {
      // The id is what the card is for: when the photo is why it could not be read, ask
      // for a better photo rather than hand over a card without it. An id read unsurely is
      // handed over marked "check this": a white card face measures as glare too, and a
      // retake would throw away every field that was read.
      if (front && front.glare >= GLARE_RETAKE) throw retake('retake_glare');
      if (blurred) throw retake('retake_blurry');
    }
    // A soft photo, or a card the photo held at few pixels (enlarged to be read), reads
    // letters less surely than the OCR's own confidence says: "Thompson" read "Thempson"
    // at 85 on a card 600 pixels across. The payer is matched against the directory.
    const lessSure = (factor: number) => {
      for (const f of EXTRACTED_FIELDS) if (fields[f] && f !== 'payer_name') fields[f].confidence = Math.round(fields[f].confidence * factor * 100) / 100;
    };
    if (front && front.sharpness < SOFT) lessSure(0.9);
    if ((prepared[0].enlarged ?? 1) >= FEW_PIXELS) lessSure(0.9);
    // On the confidence the desk will see, after the photo's own discounts.
    ran.push(...(await crossCheck(ocr, read, prepared)));
    holdToEvidence(read);
    log(`extraction: ${images.length} photo(s), ${Object.keys(fields).length} field(s), passes ${ran.join('+')}, ${Date.now() - started} ms`);
    // A missing member id is said, not left out: blank, with no confidence, to be typed.
    if (!id) fields.member_id = { value: '', confidence: 0 };
    return { fields, text, quality: prepared.map((p) => p.quality ?? { sharpness: 0, glare: 0, blank: true }), barcodes: [] };
  }

  /**
   * The readings in flight: closing waits for them. A host closed while a card was being
   * read (a preview from the desk, the app quitting under load, when a card takes tens of
   * seconds) otherwise closed the workers under it, and its next recognition failed the
   * card as `engine_failed`: a card the desk had photographed, lost for no fault of the reader.
   */
  const inFlight = new Set<Promise<unknown>>();
  let closing = false;

  return {
    async extract(images, context) {
      if (closing) throw new ExtractionFailure('engine_failed', 'The on-device reader is closed: the app is shutting down.');
      const reading = timed(profile, 'total', () => run(images, context));
      inFlight.add(reading);
      try {
        return await reading;
      } catch (error) {
        const failure = asExtractionFailure(error);
        // The cause's class, never its message (it may quote the card): a timeout told from a crash.
        const cause = error instanceof Error && !(error instanceof ExtractionFailure) ? ` (${error.constructor.name})` : '';
        log(`extraction failed: ${failure.reason}${cause}`);
        throw failure;
      } finally {
        inFlight.delete(reading);
      }
    },
    async warmUp() {
      const started = Date.now();
      try {
        await Promise.all(workers.map((w) => w.start()));
        return Date.now() - started;
      } catch (error) {
        throw asExtractionFailure(error);
      }
    },
    async close() {
      closing = true;
      await Promise.allSettled([...inFlight]);
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}
