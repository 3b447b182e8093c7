import { EXTRACTED_FIELDS, type ClearinghouseEntity, type ExtractedFieldName, type ExtractedFields } from '../../shared/contract';
import { pageText, segmentPage } from './card-layout';
import { asExtractionFailure, ExtractionFailure } from './extraction-failure';
import { parseCardFields } from './field-parser';
import { createOcrWorker, type OcrPage, type OcrWorker } from './ocr-worker';
import { prepareImage, type PreparedImage } from './prepare-image';

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

function negative(image: PreparedImage): PreparedImage {
  const data = Buffer.from(image.image);
  // The PGM header is three lines; only the pixels after it are inverted.
  let offset = 0;
  for (let lines = 0; lines < 3; offset++) if (data[offset] === 0x0a) lines++;
  for (let i = offset; i < data.length; i++) data[i] = 255 - data[i];
  return { ...image, image: data };
}

/** The more confident reading of each field. */
function merge(into: ExtractedFields, from: ExtractedFields): void {
  for (const name of EXTRACTED_FIELDS) {
    const candidate = from[name];
    if (candidate && (!into[name] || candidate.confidence > into[name].confidence)) into[name] = candidate;
  }
}

/**
 * One warm tesseract.js worker (started on the first card, or by `warmUp`), reused for
 * every card and every photo; recognition runs in a worker thread, so the main process
 * stays responsive. Nothing is fetched: the language data is read from node_modules.
 */
export function createExtractionEngine(options: ExtractionEngineOptions = {}): ExtractionEngine {
  const worker: OcrWorker = createOcrWorker({ langPath: options.langPath, timeoutMs: options.timeoutMs });
  const log = options.log ?? (() => {});

  async function run(images: ExtractionImage[], context: ExtractionContext): Promise<ExtractionResult> {
    if (images.length === 0) throw new ExtractionFailure('no_photos', 'The card has no photos to read.');
    const started = Date.now();
    const prepared: PreparedImage[] = [];
    for (const image of images) prepared.push(await prepareImage(image.bytes));

    const fields: ExtractedFields = {};
    let firstPages: OcrPage[] = [];
    const ran: string[] = [];
    for (const pass of PASSES) {
      if (!pass.needed(fields)) continue;
      const pages: OcrPage[] = [];
      for (const image of prepared) {
        const input = pass.invert ? negative(image) : image;
        pages.push(await worker.recognize(input.image, { width: input.width, height: input.height }, pass.params));
      }
      if (firstPages.length === 0) firstPages = pages;
      merge(fields, parseCardFields(pages, context));
      ran.push(pass.name);
    }
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
