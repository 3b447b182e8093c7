import type { Point } from './perspective';

/** A grey image, row by row. */
export interface GrayImage {
  gray: Uint8Array;
  width: number;
  height: number;
}

/** Where a card lies in a photo: its four corners (top-left, top-right, bottom-right, bottom-left). */
export interface CardQuad {
  corners: Point[];
  /** How card-like the region is, 0..1. */
  score: number;
  /** Found by its outline (so its corners are the card's), not by halving a photo of two cards. */
  outline: boolean;
}

/** The long side of the image the card is looked for on: enough for a card's outline, cheap to scan. */
const PROBE_SIDE = 256;
/** An ID-1 card (85.60 x 53.98 mm). */
const CARD_ASPECT = 1.586;
/** A region covering more than this share of the photo is the card filling the frame: nothing to crop. */
const FILLS_FRAME = 0.8;
const MIN_AREA = 0.03;
/** Below this a region is not taken for a card: reading the whole photo is safer than a bad crop. */
const MIN_SCORE = 0.55;

/** The image shrunk by area averaging, so that text and noise average out and outlines stay. */
export function shrink(image: GrayImage, longSide: number): GrayImage & { scale: number } {
  const scale = Math.max(1, Math.max(image.width, image.height) / longSide);
  const width = Math.max(1, Math.floor(image.width / scale));
  const height = Math.max(1, Math.floor(image.height / scale));
  const sums = new Uint32Array(width * height);
  const counts = new Uint32Array(width * height);
  const column = new Int32Array(image.width);
  for (let x = 0; x < image.width; x++) column[x] = Math.min(width - 1, Math.floor(x / scale));
  for (let y = 0; y < image.height; y++) {
    const base = Math.min(height - 1, Math.floor(y / scale)) * width;
    const row = y * image.width;
    for (let x = 0; x < image.width; x++) {
      const i = base + column[x];
      sums[i] += image.gray[row + x];
      counts[i]++;
    }
  }
  const gray = new Uint8Array(width * height);
  for (let i = 0; i < gray.length; i++) gray[i] = counts[i] ? Math.round(sums[i] / counts[i]) : 255;
  return { gray, width, height, scale };
}

/** Otsu's threshold of the grey levels between `lo` and `hi`. */
function otsu(histogram: Uint32Array, lo: number, hi: number): number {
  let total = 0;
  let sum = 0;
  for (let v = lo; v <= hi; v++) {
    total += histogram[v];
    sum += v * histogram[v];
  }
  let best = (lo + hi) >> 1;
  let bestVar = -1;
  let w0 = 0;
  let sum0 = 0;
  for (let t = lo; t < hi; t++) {
    w0 += histogram[t];
    sum0 += t * histogram[t];
    const w1 = total - w0;
    if (w0 === 0 || w1 === 0) continue;
    const m0 = sum0 / w0;
    const m1 = (sum - sum0) / w1;
    const between = w0 * w1 * (m0 - m1) ** 2;
    if (between > bestVar) [best, bestVar] = [t, between];
  }
  return best;
}

interface Component {
  pixels: number[];
}

/**
 * 4-connected components of a mask, largest first, ignoring those under `minPixels`.
 * Visited pixels are cleared from `mask`.
 */
function components(mask: Uint8Array, width: number, minPixels: number): Component[] {
  const out: Component[] = [];
  const stack = new Int32Array(mask.length);
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start]) continue;
    const pixels: number[] = [];
    let top = 0;
    stack[top++] = start;
    mask[start] = 0;
    while (top > 0) {
      const i = stack[--top];
      pixels.push(i);
      const x = i % width;
      for (const n of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
        if (n < 0 || n >= mask.length || !mask[n]) continue;
        mask[n] = 0;
        stack[top++] = n;
      }
    }
    if (pixels.length >= minPixels) out.push({ pixels });
  }
  return out.sort((a, b) => b.pixels.length - a.pixels.length);
}

