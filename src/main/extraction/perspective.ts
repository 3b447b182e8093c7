/** A point on an image, in pixels. */
export interface Point {
  x: number;
  y: number;
}

/** A 3x3 projective transform, row by row, with the last entry 1. */
export type Homography = readonly number[];

/** Solves the n x n system `a x = b` in place by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++) if (Math.abs(a[row][col]) > Math.abs(a[pivot][col])) pivot = row;
    if (Math.abs(a[pivot][col]) < 1e-12) return null;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    [b[col], b[pivot]] = [b[pivot], b[col]];
    for (let row = col + 1; row < n; row++) {
      const f = a[row][col] / a[col][col];
      for (let k = col; k < n; k++) a[row][k] -= f * a[col][k];
      b[row] -= f * b[col];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let row = n - 1; row >= 0; row--) {
    let sum = b[row];
    for (let k = row + 1; k < n; k++) sum -= a[row][k] * x[k];
    x[row] = sum / a[row][row];
  }
  return x;
}

/** The transform taking each of four points `from[i]` to `to[i]` (null when three are in line). */
export function homography(from: readonly Point[], to: readonly Point[]): Homography | null {
  const a: number[][] = [];
  const b: number[] = [];
  for (let i = 0; i < 4; i++) {
    const { x, y } = from[i];
    const { x: u, y: v } = to[i];
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    b.push(u);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    b.push(v);
  }
  const h = solve(a, b);
  return h ? [...h, 1] : null;
}

export function mapPoint(h: Homography, p: Point): Point {
  const w = h[6] * p.x + h[7] * p.y + h[8];
  return { x: (h[0] * p.x + h[1] * p.y + h[2]) / w, y: (h[3] * p.x + h[4] * p.y + h[5]) / w };
}

/**
 * The quadrilateral `corners` (top-left, top-right, bottom-right, bottom-left) of an
 * image with `channels` interleaved channels, straightened into a `width` x `height`
 * rectangle, sampled bilinearly. Outside the source, `fill`.
 */
export function warpQuad(
  source: { data: Uint8Array; width: number; height: number; channels: number },
  corners: readonly Point[],
  width: number,
  height: number,
  fill = 255,
): Uint8Array {
  const { data, width: sw, height: sh, channels } = source;
  const out = new Uint8Array(width * height * channels).fill(fill);
  const h = homography(
    [
      { x: 0, y: 0 },
      { x: width - 1, y: 0 },
      { x: width - 1, y: height - 1 },
      { x: 0, y: height - 1 },
    ],
    corners,
  );
  if (!h) return out;
  if (channels === 1) {
    warpGray(data, sw, sh, h, out, width, height);
    return out;
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const w = h[6] * x + h[7] * y + h[8];
      const sx = (h[0] * x + h[1] * y + h[2]) / w;
      const sy = (h[3] * x + h[4] * y + h[5]) / w;
      if (sx < 0 || sy < 0 || sx > sw - 1 || sy > sh - 1) continue;
      const x0 = sx | 0;
      const y0 = sy | 0;
      const x1 = Math.min(sw - 1, x0 + 1);
      const y1 = Math.min(sh - 1, y0 + 1);
      const tx = sx - x0;
      const ty = sy - y0;
      for (let c = 0; c < channels; c++) {
        const top = data[(y0 * sw + x0) * channels + c] * (1 - tx) + data[(y0 * sw + x1) * channels + c] * tx;
        const bottom = data[(y1 * sw + x0) * channels + c] * (1 - tx) + data[(y1 * sw + x1) * channels + c] * tx;
        out[(y * width + x) * channels + c] = Math.round(top * (1 - ty) + bottom * ty);
      }
    }
  }
  return out;
}

/** `warpQuad` for one channel, the card reader's case: the same sampling without the channel loop. */
function warpGray(data: Uint8Array, sw: number, sh: number, h: Homography, out: Uint8Array, width: number, height: number): void {
  const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = h;
  for (let y = 0; y < height; y++) {
    let i = y * width;
    for (let x = 0; x < width; x++, i++) {
      const w = h6 * x + h7 * y + h8;
      const sx = (h0 * x + h1 * y + h2) / w;
      const sy = (h3 * x + h4 * y + h5) / w;
      if (sx < 0 || sy < 0 || sx > sw - 1 || sy > sh - 1) continue;
      const x0 = sx | 0;
      const y0 = sy | 0;
      const dx = x0 < sw - 1 ? 1 : 0;
      const dy = y0 < sh - 1 ? sw : 0;
      const tx = sx - x0;
      const ty = sy - y0;
      const a = y0 * sw + x0;
      const top = data[a] + (data[a + dx] - data[a]) * tx;
      const bottom = data[a + dy] + (data[a + dy + dx] - data[a + dy]) * tx;
      out[i] = Math.round(top + (bottom - top) * ty);
    }
  }
}
