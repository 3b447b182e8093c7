import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ExtractionFailure } from '@src/main/extraction/extraction-failure';
import { imageQuality } from '@src/main/extraction/image-quality';
import { estimateSkew, greyHistogram, halvesForOcr, prepareCard, prepareImage, rowsOf, splitRow, stretchContrast, tesseractInk } from '@src/main/extraction/prepare-image';
import { generateCards } from '../../../../scripts/generate-cards';
import { jpegClaiming } from '@test/support/images';

async function grey(bytes: Buffer) {
  const { data, info } = await sharp(bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { gray: new Uint8Array(data), width: info.width, height: info.height };
}

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
    for (const bytes of [png.subarray(0, png.length - 40), Buffer.from('GIF89a not really'), Buffer.from('just some text, not a photo')]) {
      await expect(prepareImage(bytes)).rejects.toBeInstanceOf(ExtractionFailure);
      await expect(prepareImage(bytes)).rejects.toMatchObject({ reason: 'unreadable_image' });
    }
  });

  it('refuses an empty file, a PDF, a drawing and a 50-megapixel photo, each with its own reason, before decoding', async () => {
    await expect(prepareCard(new Uint8Array(0))).rejects.toMatchObject({ reason: 'empty_file', message: expect.stringContaining('empty') });
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
    await expect(prepareCard(pdf)).rejects.toMatchObject({ reason: 'unsupported_format', message: expect.stringContaining('PDF') });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200"><rect width="300" height="200" fill="#fff"/></svg>');
    await expect(prepareCard(svg)).rejects.toMatchObject({ reason: 'unsupported_format' });
    // Only the header is read: a JPEG saying 8200 x 6200 (51 MP) is refused without decoding it.
    await expect(prepareCard(await jpegClaiming(8200, 6200))).rejects.toMatchObject({ reason: 'image_too_large', message: expect.stringContaining('51 megapixels') });
  });

  it('finds the card in a photo of a desk and undoes the perspective: one side, card-shaped', async () => {
    const [desk] = (await generateCards({ count: 1, seed: 3, styles: 'held-out' })).filter((c) => c.style.capture === 'desk');
    const sides = await prepareCard(new Uint8Array(desk.bytes));
    expect(sides).toHaveLength(1);
    const aspect = sides[0].width / sides[0].height;
    expect(aspect).toBeGreaterThan(1.45);
    expect(aspect).toBeLessThan(1.75);
    // The desk (1600 x 1200) is gone: what is left is the card, at about its own size.
    expect(sides[0].width).toBeLessThan(1500);
  });

  it('reads a photo of both sides side by side as two sides, front first', async () => {
    const cards = await generateCards({ count: 6, seed: 3, styles: 'held-out' });
    const pair = cards.find((c) => c.style.capture === 'pair')!;
    const sides = await prepareCard(new Uint8Array(pair.bytes));
    expect(sides).toHaveLength(2);
    for (const side of sides) expect(side.width / side.height).toBeGreaterThan(1.3);
  });

  it('keeps a card that fills the frame whole, and enlarges a small one', async () => {
    const small = await sharp({ create: { width: 480, height: 300, channels: 3, background: '#f4f4f4' } }).jpeg().toBuffer();
    const [side] = await prepareCard(small);
    expect(side.width).toBeGreaterThanOrEqual(1000);
    expect(side.width / side.height).toBeCloseTo(1.6, 1);
  });

  it('scores blur and glare: a blurred card is softer, a reflection on a photographed card is glare', async () => {
    const width = 1000;
    const height = 630;
    const sharpCard = await sharp(Buffer.from(tiltedLines(width, height, 0)), { raw: { width, height, channels: 1 } }).png().toBuffer();
    const blurred = await sharp(sharpCard).blur(4).png().toBuffer();
    const crisp = imageQuality(await grey(sharpCard));
    const soft = imageQuality(await grey(blurred));
    expect(soft.sharpness).toBeLessThan(crisp.sharpness / 10);
    expect(crisp.glare).toBe(0);
    const glare = await sharp(sharpCard)
      .composite([{ input: Buffer.from(`<svg width="${width}" height="${height}"><ellipse cx="300" cy="250" rx="220" ry="150" fill="#fff"/></svg>`) }])
      .png()
      .toBuffer();
    expect(imageQuality(await grey(glare)).glare).toBeGreaterThan(0.1);
  });

  it('stretches a dim photo to the full grey range', () => {
    const gray = Uint8Array.from({ length: 1000 }, (_, i) => 90 + (i % 60));
    stretchContrast(gray);
    expect(Math.min(...gray)).toBe(0);
    expect(Math.max(...gray)).toBe(255);
  });
});