/** What cannot be reached from the photo's edges without crossing an edge: whatever lies on the background. */
function enclosed(smooth: Uint8Array, width: number, height: number): Uint8Array {
  const reached = new Uint8Array(smooth.length);
  const stack = new Int32Array(smooth.length);
  let top = 0;
  const seed = (i: number) => {
    if (!smooth[i] || reached[i]) return;
    reached[i] = 1;
    stack[top++] = i;
  };
  for (let x = 0; x < width; x++) {
    seed(x);
    seed((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    seed(y * width);
    seed(y * width + width - 1);
  }
  while (top > 0) {
    const i = stack[--top];
    const x = i % width;
    if (x > 0) seed(i - 1);
    if (x < width - 1) seed(i + 1);
    if (i >= width) seed(i - width);
    if (i + width < smooth.length) seed(i + width);
  }
  const out = new Uint8Array(smooth.length);
  for (let i = 0; i < out.length; i++) out[i] = reached[i] ? 0 : 1;
  return out;
}

function quadArea(q: Point[]): number {
  let a = 0;
  for (let i = 0; i < 4; i++) {
    const p = q[i];
    const n = q[(i + 1) % 4];
    a += p.x * n.y - n.x * p.y;
  }
  return Math.abs(a) / 2;
}

const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/**
 * A component as a card: its corners are its extreme points along the diagonals of its
 * own axes (from its second moments), so a turned card or one in perspective still gives
 * its four corners. Scored by how fully it fills that quadrilateral (a card is solid, a
 * frame drawn on the background is not) and how close its sides are to a card's.
 */
function asCard(c: Component, width: number, height: number): CardQuad | null {
  const n = c.pixels.length;
  let mx = 0;
  let my = 0;
  for (const i of c.pixels) {
    mx += i % width;
    my += (i / width) | 0;
  }
  mx /= n;
  my /= n;
  let cxx = 0;
  let cyy = 0;
  let cxy = 0;
  const rows = new Map<number, [number, number]>();
  let touches = 0;
  let minX = width;
  let maxX = 0;
  let minY = height;
  let maxY = 0;
  for (const i of c.pixels) {
    const x = i % width;
    const y = (i / width) | 0;
    cxx += (x - mx) ** 2;
    cyy += (y - my) ** 2;
    cxy += (x - mx) * (y - my);
    const span = rows.get(y);
    if (!span) rows.set(y, [x, x]);
    else {
      if (x < span[0]) span[0] = x;
      if (x > span[1]) span[1] = x;
    }
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  if (minX === 0) touches++;
  if (minY === 0) touches++;
  if (maxX === width - 1) touches++;
  if (maxY === height - 1) touches++;
  // The background reaches the photo's edges; a card seldom touches more than one.
  if (touches >= 2) return null;
  const theta = 0.5 * Math.atan2(2 * cxy, cxx - cyy);
  const cos = Math.cos(theta);
  const sin = Math.sin(theta);
  const best = [-Infinity, -Infinity, -Infinity, -Infinity];
  const corners: Point[] = [
    { x: 0, y: 0 },
    { x: 0, y: 0 },
    { x: 0, y: 0 },
    { x: 0, y: 0 },
  ];
  // In the component's own axes (u along its long side): top-left is -u-v, top-right +u-v…
  const signs = [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ];
  for (const i of c.pixels) {
    const x = i % width;
    const y = (i / width) | 0;
    const u = (x - mx) * cos + (y - my) * sin;
    const v = -(x - mx) * sin + (y - my) * cos;
    for (let k = 0; k < 4; k++) {
      const s = signs[k][0] * u + signs[k][1] * v;
      if (s > best[k]) {
        best[k] = s;
        corners[k] = { x: x + 0.5, y: y + 0.5 };
      }
    }
  }
  // The axes turn the card without mirroring it, so the corners are clockwise on screen;
  // start from the one nearest the photo's top-left.
  const start = [0, 1, 2, 3].sort((a, b) => corners[a].x + corners[a].y - (corners[b].x + corners[b].y))[0];
  const quad = [0, 1, 2, 3].map((k) => corners[(start + k) % 4]);
  const area = quadArea(quad);
  if (area < 1) return null;
  let filled = 0;
  for (const [, [x0, x1]] of rows) filled += x1 - x0 + 1;
  // Text makes holes in a card; a frame drawn around it is all hole.
  const solidity = Math.min(filled, n * 1.3) / area;
  const sideA = (dist(quad[0], quad[1]) + dist(quad[2], quad[3])) / 2;
  const sideB = (dist(quad[1], quad[2]) + dist(quad[3], quad[0])) / 2;
  const aspect = Math.max(sideA, sideB) / Math.max(1, Math.min(sideA, sideB));
  const aspectFit = Math.max(0, 1 - Math.abs(Math.log(aspect / CARD_ASPECT)) / Math.log(1.45));
  const solidFit = solidity >= 0.88 && solidity <= 1.12 ? 1 - Math.abs(1 - solidity) : 0;
  const share = area / (width * height);
  if (share < MIN_AREA) return null;
  const score = solidFit * aspectFit * (0.6 + 0.4 * Math.min(1, share / 0.15));
  if (score < MIN_SCORE) return null;
  return { corners: quad, score, outline: true };
}

function overlap(a: CardQuad, b: CardQuad): boolean {
  const box = (q: CardQuad) => ({
    x0: Math.min(...q.corners.map((p) => p.x)),
    x1: Math.max(...q.corners.map((p) => p.x)),
    y0: Math.min(...q.corners.map((p) => p.y)),
    y1: Math.max(...q.corners.map((p) => p.y)),
  });
  const p = box(a);
  const q = box(b);
  const w = Math.min(p.x1, q.x1) - Math.max(p.x0, q.x0);
  const h = Math.min(p.y1, q.y1) - Math.max(p.y0, q.y0);
  if (w <= 0 || h <= 0) return false;
  return (w * h) / Math.min((p.x1 - p.x0) * (p.y1 - p.y0), (q.x1 - q.x0) * (q.y1 - q.y0)) > 0.3;
}

/** Pushes each corner away from the centre, so rounded corners and a soft edge are kept in. */
function grow(corners: Point[], by: number): Point[] {
  const cx = corners.reduce((s, p) => s + p.x, 0) / 4;
  const cy = corners.reduce((s, p) => s + p.y, 0) / 4;
  return corners.map((p) => ({ x: cx + (p.x - cx) * (1 + by), y: cy + (p.y - cy) * (1 + by) }));
}

/**
 * The masks a card can stand out in: lighter or darker than what is around it, at the
 * photo's main threshold and at the thresholds within its light and dark halves (a white
 * card on a wooden desk inside black margins), and the smooth areas between strong edges
 * (a white card with a shadow on a white page).
 */
function masks(small: GrayImage): Uint8Array[] {
  const { gray, width, height } = small;
  const histogram = new Uint32Array(256);
  for (const v of gray) histogram[v]++;
  const t = otsu(histogram, 0, 255);
  const thresholds = [t, otsu(histogram, t, 255), otsu(histogram, 0, t)];
  const out: Uint8Array[] = [];
  for (const threshold of thresholds) {
    const light = new Uint8Array(gray.length);
    const dark = new Uint8Array(gray.length);
    for (let i = 0; i < gray.length; i++) {
      if (gray[i] > threshold) light[i] = 1;
      else dark[i] = 1;
    }
    out.push(light, dark);
  }
  const smooth = new Uint8Array(gray.length);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const g = Math.abs(gray[i + 1] - gray[i - 1]) + Math.abs(gray[i + width] - gray[i - width]);
      smooth[i] = g < 10 ? 1 : 0;
    }
  }
  out.push(enclosed(smooth, width, height), smooth);
  return out;
}

/**
 * The cards in a photo, front first: none when the card fills the frame (or nothing
 * card-like is found), one, or two side by side (or one above the other) when a photo
 * holds both sides. Corners are in the photo's pixels.
 */
export function findCards(image: GrayImage): CardQuad[] {
  const small = shrink(image, PROBE_SIDE);
  const total = small.width * small.height;
  const found: CardQuad[] = [];
  for (const mask of masks(small)) {
    for (const c of components(mask, small.width, total * MIN_AREA)) {
      const card = asCard(c, small.width, small.height);
      if (card) found.push(card);
    }
  }
  found.sort((a, b) => b.score - a.score);
  const kept: CardQuad[] = [];
  for (const card of found) if (!kept.some((k) => overlap(k, card))) kept.push(card);
  const [best, second] = kept;
  if (!best) return splitPair(small);
  const area = quadArea(best.corners);
  const sides = [best];
  if (second && second.score >= 0.6 * best.score) {
    const ratio = quadArea(second.corners) / area;
    if (ratio > 0.6 && ratio < 1.67) sides.push(second);
  }
  if (sides.length === 1 && area / total > FILLS_FRAME) return [];
  // A photo as wide as two cards with one found: the other did not stand out (a white card
  // on white); a small region in it is a box printed on one of them.
  if (sides.length === 1) {
    const pair = splitPair(small);
    if (pair.length > 0) return pair;
  }
  // Front first: the left one, or the upper one when they are stacked.
  const centre = (q: CardQuad) => ({ x: q.corners.reduce((s, p) => s + p.x, 0) / 4, y: q.corners.reduce((s, p) => s + p.y, 0) / 4 });
  sides.sort((a, b) => {
    const ca = centre(a);
    const cb = centre(b);
    return Math.abs(ca.x - cb.x) > Math.abs(ca.y - cb.y) ? ca.x - cb.x : ca.y - cb.y;
  });
  return sides.map((q) => ({ ...q, corners: grow(q.corners, 0.015).map((p) => ({ x: p.x * small.scale, y: p.y * small.scale })) }));
}

/**
 * A photo twice as wide as a card (or twice as tall) with no outline found holds both
 * sides: split it at the emptiest column (row) of its middle.
 */
function splitPair(small: GrayImage & { scale: number }): CardQuad[] {
  const { gray, width, height, scale } = small;
  const wide = width / height;
  const across = wide >= 2.3;
  if (!across && wide > 1 / 1.6) return [];
  const length = across ? width : height;
  const ink = new Float64Array(length);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const edge = Math.abs(gray[i + 1] - gray[i - 1]) + Math.abs(gray[i + width] - gray[i - width]);
      ink[across ? x : y] += edge;
    }
  }
  let cut = Math.round(length / 2);
  for (let k = Math.round(length * 0.4); k <= Math.round(length * 0.6); k++) if (ink[k] < ink[cut]) cut = k;
  const W = width * scale;
  const H = height * scale;
  const c = cut * scale;
  const rect = (x0: number, y0: number, x1: number, y1: number): CardQuad => ({
    score: 0.5,
    outline: false,
    corners: [
      { x: x0, y: y0 },
      { x: x1, y: y0 },
      { x: x1, y: y1 },
      { x: x0, y: y1 },
    ],
  });
  return across ? [rect(0, 0, c, H), rect(c, 0, W, H)] : [rect(0, 0, W, c), rect(0, c, W, H)];
}
