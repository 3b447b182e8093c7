import { describe, expect, it } from 'vitest';
import { cutThroughPrint, holdToEvidence, rereadConfidence, smallPrintRegion } from '@src/main/extraction/extraction-engine';
import { readCardFields, UNSURE_AT_MOST } from '@src/main/extraction/field-parser';
import { REVIEW_BELOW } from '@src/shared/review-threshold';
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

describe('a value read again, or merged from another reading, is never surer than its evidence (issue 25)', () => {
  const shape = { value: 'W123456789', fit: 1, repairs: 0 };
  const held = { ocr: 0.72, sureAtMost: UNSURE_AT_MOST };
  const evidenced = { ocr: 0.72, sureAtMost: 1 };

  it('keeps a value the parser held under "check this" there, however clearly the closer look reads it', () => {
    // Found without a standard caption (or repaired, or placed by position): 0.70 from OCR 0.72.
    // The closer look reads it at 0.97: the old ratio (0.70 / 0.72 carried) made it 0.94.
    const again = rereadConfidence({ confidence: 0.7, source: held }, { formatted: shape, sure: 0.97, captioned: false });
    expect(again.confidence).toBeLessThan(REVIEW_BELOW);
    expect(again.sureAtMost).toBe(UNSURE_AT_MOST);
  });

  it('lets a value with a standard caption and shape become sure when the closer look reads it clearly', () => {
    const again = rereadConfidence({ confidence: 0.7, source: evidenced }, { formatted: shape, sure: 0.97, captioned: false });
    expect(again.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
    expect(again.sureAtMost).toBe(1);
  });

  it('holds a closer reading that needed a repair or has a loose shape, even where the first had the evidence', () => {
    expect(rereadConfidence({ confidence: 0.7, source: evidenced }, { formatted: { ...shape, repairs: 1 }, sure: 0.99, captioned: false }).confidence).toBeLessThan(REVIEW_BELOW);
    expect(rereadConfidence({ confidence: 0.7, source: evidenced }, { formatted: { ...shape, fit: 0.9 }, sure: 0.99, captioned: true }).confidence).toBeLessThan(REVIEW_BELOW);
  });

  it('lets a name newly found under its member caption be sure only in a name’s shape', () => {
    const name = { value: 'JOHN A SMITH', fit: 1, repairs: 0 };
    expect(rereadConfidence({ confidence: 0.6, source: held }, { formatted: name, sure: 0.95, captioned: true }).confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
    // One word: a name's loose shape (fit 0.7) stays a lead however it was found.
    expect(rereadConfidence({ confidence: 0.6, source: held }, { formatted: { value: 'SMITH', fit: 0.7, repairs: 0 }, sure: 0.99, captioned: true }).confidence).toBeLessThan(REVIEW_BELOW);
  });

  it('takes back any confidence a later step lifted over what the parser’s evidence allows', () => {
    const h = 24;
    const words = (x: number, y: number, text: string) => {
      let cursor = x;
      return text.split(' ').map((t) => {
        const w = { text: t, confidence: 95, bbox: { x0: cursor, y0: y, x1: cursor + Math.round(t.length * 0.6 * h), y1: y + h } };
        cursor = w.bbox.x1 + Math.round(0.4 * h);
        return w;
      });
    };
    const line = (x: number, y: number, text: string) => {
      const ws = words(x, y, text);
      return { text, confidence: 95, bbox: { x0: x, y0: y, x1: ws[ws.length - 1].bbox.x1, y1: y + h }, words: ws };
    };
    // An id under its standard caption, and a RxPCN whose caption was read one letter off ("PCM").
    const lines = [line(40, 150, 'Member ID: W123456789'), line(620, 450, 'RxBIN: 610502'), line(620, 500, 'RxPCM: ADV')];
    const read = readCardFields([{ text: lines.map((l) => l.text).join('\n'), lines, width: 1400, height: 900 }], { entities: [] });
    expect(read.sources.member_id?.sureAtMost).toBe(1);
    expect(read.sources.rx_pcn?.sureAtMost).toBe(UNSURE_AT_MOST);
    // A merge of two readings, or an agreement bonus, that lifts both.
    read.fields.member_id!.confidence = 0.99;
    read.fields.rx_pcn!.confidence = 0.95;
    holdToEvidence(read);
    expect(read.fields.member_id!.confidence).toBe(0.99);
    expect(read.fields.rx_pcn!.confidence).toBe(UNSURE_AT_MOST);
  });
});
