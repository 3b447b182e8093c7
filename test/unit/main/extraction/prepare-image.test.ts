import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ExtractionFailure } from '../../../../src/main/extraction/extraction-failure';
import { estimateSkew, prepareImage, stretchContrast } from '../../../../src/main/extraction/prepare-image';

/** Dark "text lines" on white, tilted by `degrees` (clockwise, as on a photo). */
function tiltedLines(width: number, height: number, degrees: number): Uint8Array {
  const gray = new Uint8Array(width * height).fill(235);
  const slope = Math.tan((degrees * Math.PI) / 180);
  for (let row = 60; row < height - 60; row += 40) {
    for (let x = 40; x < width - 40; x++) {
      if (x % 30 > 22) continue; // gaps between "words"
      const y = Math.round(row + (x - width / 2) * slope);
      for (let t = 0; t < 6; t++) if (y + t >= 0 && y + t < height) gray[(y + t) * width + x] = 30;
    }
  }
  return gray;
}

describe('image preparation', () => {
  it.each([-7, -2.5, 0, 3, 6.2])('measures a tilt of %s° to within half a degree', (degrees) => {
    expect(Math.abs(estimateSkew(tiltedLines(700, 450, degrees), 700, 450) - degrees)).toBeLessThanOrEqual(0.5);
  });

  it('straightens a tilted photo, turns it upright by its EXIF orientation and keeps it at most 1400 px', async () => {
    const width = 1800;
    const height = 1100;
    const raw = Buffer.from(tiltedLines(width, height, 4));
    // Stored sideways, as phones do, with orientation 6 saying "turn me clockwise".
    const sideways = await sharp(raw, { raw: { width, height, channels: 1 } }).rotate(270).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const prepared = await prepareImage(sideways);
    expect(prepared.width).toBeGreaterThan(prepared.height);
    expect(Math.max(prepared.width, prepared.height)).toBeLessThanOrEqual(1500);
    expect(prepared.skew).toBeCloseTo(4, 0);
    expect(prepared.gray.length).toBe(prepared.width * prepared.height);
  });

  it('refuses what is not a whole image with unreadable_image', async () => {
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ffffff' } }).png().toBuffer();
    for (const bytes of [png.subarray(0, png.length - 40), Buffer.from('GIF89a not really'), Buffer.alloc(0)]) {
      await expect(prepareImage(bytes)).rejects.toBeInstanceOf(ExtractionFailure);
      await expect(prepareImage(bytes)).rejects.toMatchObject({ reason: 'unreadable_image' });
    }
  });

  it('stretches a dim photo to the full grey range', () => {
    const gray = Uint8Array.from({ length: 1000 }, (_, i) => 90 + (i % 60));
    stretchContrast(gray);
    expect(Math.min(...gray)).toBe(0);
    expect(Math.max(...gray)).toBe(255);
  });
});
