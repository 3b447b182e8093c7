import sharp, { type Metadata } from 'sharp';
import { ExtractionFailure } from './extraction-failure';
import { findCards, type CardQuad, type GrayImage } from './find-card';
import { imageQuality, type ImageQuality } from './image-quality';
import { warpQuad, type Point } from './perspective';

export interface PreparedImage {
  /** Grey levels, row by row. */
  gray: Uint8Array;
  width: number;
  height: number;
  /** The skew corrected, in degrees (clockwise on the photo). */
  skew: number;
  /** Blur and glare, measured on the card before its light was evened out. */
  quality?: ImageQuality;
  /** How much the card was enlarged to be read (1 when it was not): what the photo held of it. */
  enlarged?: number;
  /** Cut out of the photo where the card finder found it (not the whole photo). */
  cutOut?: boolean;
  /**
   * The photo this side is from, as decoded (upright, grey), when it was decoded at its full
   * size: the barcode look's second try reads it instead of decoding the file once more.
   */
  photo?: GrayImage;
}

/** The image as a binary PGM: Leptonica reads it without a decode step. */
export function toPgm(image: Pick<PreparedImage, 'gray' | 'width' | 'height'>): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'ascii'), image.gray]);
}

/** The photographic negative: white text on a dark band becomes dark text on light. */
export function negative(image: PreparedImage): PreparedImage {
  const gray = new Uint8Array(image.gray.length);
  for (let i = 0; i < gray.length; i++) gray[i] = 255 - image.gray[i];
  return { ...image, gray };
}

/**
 * A region of the image, padded with white and scaled so its text is `textHeight` pixels
 * tall: what a second look at one uncertain value is read from.
 */
export function crop(image: PreparedImage, box: { x0: number; y0: number; x1: number; y1: number }, textHeight: number): PreparedImage {
  const h = Math.max(1, box.y1 - box.y0);
  const pad = Math.round(h * 0.35);
  const x0 = Math.max(0, box.x0 - pad);
  const y0 = Math.max(0, box.y0 - pad);
  const x1 = Math.min(image.width, box.x1 + pad);
  const y1 = Math.min(image.height, box.y1 + pad);
  const scale = Math.min(3, Math.max(1, textHeight / h));
  const width = Math.max(1, Math.round((x1 - x0) * scale));
  const height = Math.max(1, Math.round((y1 - y0) * scale));
  const margin = Math.round(textHeight / 2);
  const gray = new Uint8Array((width + 2 * margin) * (height + 2 * margin)).fill(255);
  const stride = width + 2 * margin;
  // Bilinear enough for text: nearest source pixel of each scaled pixel's centre.
  for (let y = 0; y < height; y++) {
    const sy = Math.min(image.height - 1, y0 + Math.floor((y + 0.5) / scale));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(image.width - 1, x0 + Math.floor((x + 0.5) / scale));
      gray[(y + margin) * stride + x + margin] = image.gray[sy * image.width + sx];
    }
  }
  return { gray, width: stride, height: height + 2 * margin, skew: image.skew };
}

/**
 * A region of a prepared side enlarged smoothly (Lanczos): print held at a few pixels by the
 * photo (a card in a screenshot of a document) reads better at the model's text height, and
 * the nearest-pixel enlarging of `crop` leaves steps in letters that size.
 */
