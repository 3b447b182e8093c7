import { describe, expect, it } from 'vitest';
import { cutThroughPrint } from '@src/main/extraction/extraction-engine';
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