describe('a side cut in two for two OCR workers', () => {
  /** White rows, with dark "text lines" at the given [top, bottom) rows, words with gaps between. */
  function lines(width: number, height: number, rows: [number, number][]) {
    const gray = new Uint8Array(width * height).fill(240);
    for (const [y0, y1] of rows) for (let y = y0; y < y1; y++) for (let x = 20; x < width - 20; x++) if (x % 40 < 30) gray[y * width + x] = 20;
    return { gray, width, height, skew: 0 };
  }
  const textRows: [number, number][] = [
    [30, 60],
    [90, 130],
    [150, 205],
    [212, 250],
    [290, 320],
  ];

  it('is cut in the blank gap nearest its middle, never through a text line', () => {
    const image = lines(600, 380, textRows);
    const gap = splitRow(image)!;
    // The gaps are 60–90, 130–150, 205–212, 250–290: 190 is the middle, 205–212 the nearest gap.
    expect(gap).toEqual({ y0: 205, y1: 212 });
    // Each half keeps the whole gap: neither runs into a text line.
    for (const [y0, y1] of textRows) expect(gap.y1 <= y0 || gap.y0 >= y1).toBe(true);
  });

  it('is not cut where no gap lies near the middle, nor at a gap narrower than six rows', () => {
    // A logo band over the middle third.
    expect(splitRow(lines(600, 380, [[100, 290]]))).toBeUndefined();
    // Lines four rows apart: too tight a margin for either half.
    expect(splitRow(lines(600, 380, [[40, 186], [190, 340]]))).toBeUndefined();
    // A speck in the gap is still a blank row; a rule across it is not.
    const specked = lines(600, 380, [[40, 180], [200, 340]]);
    specked.gray[190 * 600 + 300] = 0;
    expect(splitRow(specked)).toEqual({ y0: 180, y1: 200 });
    const ruled = lines(600, 380, [[40, 180], [200, 340]]);
    ruled.gray.fill(0, 187 * 600, 190 * 600);
    expect(splitRow(ruled)).toEqual({ y0: 190, y1: 200 });
  });

  it('is not misled by the dark edge of the photo beside the card', () => {
    const edged = lines(600, 380, [[40, 180], [200, 340]]);
    for (let y = 0; y < 380; y++) edged.gray.fill(0, y * 600, y * 600 + 4);
    expect(splitRow(edged)).toEqual({ y0: 180, y1: 200 });
  });

  it('gives the rows asked for, as an image of their own', () => {
    const image = lines(600, 380, textRows);
    const bottom = rowsOf(image, 200, 380);
    expect([bottom.width, bottom.height, bottom.gray.length]).toEqual([600, 180, 600 * 180]);
    // Row 212 of the side (a line starts there) is its row 12; row 206 (a gap) its row 6.
    expect(bottom.gray[12 * 600 + 20]).toBe(20);
    expect(bottom.gray[6 * 600 + 20]).toBe(240);
  });
});

