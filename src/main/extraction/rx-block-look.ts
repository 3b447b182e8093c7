import type { ExtractedFields } from '../../shared/contract';
import { readCardFields, rxCaptionBoxes, type FieldSources } from './field-parser';
import type { OcrBox, OcrPage } from './ocr-worker';
import type { PreparedImage } from './prepare-image';

/** NCPDP's pharmacy block, in the order its card guide prints it. */
const RX_FIELDS = ['rx_bin', 'rx_pcn', 'rx_group'] as const;

/**
 * How far around the captions and values read the block may go, in caption heights: NCPDP
 * prints BIN, PCN and GRP one under the other (a line missed below the last one read) or
 * side by side (a caption missed to the right of the last one), each value beside or under
 * its caption.
 */
const AROUND = { left: 3, right: 20, up: 2, down: 9 };
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
 * The region of the pharmacy block on the photo whose Rx captions were read, when the card
 * shows it prints one (a caption of NCPDP's read) and a field of it is still missing: only
 * those cards pay for the look. Undefined otherwise.
 */
export function rxBlockRegion(sizes: readonly { width: number; height: number }[], fields: ExtractedFields, sources: FieldSources, captions: readonly { page: number; box: OcrBox }[]): RxBlockRegion | undefined {
  if (captions.length === 0 || RX_FIELDS.every((f) => fields[f] && fields[f].value !== '')) return undefined;
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
}

/**
 * A second look at the pharmacy block where the card shows one and a field of it is missing:
 * the block cut out around its captions and values read, enlarged, and read as one block of
 * text (no sparse layout analysis to lose a line of it). A value is taken only for a field
 * still missing, only where its own caption was read beside or above it (never one placed by
 * its line's position), in the field's NCPDP shape, with the confidence the parser gives it:
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
    if (read.fields[field]?.value || !found?.value || !source?.captioned) continue;
    read.fields[field] = found;
    read.sources[field] = source;
  }
  return ['rx-block'];
}
