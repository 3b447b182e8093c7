import { EXTRACTED_FIELDS, type ClearinghouseEntity, type ExtractedFieldName, type ExtractedFields } from '../../shared/contract';
import { pageText, segmentPage } from './card-layout';
import { asExtractionFailure, ExtractionFailure } from './extraction-failure';
import { FIELD_FORMATS } from './field-formats';
import type { LabelledField } from './field-labels';
import { readCardFields, type FieldSources } from './field-parser';
import { createOcrWorker, type OcrPage, type OcrWorker } from './ocr-worker';
import { crop, negative, prepareImage, toPgm, type PreparedImage } from './prepare-image';

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
}

export interface ExtractionEngineOptions {
  /** The folder holding `eng.traineddata.gz`; defaults to the bundled `@tesseract.js-data/eng`. */
  langPath?: string;
  /** A single recognition that takes longer fails the card and restarts the worker. */
  timeoutMs?: number;
  /** Ids and timings only: card text is PHI. */
  log?: (message: string) => void;
}

/**
 * On-device card extraction. Satisfies the hot folder's `HotFolderExtractor`. Failures
 * reject with an `ExtractionFailure` whose `reason` is the code to record.
 */
export interface ExtractionEngine {
  extract(images: ExtractionImage[], context: ExtractionContext): Promise<ExtractionResult>;
  /** Starts the OCR worker now instead of on the first card; resolves with the ms it took. */
  warmUp(): Promise<number>;
  close(): Promise<void>;
}

/** Fields worth a second look when the first pass misses them or is unsure. */
const KEY_FIELDS: ExtractedFieldName[] = ['member_name', 'member_id', 'group_number', 'rx_bin', 'rx_pcn', 'rx_group', 'payer_name'];
const UNSURE = 0.6;

interface Pass {
  name: string;
  /** Tesseract variables for this pass only. */
  params: Record<string, string>;
  invert?: boolean;
  /** Whether the fields so far call for this pass. */
  needed(fields: ExtractedFields): boolean;
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
    needed: (fields) => KEY_FIELDS.some((f) => !fields[f] || fields[f].confidence < UNSURE),
  },
  { name: 'negative', params: {}, invert: true, needed: (fields) => !fields.payer_name },
];

/** The more confident reading of each field, and where it was read. */
function merge(into: { fields: ExtractedFields; sources: FieldSources }, from: { fields: ExtractedFields; sources: FieldSources }): void {
  for (const name of EXTRACTED_FIELDS) {
    const candidate = from.fields[name];
    if (candidate && (!into.fields[name] || candidate.confidence > into.fields[name].confidence)) {
      into.fields[name] = candidate;
      into.sources[name] = from.sources[name];
    }
  }
}

/** Values read less surely than this get a second, closer look on their own. */
const REREAD_BELOW = 0.75;
/** The text height a value is scaled to for that look: where the model reads best. */
const REREAD_TEXT_HEIGHT = 36;
const REREAD_FIELDS: LabelledField[] = ['member_id', 'group_number', 'rx_bin', 'rx_pcn', 'rx_group'];
/** How much surer the OCR must be of the closer reading to take it. */
const REREAD_MARGIN = 0.2;

/**
 * One warm tesseract.js worker (started on the first card, or by `warmUp`), reused for
 * every card and every photo; recognition runs in a worker thread, so the main process
 * stays responsive. Nothing is fetched: the language data is read from node_modules.
 */
export function createExtractionEngine(options: ExtractionEngineOptions = {}): ExtractionEngine {
  const worker: OcrWorker = createOcrWorker({ langPath: options.langPath, timeoutMs: options.timeoutMs });
  const log = options.log ?? (() => {});

  /**
   * A second look at an uncertain id or code, alone and enlarged, read as one line: a
   * stray mark or a neighbour's stroke that confused the whole-card reading is gone.
   * The closer reading replaces the first only when the OCR is clearly surer of it; its
   * confidence keeps what the first carried for label and layout.
   */
  async function rereadUnsure(read: { fields: ExtractedFields; sources: FieldSources }, prepared: PreparedImage[]): Promise<string[]> {
    const done: string[] = [];
    for (const field of REREAD_FIELDS) {
      const current = read.fields[field];
      const source = read.sources[field];
      if (!current || !source || current.confidence >= REREAD_BELOW) continue;
      done.push(`reread:${field}`);
      const region = crop(prepared[source.page], source.box, REREAD_TEXT_HEIGHT);
      const words = (await worker.recognize(toPgm(region), region, { tessedit_pageseg_mode: '7' })).lines.flatMap((l) => l.words);
      const formatted = words.length > 0 ? FIELD_FORMATS[field](words.map((w) => w.text).join(' ')) : null;
      if (!formatted) continue;
      const ocr = words.reduce((sum, w) => sum + w.confidence, 0) / words.length / 100;
      if (formatted.value === current.value || ocr < source.ocr + REREAD_MARGIN) continue;
      const carried = current.confidence / Math.max(0.01, source.ocr);
      const confidence = Math.min(1, ocr * formatted.fit * 0.97 ** formatted.repairs * carried);
      read.fields[field] = { value: formatted.value, confidence: Math.round(confidence * 100) / 100 };
    }
    return done;
  }

  async function run(images: ExtractionImage[], context: ExtractionContext): Promise<ExtractionResult> {
    if (images.length === 0) throw new ExtractionFailure('no_photos', 'The card has no photos to read.');
    const started = Date.now();
    const prepared: PreparedImage[] = [];
    for (const image of images) prepared.push(await prepareImage(image.bytes));

    const read = { fields: {} as ExtractedFields, sources: {} as FieldSources };
    const { fields } = read;
    let firstPages: OcrPage[] = [];
    const ran: string[] = [];
    for (const pass of PASSES) {
      if (!pass.needed(fields)) continue;
      const pages: OcrPage[] = [];
      for (const image of prepared) {
        const input = pass.invert ? negative(image) : image;
        pages.push(await worker.recognize(toPgm(input), input, pass.params));
      }
      if (firstPages.length === 0) firstPages = pages;
      merge(read, readCardFields(pages, context));
      ran.push(pass.name);
    }
    ran.push(...(await rereadUnsure(read, prepared)));
    const text = firstPages.map((page, i) => pageText(segmentPage(page, i))).join('\n\n');
    log(`extraction: ${images.length} photo(s), ${Object.keys(fields).length} field(s), passes ${ran.join('+')}, ${Date.now() - started} ms`);
    if (Object.keys(fields).length === 0) {
      throw new ExtractionFailure('no_fields_found', 'No card fields could be read from the photos: retake them in good light, flat and filling the frame.');
    }
    return { fields, text };
  }

  return {
    async extract(images, context) {
      try {
        return await run(images, context);
      } catch (error) {
        const failure = asExtractionFailure(error);
        log(`extraction failed: ${failure.reason}`);
        throw failure;
      }
    },
    async warmUp() {
      try {
        return await worker.start();
      } catch (error) {
        throw asExtractionFailure(error);
      }
    },
    close: () => worker.close(),
  };
}