describe('tesseract’s global threshold, as the halves of a side must meet it', () => {
  const histogram = (counts: Record<number, number>) => {
    const h = new Uint32Array(256);
    for (const [v, n] of Object.entries(counts)) h[Number(v)] = n;
    return h;
  };

  it('takes the minority side of the Otsu cut for ink, as tesseract does', () => {
    // Two levels: every cut between them separates them equally well; tesseract keeps the first.
    const dark = tesseractInk(histogram({ 20: 10, 200: 90 }));
    expect([dark[0], dark[20], dark[21], dark[200], dark[255]]).toEqual([1, 1, 0, 0, 0]);
    // White print on a dark card: the light minority is the ink.
    const light = tesseractInk(histogram({ 20: 90, 200: 10 }));
    expect([light[20], light[21], light[200]]).toEqual([0, 1, 1]);
    // Three levels, 40 at 10, 50 at 100, 10 at 200: cut after 10, 40·60·(116.7−10)² = 27.3 M,
    // beats a cut after 100, 90·10·(200−60)² = 17.6 M; the 40 under it are the minority, ink.
    const three = tesseractInk(histogram({ 10: 40, 100: 50, 200: 10 }));
    expect([three[10], three[11], three[100], three[200]]).toEqual([1, 0, 0, 0]);
    // One grey level: nothing to separate, no ink.
    expect(tesseractInk(histogram({ 128: 500 })).every((v) => v === 0)).toBe(true);
  });

  /** A light logo panel with dark letters above a blank gap, letters with soft grey edges below. */
  function panelOverText() {
    const width = 200;
    const gray = new Uint8Array(width * 200).fill(250);
    const put = (x0: number, y0: number, x1: number, y1: number, v: number) => {
      for (let y = y0; y < y1; y++) gray.fill(v, y * width + x0, y * width + x1);
    };
    put(10, 30, 190, 80, 160);
    for (let x = 20; x < 180; x += 12) put(x, 40, x + 4, 70, 40);
    for (let x = 20; x < 180; x += 12) {
      put(x - 2, 120, x + 6, 180, 180);
      put(x, 120, x + 4, 180, 40);
    }
    return { gray, width, height: 200, skew: 0 };
  }
  const binarised = (gray: Uint8Array) => {
    const ink = tesseractInk(greyHistogram(gray));
    return Array.from(gray, (v) => ink[v]);
  };

  it('pads a half cut as is that would be binarised unlike the same rows of the whole side, its own grey unchanged', () => {
    const side = panelOverText();
    const whole = binarised(side.gray);
    const gap = splitRow(side)!;
    // Read on its own the top half's panel is ink; on the whole side it is paper.
    expect(binarised(rowsOf(side, 0, gap.y1).gray)).not.toEqual(whole.slice(0, gap.y1 * side.width));
    const split = halvesForOcr(side)!;
    const [top, bottom] = split.halves;
    // The top half holds the rest of the side's grey below its own rows: the side's histogram.
    expect(split.padded[0]).toBe(side.height - gap.y1);
    expect(top.height).toBe(side.height);
    expect(Array.from(greyHistogram(top.gray))).toEqual(Array.from(greyHistogram(side.gray)));
    expect(Array.from(top.gray.subarray(0, gap.y1 * side.width))).toEqual(Array.from(side.gray.subarray(0, gap.y1 * side.width)));
    expect(binarised(top.gray).slice(0, gap.y1 * side.width)).toEqual(whole.slice(0, gap.y1 * side.width));
    // Paper next to the half's last row, the darkest grey at the far end.
    expect(top.gray[gap.y1 * side.width]).toBe(250);
    expect(top.gray[top.gray.length - 1]).toBe(40);
    expect(binarised(bottom.gray).slice(0, (side.height - gap.y0) * side.width)).toEqual(whole.slice(gap.y0 * side.width));
  });

  it('splits a side whose halves tesseract binarises as the whole, their grey unchanged', () => {
    const side = panelOverText();
    // The panel as light as the paper: each half then holds the same two kinds of grey as the whole.
    for (let i = 0; i < side.gray.length; i++) if (side.gray[i] === 160 || side.gray[i] === 180) side.gray[i] = 250;
    const whole = binarised(side.gray);
    const gap = splitRow(side)!;
    const split = halvesForOcr(side)!;
    expect(split.cut).toBe(gap.y0);
    const [top, bottom] = split.halves;
    expect(top.height).toBe(gap.y1);
    expect(bottom.height).toBe(side.height - gap.y0);
    expect(binarised(top.gray)).toEqual(whole.slice(0, gap.y1 * side.width));
    expect(binarised(bottom.gray)).toEqual(whole.slice(gap.y0 * side.width));
    expect(Array.from(top.gray)).toEqual(Array.from(side.gray.subarray(0, gap.y1 * side.width)));
    expect(Array.from(bottom.gray)).toEqual(Array.from(side.gray.subarray(gap.y0 * side.width)));
    expect(split.padded).toEqual([0, 0]);
  });
});
