import { createCanvas, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import { homography, mapPoint, type Point } from '../src/main/extraction/perspective';

/** An RGBA picture as a canvas's `getImageData` gives it. */
export interface Pixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/** A card face (PNG) as pixels, to be laid into photos by `layCard`. */
export async function facePixels(png: Buffer): Promise<Pixels> {
  const img = await loadImage(png);
  const canvas = createCanvas(img.width, img.height);
  canvas.getContext('2d').drawImage(img, 0, 0);
  return canvas.getContext('2d').getImageData(0, 0, img.width, img.height);
}

/**
 * The desk capture's one step both card generators share: the face laid into the photo drawn
 * so far on `ctx`, inside the quad `corners` (the card in perspective). Nearest pixel, no
 * smoothing: what the generated photos have always been made with (their bytes are the same).
 */
export function layCard(ctx: SKRSContext2D, face: Pixels, corners: Point[]): void {
  const photo = ctx.getImageData(0, 0, ctx.canvas.width, ctx.canvas.height);
  drawQuad(photo, face, corners);
  ctx.putImageData(photo, 0, 0);
}

function drawQuad(target: Pixels, face: Pixels, corners: Point[]): void {
  const toFace = homography(corners, [
    { x: 0, y: 0 },
    { x: face.width - 1, y: 0 },
    { x: face.width - 1, y: face.height - 1 },
    { x: 0, y: face.height - 1 },
  ]);
  if (!toFace) return;
  // Only the quad's bounding box: outside it nothing maps into the face.
  const xs = corners.map((c) => c.x);
  const ys = corners.map((c) => c.y);
  for (let y = Math.max(0, Math.floor(Math.min(...ys))); y <= Math.min(target.height - 1, Math.ceil(Math.max(...ys))); y++) {
    for (let x = Math.max(0, Math.floor(Math.min(...xs))); x <= Math.min(target.width - 1, Math.ceil(Math.max(...xs))); x++) {
      const p = mapPoint(toFace, { x, y });
      if (p.x < 0 || p.y < 0 || p.x > face.width - 1 || p.y > face.height - 1) continue;
      const i = ((p.y | 0) * face.width + (p.x | 0)) * 4;
      const o = (y * target.width + x) * 4;
      target.data[o] = face.data[i];
      target.data[o + 1] = face.data[i + 1];
      target.data[o + 2] = face.data[i + 2];
    }
  }
}
