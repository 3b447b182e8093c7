import type { GrayImage } from './find-card';

export interface ImageQuality {
  /**
   * Sharpness: the variance of the Laplacian, with grey levels first stretched to the
   * card's own range (2nd to 98th percentile) so that a dim photo is not taken for a
   * blurred one. Crisp print scores in the thousands, a readable phone photo in the
   * hundreds; a blur of a few pixels takes it under 100.
   */
  sharpness: number;
  /**
   * Share of the card blown out to white by a reflection, 0..1. Only measured on cards
   * whose paper is not itself printed at full white (a scan or a render of a white card is
   * all "saturated" and has no glare to speak of).
   */
  glare: number;
  /** Nearly one grey all over: nothing photographed, so neither sharp nor blurred. */
  blank: boolean;
}

/** Measured at this long side, so a card photographed large or small scores alike. */
const MEASURE_SIDE = 900;
const SATURATED = 250;

export function imageQuality(image: GrayImage): ImageQuality {
  const { gray, width, height } = image;
  const step = Math.max(1, Math.round(Math.max(width, height) / MEASURE_SIDE));
  const levels = new Uint32Array(256);
  let counted = 0;
  for (let i = 0; i < gray.length; i += step) {
    levels[gray[i]]++;
    counted++;
  }
  let lo = 0;
  let hi = 255;
  for (let acc = 0; lo < 255 && acc + levels[lo] < counted * 0.02; lo++) acc += levels[lo];
  for (let acc = 0; hi > 0 && acc + levels[hi] < counted * 0.02; hi--) acc += levels[hi];
  const stretch = 255 / Math.max(16, hi - lo);
  let lapSum = 0;
  let lapSq = 0;
  let n = 0;
  const s = step;
  for (let y = s; y < height - s; y += s) {
    const row = y * width;
    for (let x = s; x < width - s; x += s) {
      const c = gray[row + x];
      const l = gray[row + x - s];
      const r = gray[row + x + s];
      const u = gray[row - s * width + x];
      const d = gray[row + s * width + x];
      const lap = l + r + u + d - 4 * c;
      lapSum += lap;
      lapSq += lap * lap;
      n++;
    }
  }
  const sharpness = n > 0 ? (lapSq / n - (lapSum / n) ** 2) * stretch * stretch : 0;

  const histogram = new Uint32Array(256);
  for (let i = 0; i < gray.length; i += step) histogram[gray[i]]++;
  const total = histogram.reduce((a, b) => a + b, 0);
  // The paper: the level under which 65% of the card lies (cards are mostly paper).
  let paper = 0;
  for (let acc = 0; paper < 255 && acc + histogram[paper] < total * 0.65; paper++) acc += histogram[paper];
  let saturated = 0;
  for (let v = SATURATED; v < 256; v++) saturated += histogram[v];
  const glare = paper <= 240 ? saturated / Math.max(1, total) : 0;
  return { sharpness: Math.round(sharpness), glare: Math.round(glare * 1000) / 1000, blank: hi - lo < 24 };
}
