import { describe, expect, it } from 'vitest';
import { cutThroughPrint, smallPrintRegion } from '@src/main/extraction/extraction-engine';
import { enlargeRegion } from '@src/main/extraction/prepare-image';
import type { OcrWord } from '@src/main/extraction/ocr-worker';

const word = (text: string, x0: number, x1: number, y0 = 100, confidence = 90): OcrWord => ({ text, confidence, bbox: { x0, y0, x1, y1: y0 + 30 } });
const page = (...words: OcrWord[]) => ({ width: 600, height: 380, lines: words.map((w) => ({ text: w.text, confidence: w.confidence, bbox: w.bbox, words: [w] })) });

describe('a region cut through the card’s printing', () => {
  it('is one a printed word runs into (a card has a margin all round)', () => {
    // "Open Access Plus" cut by a scanner's streak: the last word ends at the region's border.
    expect(cutThroughPrint(page(word('Open', 330, 400), word('Access', 410, 500), word('Plu', 510, 599)))).toBe(true);
    // Cut through the top: a word's box starts at the first row.
    expect(cutThroughPrint(page(word('MEMBER', 40, 160, 0)))).toBe(true);
  });

  it('is not a card read whole, nor one with a speck or a streak read at its border', () => {
    expect(cutThroughPrint(page(word('Member', 30, 130), word('W331483193', 300, 560)))).toBe(false);
    expect(cutThroughPrint(page(word('Member', 30, 130), word('|', 596, 600), word('—', 0, 4, 200)))).toBe(false);
    // A word the OCR itself doubts (a smudge read as letters) says nothing about the print.
    expect(cutThroughPrint(page(word('Member', 30, 130), word('ii', 580, 600, 100, 30)))).toBe(false);
  });
});

describe('small print, read again enlarged', () => {
  const box = (x0: number, y0: number, x1: number, h: number) => ({ x0, y0, x1, y1: y0 + h });
  it('is print whose values stand under 16 pixels: the region around them (other columns, the logo), enlarged to 30-pixel text', () => {
    // A card small in a 1920×1080 screenshot of a document: values 12 pixels high.
    const region = smallPrintRegion({ width: 1920, height: 1080 }, [box(740, 390, 900, 12), box(740, 440, 880, 12), box(740, 485, 860, 12)]);
    expect(region).toBeDefined();
    expect(region!.scale).toBeCloseTo(30 / 12);
    // 20 text heights each side, 8 above and below: the Rx column at the right and the logo above are in it.
    expect(region!.box).toEqual({ x0: 500, y0: 294, x1: 1140, y1: 593 });
  });

  it('is kept inside the photo and no larger than 2,400 pixels once enlarged', () => {
    const region = smallPrintRegion({ width: 2000, height: 1000 }, [box(10, 10, 1500, 10)]);
    expect(region!.box).toEqual({ x0: 0, y0: 0, x1: 1700, y1: 100 });
    expect(region!.scale).toBeCloseTo(2400 / 1700);
  });

  it('is not print the model reads well already, nor a side where nothing was read, nor a gain too small to pay for', () => {
    expect(smallPrintRegion({ width: 1400, height: 880 }, [box(40, 200, 400, 24), box(40, 260, 300, 22)])).toBeUndefined();
    expect(smallPrintRegion({ width: 1400, height: 880 }, [])).toBeUndefined();
    // 15-pixel print across a whole 2,000-pixel page: 2400/2000 = 1.2× would not read better.
    expect(smallPrintRegion({ width: 2000, height: 1000 }, [box(5, 10, 1990, 15)])).toBeUndefined();
  });
});

describe('a region enlarged smoothly', () => {
  it('is the region only, at the scale asked, one grey channel, edges still in place', async () => {
    // A 200×100 side: black left half, white right half.
    const gray = new Uint8Array(200 * 100).map((_, i) => (i % 200 < 100 ? 0 : 255));
    const out = await enlargeRegion({ gray, width: 200, height: 100, skew: 0 }, { x0: 50, y0: 20, x1: 150, y1: 60 }, 2.5);
    expect([out.width, out.height]).toEqual([250, 100]);
    expect(out.gray.length).toBe(250 * 100);
    expect(out.enlarged).toBe(2.5);
    // The black/white edge (x = 100 on the side) falls at the middle of the enlarged region.
    const row = Array.from(out.gray.slice(50 * 250, 51 * 250));
    expect(row[100]).toBeLessThan(40);
    expect(row[150]).toBeGreaterThan(215);
    expect(row.findIndex((v) => v > 127)).toBeGreaterThanOrEqual(123);
    expect(row.findIndex((v) => v > 127)).toBeLessThanOrEqual(127);
  });
});