export async function enlargeRegion(image: PreparedImage, box: { x0: number; y0: number; x1: number; y1: number }, scale: number): Promise<PreparedImage> {
  const left = Math.max(0, Math.floor(box.x0));
  const top = Math.max(0, Math.floor(box.y0));
  const width = Math.max(1, Math.min(image.width, Math.ceil(box.x1)) - left);
  const height = Math.max(1, Math.min(image.height, Math.ceil(box.y1)) - top);
  const { data, info } = await sharp(Buffer.from(image.gray.buffer, image.gray.byteOffset, image.gray.length), { raw: { width: image.width, height: image.height, channels: 1 } })
    .extract({ left, top, width, height })
    .resize(Math.round(width * scale), Math.round(height * scale), { kernel: 'lanczos3' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { gray: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, skew: image.skew, quality: image.quality, enlarged: (image.enlarged ?? 1) * scale, cutOut: true };
}

/**
 * The image with printed rules (rows dark across most of its width) whitened: block
 * reading takes a long line for a row of text and garbles the lines beside it.
 */
export function withoutRules(image: PreparedImage): PreparedImage {
  const gray = Uint8Array.from(image.gray);
  for (let y = 0; y < image.height; y++) {
    let dark = 0;
    for (let x = 0; x < image.width; x++) if (gray[y * image.width + x] < 128) dark++;
    if (dark > image.width * 0.6) gray.fill(255, y * image.width, (y + 1) * image.width);
  }
  return { ...image, gray };
}

/** Grey under this is ink (the light is evened and the contrast stretched before). */
const INK = 128;
/** A row with no more ink than this share of its width (specks, a dust mark) is blank. */
const BLANK_ROW_INK = 0.002;
/** The gap between two text lines a card may be cut at: this many blank rows at least. */
const MIN_GAP_ROWS = 6;
/** A column dark in this share of its rows is a band or the photo's edge, not print. */
const BAND_ROWS = 0.9;
/** Where the cut may fall (share of the height): near enough the middle that both halves cost alike. */
const CUT_WITHIN = [0.3, 0.7] as const;

/**
 * Where to cut a side so two OCR workers can read its halves at once: the run of blank rows
 * (no ink across the width) nearest the side's middle, `y0` its first row and `y1` the one
 * after its last. The upper half ends at `y1` and the lower starts at `y0`, so each keeps the
 * whole gap as its margin (text at a half's very edge reads worse) and no printed line is
 * cut. None when there is no such gap near the middle (a screenshot's side panel, a logo band
 * across the middle): the side is read whole.
 */
export function splitRow(image: Pick<PreparedImage, 'gray' | 'width' | 'height'>): { y0: number; y1: number } | undefined {
  const { gray, width, height } = image;
  // Columns dark nearly top to bottom (the photo's edge beside the card, a coloured side
  // panel) are not ink of a text line; a light pixel in them is (white text on the panel).
  const darkRows = new Uint32Array(width);
  for (let y = 0; y < height; y++) for (let x = 0, row = y * width; x < width; x++) if (gray[row + x] < INK) darkRows[x]++;
  const band = darkRows.map((n) => (n >= height * BAND_ROWS ? 1 : 0));
  const allowed = Math.max(0, Math.floor(width * BLANK_ROW_INK));
  const from = Math.floor(height * CUT_WITHIN[0]);
  const to = Math.ceil(height * CUT_WITHIN[1]);
  let best: { y0: number; y1: number } | undefined;
  let runStart = -1;
  const off = (gap: { y0: number; y1: number }) => Math.abs((gap.y0 + gap.y1) / 2 - height / 2);
  const consider = (y0: number, y1: number) => {
    if (y1 - y0 < MIN_GAP_ROWS) return;
    const middle = (y0 + y1) / 2;
    if (middle < from || middle > to) return;
    if (best === undefined || off({ y0, y1 }) < off(best)) best = { y0, y1 };
  };
  for (let y = 0; y <= height; y++) {
    let blank = false;
    if (y < height) {
      let ink = 0;
      const row = y * width;
      for (let x = 0; x < width && ink <= allowed; x++) if (gray[row + x] < INK !== (band[x] === 1)) ink++;
      blank = ink <= allowed;
    }
    if (blank && runStart < 0) runStart = y;
    else if (!blank && runStart >= 0) {
      consider(runStart, y);
      runStart = -1;
    }
  }
  return best;
}

/** Rows `y0` (included) to `y1` (excluded) of a side, as an image of their own. */
export function rowsOf(image: PreparedImage, y0: number, y1: number): PreparedImage {
  return { ...image, gray: image.gray.subarray(y0 * image.width, y1 * image.width), height: y1 - y0 };
}

/** The 256 grey levels counted over an image. */
export function greyHistogram(gray: Uint8Array): Uint32Array {
  const histogram = new Uint32Array(256);
  for (let i = 0; i < gray.length; i++) histogram[gray[i]]++;
  return histogram;
}

/**
 * Which grey levels tesseract's global binarisation (its first pass) takes for ink, given an
 * image's histogram: 1 for ink. Tesseract's own rule (OtsuStats, OtsuThreshold and
 * ThresholdRectToPix in its sources), reproduced exactly because the split must be judged by
 * what tesseract will do with each half: the Otsu cut `t`; the ink is the minority side of
 * it (at or under `t` when fewer than half the pixels are, over it otherwise); an image of
 * one grey level has none.
 */
export function tesseractInk(histogram: ArrayLike<number>): Uint8Array {
  let total = 0;
  let sumAll = 0;
  for (let i = 0; i < 256; i++) {
    total += histogram[i];
    sumAll += i * histogram[i];
  }
  let bestT = -1;
  let bestOmega0 = 0;
  let bestSigma = 0;
  let omega0 = 0;
  let sum0 = 0;
  for (let t = 0; t < 255; t++) {
    omega0 += histogram[t];
    sum0 += t * histogram[t];
    if (omega0 === 0) continue;
    const omega1 = total - omega0;
    if (omega1 === 0) break;
    const spread = (sumAll - sum0) / omega1 - sum0 / omega0;
    const sigma = spread * spread * omega0 * omega1;
    if (bestT < 0 || sigma > bestSigma) [bestT, bestOmega0, bestSigma] = [t, omega0, sigma];
  }
  const ink = new Uint8Array(256);
  if (bestOmega0 === 0 || bestOmega0 === total) return ink;
  const darkIsInk = bestOmega0 < total * 0.5;
  for (let v = 0; v < 256; v++) ink[v] = (v <= bestT) === darkIsInk ? 1 : 0;
  return ink;
}

/**
 * A half with the grey levels of the rest of its side appended below it, lightest first
 * (paper next to the half's own last rows, a solid dark bar at the far end): its histogram
 * is then the whole side's, so tesseract's global (Otsu) cut and its choice of ink are the
 * whole side's, and its own pixels are not changed. What the recogniser finds in the
 * padding is not on the side and is dropped (`joinPages`).
 */
function paddedHalf(half: PreparedImage, rest: Uint8Array): PreparedImage & { padded: number } {
  const histogram = greyHistogram(rest);
  const gray = new Uint8Array(half.gray.length + rest.length);
  gray.set(half.gray);
  let at = half.gray.length;
  for (let v = 255; v >= 0; v--) {
    gray.fill(v, at, at + histogram[v]);
    at += histogram[v];
  }
  const padded = rest.length / half.width;
  return { ...half, gray, height: half.height + padded, padded };
}

/**
 * A side as two halves for two OCR workers, each binarised by tesseract as the whole side
 * would be. Tesseract computes its global (Otsu) threshold on the image it is given, and a
 * half's histogram is not the side's (the top half holds the logo's colours): read as is, the
 * same letters were binarised differently and single characters read differently (measured:
 * docs/decisions.md, "Both cores at once"). A half whose own histogram puts every grey level
 * it holds on the whole side's side of the cut is read as it is; any other is padded with the
 * grey of the rest of the side (`paddedHalf`), so its histogram is the side's. The grey of the
 * half is never changed: pulling the levels apart at the cut lost a name's first letter at
 * 0.81 on a real card (the recogniser reads the grey, not the binarised image). `padded`:
 * the rows added below each half. None when the side has no blank gap near its middle.
 */
export function halvesForOcr(image: PreparedImage): { cut: number; halves: [PreparedImage, PreparedImage]; padded: [number, number] } | undefined {
  const gap = splitRow(image);
  if (gap === undefined) return undefined;
  const whole = tesseractInk(greyHistogram(image.gray));
  if (whole.every((v) => v === whole[0])) return undefined;
  const parts = [
    { half: rowsOf(image, 0, gap.y1), rest: image.gray.subarray(gap.y1 * image.width) },
    { half: rowsOf(image, gap.y0, image.height), rest: image.gray.subarray(0, gap.y0 * image.width) },
  ];
  const read = parts.map(({ half, rest }) => {
    const histogram = greyHistogram(half.gray);
    const ink = tesseractInk(histogram);
    for (let v = 0; v < 256; v++) if (histogram[v] > 0 && ink[v] !== whole[v]) return paddedHalf(half, rest);
    return { ...half, padded: 0 };
  });
  const halves = read.map(({ padded: _padded, ...half }) => half) as [PreparedImage, PreparedImage];
  return { cut: gap.y0, halves, padded: [read[0].padded, read[1].padded] };
}

export interface PrepareOptions {
  /** The longest side after scaling. */
  longSide?: number;
  /** Skip the deskew step (for measuring what it brings). */
  deskew?: boolean;
  /** Skip evening out the light (for measuring what it brings). */
  flatten?: boolean;
  /** Read the whole photo instead of looking for the card in it (for measuring what it brings). */
  findCard?: boolean;
  /** Per-step timings (the bench's and the card measure's `--profile`); ids and ms only. */
  profile?: StageTimer;
}

/** Receives how long one named step of reading a card took. */
export type StageTimer = (stage: string, ms: number) => void;

/** `step()`, timed under `stage` when a timer is given. */
export function timed<T>(profile: StageTimer | undefined, stage: string, step: () => T): T {
  if (!profile) return step();
  const started = performance.now();
  const result = step();
  if (result instanceof Promise) return result.finally(() => profile(stage, performance.now() - started)) as T;
  profile(stage, performance.now() - started);
  return result;
}

/** Photos larger than this many pixels are refused before decoding (a decompression bomb). */
export const MAX_INPUT_PIXELS = 40_000_000;
/** The largest side a photo is decoded at: a card filling a quarter of it still has its full detail. */
const DECODE_SIDE = 4096;
/** A card narrower than this (long side) is enlarged to `ENLARGE_TO`: small text reads better larger. */
const ENLARGE_BELOW = 1000;
const ENLARGE_TO = 1100;
const ID1_ASPECT = 85.6 / 53.98;
/** The skew search: phone photos of cards on a desk are rarely tilted more than this. */
const MAX_SKEW = 12;
/** Below this the rotation costs more than it brings. */
const MIN_SKEW = 0.4;

function unreadable(): ExtractionFailure {
  return new ExtractionFailure('unreadable_image', 'A photo could not be read: it is damaged, incomplete or not a JPEG or PNG image.');
}

/** Formats a card photo can come in (sharp decodes them all without a plug-in). */
const PHOTO_FORMATS = new Set(['jpeg', 'png', 'webp', 'tiff', 'gif', 'heif']);

/**
 * Refuses, before decoding, what cannot be a card photo, with the reason a person can act
 * on: an empty file, a PDF or another document, something that is not an image, a photo
 * too large to decode safely.
 */
export async function checkPhoto(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  if (bytes.length === 0) throw new ExtractionFailure('empty_file', 'A photo of the card is an empty file (0 bytes): take or scan it again.');
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (head.startsWith('%PDF')) {
    throw new ExtractionFailure('unsupported_format', 'A photo of the card is a PDF document: scan or photograph the card as a JPEG or PNG image.');
  }
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw unreadable();
  }
  if (!meta.format || !PHOTO_FORMATS.has(meta.format)) {
    throw new ExtractionFailure('unsupported_format', `A photo of the card is not a photo (${meta.format ?? 'unknown'} file): use a JPEG or PNG image.`);
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width * height > MAX_INPUT_PIXELS) {
    const mp = Math.round((width * height) / 1e6);
    throw new ExtractionFailure('image_too_large', `A photo of the card is ${mp} megapixels; photos up to ${MAX_INPUT_PIXELS / 1e6} megapixels are read: retake it at a lower resolution.`);
  }
  if (width < 16 || height < 16) throw unreadable();
  return { width, height };
}

/** One decode: upright, transparent areas white, at most `DECODE_SIDE`, grey. */
async function decodeGray(bytes: Uint8Array): Promise<GrayImage> {
  try {
    const decoded = await sharp(bytes, { failOn: 'truncated', limitInputPixels: MAX_INPUT_PIXELS })
      .autoOrient()
      // Transparent PNG areas would otherwise turn black, hiding dark text.
      .flatten({ background: '#ffffff' })
      .resize({ width: DECODE_SIDE, height: DECODE_SIDE, fit: 'inside', withoutEnlargement: true })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (decoded.info.channels !== 1) throw new Error(`expected one channel, got ${decoded.info.channels}`);
    return { gray: new Uint8Array(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength), width: decoded.info.width, height: decoded.info.height };
  } catch {
    throw unreadable();
  }
}

async function resizeGray(image: GrayImage, width: number, height: number): Promise<GrayImage> {
  const out = await sharp(image.gray, { raw: { width: image.width, height: image.height, channels: 1 } })
    .resize({ width, height, fit: 'fill', kernel: width > image.width ? 'lanczos3' : 'lanczos2' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { gray: new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength), width: out.info.width, height: out.info.height };
}

/** The size a card is read at: its own, no larger than `longSide`, small ones enlarged. */
function readingSize(width: number, height: number, longSide: number): { width: number; height: number } {
  const long = Math.max(width, height);
  const scale = long > longSide ? longSide / long : long < ENLARGE_BELOW ? ENLARGE_TO / long : 1;
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/**
 * One card side cut out of the photo along its corners and straightened, at no more than
 * its own resolution (enlarging is left to sharp's better kernel), and its reading size.
 */
function cutOut(image: GrayImage, { corners, outline }: CardQuad, longSide: number): { side: GrayImage; size: { width: number; height: number } } {
  let w = Math.max(dist(corners[0], corners[1]), dist(corners[3], corners[2]));
  let h = Math.max(dist(corners[1], corners[2]), dist(corners[0], corners[3]));
  // Insurance cards are ID-1 (85.6 x 54 mm): a card seen at an angle looks squatter or
  // longer than it is, so a card-like outline is given the card's own proportions back.
  if (outline && w / h > 1.3 && w / h < 1.9) {
    w = Math.max(w, h * ID1_ASPECT);
    h = w / ID1_ASPECT;
  }
  const size = readingSize(w, h, longSide);
  const warpW = Math.min(size.width, Math.round(w));
  const warpH = Math.min(size.height, Math.round(h));
  return { side: { gray: warpQuad({ data: image.gray, width: image.width, height: image.height, channels: 1 }, corners, warpW, warpH), width: warpW, height: warpH }, size };
}

/**
 * Turns a card photo into what tesseract reads best (each step measured, see
 * docs/decisions.md): upright by its EXIF orientation (phones store portrait shots
 * sideways); the card found in the photo (on a desk, in a video frame) and cut out along
 * its corners, which undoes perspective, or two cards when the photo holds both sides;
 * no larger than tesseract needs and small cards enlarged; blur and glare measured;
 * straightened (tesseract's sparse-text mode does not deskew); evened out where light
 * falls unevenly; contrast stretched. One decode; the rest works on grey pixels.
 * Returns the sides, front first.
 */
export async function prepareCard(bytes: Uint8Array, options: PrepareOptions = {}): Promise<PreparedImage[]> {
  const longSide = options.longSide ?? 1400;
  const { profile } = options;
  const file = await timed(profile, 'prepare:check', () => checkPhoto(bytes));
  const photo = await timed(profile, 'prepare:decode', () => decodeGray(bytes));
  const fullSize = Math.max(photo.width, photo.height) >= Math.max(file.width, file.height);
  const quads = options.findCard === false ? [] : timed(profile, 'prepare:find-card', () => findCards(photo));
  const sides = quads.length === 0 ? [{ side: photo, size: readingSize(photo.width, photo.height, longSide) }] : timed(profile, 'prepare:perspective', () => quads.map((q) => cutOut(photo, q, longSide)));
  const prepared: PreparedImage[] = [];
  for (const { side, size } of sides) {
    // Quality before enlarging: an enlarged small card is soft by construction.
    const quality = timed(profile, 'prepare:quality', () => imageQuality(side));
    const sized = size.width === side.width && size.height === side.height ? side : await timed(profile, 'prepare:resize', () => resizeGray(side, size.width, size.height));
    prepared.push({ ...(await timed(profile, 'prepare:deskew-flatten', () => finish(sized, options))), quality, enlarged: Math.round((sized.width / side.width) * 100) / 100, cutOut: quads.length > 0, ...(fullSize ? { photo } : {}) });
  }
  return prepared;
}

/** `prepareCard`'s first side: the card, or the front of a photo of both sides. */
export async function prepareImage(bytes: Uint8Array, options: PrepareOptions = {}): Promise<PreparedImage> {
  return (await prepareCard(bytes, options))[0];
}

async function finish(side: GrayImage, options: PrepareOptions): Promise<PreparedImage> {
  let { gray, width, height } = side;
  let skew = 0;
  if (options.deskew !== false) {
    const probe = subsample(gray, width, height, Math.max(1, Math.round(Math.max(width, height) / 450)));
    skew = estimateSkew(probe.data, probe.width, probe.height);
  }
  if (Math.abs(skew) >= MIN_SKEW) {
    // The corners the rotation opens up are white, like the card, not black like text.
    const rotated = await sharp(gray, { raw: { width, height, channels: 1 } })
      .rotate(-skew, { background: '#ffffff' })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    gray = new Uint8Array(rotated.data.buffer, rotated.data.byteOffset, rotated.data.byteLength);
    width = rotated.info.width;
    height = rotated.info.height;
  } else if (gray === side.gray) {
    // Flattening works in place: never on the caller's (or the decoder's) pixels.
    gray = Uint8Array.from(gray);
  }
  if (options.flatten !== false) flattenLight(gray, width, height);
  stretchContrast(gray);
  return { gray, width, height, skew };
}


/**
 * The tilt of the text lines, by projection profiles: the angle at which the photo's
 * horizontal edges (tops and bottoms of letters, the card's edges) pile up into the
 * fewest, sharpest rows. Edges rather than dark pixels, so a dark desk around a light
 * card does not swamp the text.
 */
export function estimateSkew(gray: Uint8Array, width: number, height: number): number {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 1; y < height - 1; y++) {
    for (let x = 0; x < width; x++) {
      const edge = Math.abs(gray[(y + 1) * width + x] - gray[(y - 1) * width + x]);
      if (edge > 60) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  if (xs.length < 200) return 0;
  const bins = new Float64Array(Math.ceil(Math.hypot(width, height)) * 2 + 4);
  const score = (degrees: number) => {
    const t = (degrees * Math.PI) / 180;
    const cos = Math.cos(t);
    const sin = Math.sin(t);
    bins.fill(0);
    const offset = width + 2;
    for (let i = 0; i < xs.length; i++) bins[Math.round(ys[i] * cos - xs[i] * sin) + offset]++;
    let sum = 0;
    for (let i = 0; i < bins.length; i++) sum += bins[i] * bins[i];
    return sum;
  };
  let best = 0;
  let bestScore = score(0);
  for (let a = -MAX_SKEW; a <= MAX_SKEW; a += 0.5) {
    const s = score(a);
    if (s > bestScore) [best, bestScore] = [a, s];
  }
  const coarse = best;
  for (let a = coarse - 0.4; a <= coarse + 0.4; a += 0.1) {
    const s = score(a);
    if (s > bestScore) [best, bestScore] = [a, s];
  }
  return Math.round(best * 10) / 10;
}

/** Block size and reach of the background estimate, in pixels of the prepared image. */
const BLOCK = 16;

/**
 * Divides out the light falling on the card: the background at each pixel is the
 * brightest value nearby (text is thinner than the window, so it never counts as
 * background), smoothed; dividing by it makes a shaded corner as white as a lit one.
 * White text on a coloured band survives: near the text the "background" is the text.
 */
export function flattenLight(gray: Uint8Array, width: number, height: number): void {
  const bw = Math.ceil(width / BLOCK);
  const bh = Math.ceil(height / BLOCK);
  const blocks = new Float32Array(bw * bh);
  for (let y = 0; y < height; y++) {
    const row = ((y / BLOCK) | 0) * bw;
    const base = y * width;
    for (let bx = 0; bx < bw; bx++) {
      let max = blocks[row + bx];
      const end = Math.min(width, (bx + 1) * BLOCK);
      for (let x = bx * BLOCK; x < end; x++) if (gray[base + x] > max) max = gray[base + x];
      blocks[row + bx] = max;
    }
  }
  // Widen the maximum to the neighbouring blocks, then smooth it (3x3 mean).
  const widened = new Float32Array(bw * bh);
  const smooth = new Float32Array(bw * bh);
  for (const [from, to, op] of [
    [blocks, widened, 'max'],
    [widened, smooth, 'mean'],
  ] as const) {
    for (let y = 0; y < bh; y++) {
      for (let x = 0; x < bw; x++) {
        let acc = op === 'max' ? 0 : 0;
        let n = 0;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const yy = y + dy;
            const xx = x + dx;
            if (yy < 0 || yy >= bh || xx < 0 || xx >= bw) continue;
            const v = from[yy * bw + xx];
            if (op === 'max') acc = Math.max(acc, v);
            else acc += v;
            n++;
          }
        }
        to[y * bw + x] = op === 'max' ? acc : acc / n;
      }
    }
  }
  // The same bilinear interpolation of the block backgrounds at every pixel, with the
  // column weights worked out once and each row's blend of block rows once per row.
  const cx0 = new Int32Array(width);
  const cx1 = new Int32Array(width);
  const ctx = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    const fx = Math.min(bw - 1, Math.max(0, x / BLOCK - 0.5));
    cx0[x] = fx | 0;
    cx1[x] = Math.min(bw - 1, cx0[x] + 1);
    ctx[x] = fx - cx0[x];
  }
  const rowBackground = new Float64Array(bw);
  for (let y = 0; y < height; y++) {
    const fy = Math.min(bh - 1, Math.max(0, y / BLOCK - 0.5));
    const y0 = fy | 0;
    const y1 = Math.min(bh - 1, y0 + 1);
    const ty = fy - y0;
    for (let bx = 0; bx < bw; bx++) rowBackground[bx] = smooth[y0 * bw + bx] * (1 - ty) + smooth[y1 * bw + bx] * ty;
    const base = y * width;
    for (let x = 0; x < width; x++) {
      const tx = ctx[x];
      const background = Math.max(24, rowBackground[cx0[x]] * (1 - tx) + rowBackground[cx1[x]] * tx);
      const i = base + x;
      gray[i] = Math.min(255, (gray[i] * 255) / background);
    }
  }
}

/** Stretches grey levels so the darkest 0.5% are black and the brightest 0.5% white. */
export function stretchContrast(gray: Uint8Array): void {
  const histogram = new Uint32Array(256);
  for (let i = 0; i < gray.length; i++) histogram[gray[i]]++;
  const cut = gray.length * 0.005;
  let low = 0;
  let high = 255;
  for (let n = 0; low < 255 && n + histogram[low] <= cut; low++) n += histogram[low];
  for (let n = 0; high > 0 && n + histogram[high] <= cut; high--) n += histogram[high];
  if (high - low < 16) return;
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) lut[v] = Math.max(0, Math.min(255, Math.round(((v - low) * 255) / (high - low))));
  for (let i = 0; i < gray.length; i++) gray[i] = lut[gray[i]];
}

/** Every `step`-th pixel of every `step`-th row: enough to measure skew, at a fraction of the cost. */
function subsample(gray: Uint8Array, width: number, height: number, step: number): { data: Uint8Array; width: number; height: number } {
  const w = Math.floor(width / step);
  const h = Math.floor(height / step);
  const data = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data[y * w + x] = gray[y * step * width + x * step];
  return { data, width: w, height: h };
}

