import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCards, type GeneratedCard } from '../../../../scripts/generate-cards';
import { createExtractionEngine } from '@src/main/extraction/extraction-engine';
import { ExtractionFailure } from '@src/main/extraction/extraction-failure';
import { createOcrWorker, type OcrWorker, type OcrWorkerOptions } from '@src/main/extraction/ocr-worker';
import { greyHistogram, prepareCard, tesseractInk } from '@src/main/extraction/prepare-image';
import { directoryEntities } from '@src/shared/payers/payer-directory';

/**
 * Both cores at once (issue 25, speed): the cross-checks of a card's codes go to two real
 * tesseract workers side by side; with `splitSides` (off by default: it lost fields on the
 * tuning seeds), a side is cut at a blank gap and its halves are read on both. The workers are tesseract.js's own, wrapped
 * only to see which one read what (or to make one of them fail).
 */
interface Seen {
  heights: number[];
  /** The page segmentation mode of each recognition ('7': one line, a value read alone). */
  modes: (string | undefined)[];
  /** The grey pixels of each image given to tesseract. */
  pixels: Uint8Array[];
}

/** The pixels of a binary PGM (`toPgm`'s format: a three-line header, then grey bytes). */
function pgmPixels(image: Buffer): Uint8Array {
  let at = 0;
  for (let newlines = 0; newlines < 3; at++) if (image[at] === 0x0a) newlines++;
  return new Uint8Array(image.subarray(at));
}

/** Each pixel as tesseract's global threshold binarises its image: 1 for ink. */
function binarised(gray: Uint8Array): Uint8Array {
  const ink = tesseractInk(greyHistogram(gray));
  return gray.map((v) => ink[v]);
}

function watched(seen: Seen[], failing?: number) {
  return (options: OcrWorkerOptions): OcrWorker => {
    const index = seen.length;
    const record: Seen = { heights: [], modes: [], pixels: [] };
    seen.push(record);
    const real = createOcrWorker(options);
    return {
      start: () => real.start(),
      close: () => real.close(),
      async recognize(image, size, params) {
        record.heights.push(size.height);
        record.pixels.push(pgmPixels(image));
        record.modes.push(params?.tessedit_pageseg_mode);
        if (index === failing) throw new Error('the worker thread died');
        return real.recognize(image, size, params);
      },
    };
  };
}

describe('a card read by two OCR workers', () => {
  let cards: GeneratedCard[];
  let card: GeneratedCard;
  const entities = directoryEntities();
  beforeAll(async () => {
    // Tuning families' cards (generated, no image committed), seed 202: tu-011 for the split.
    cards = await generateCards({ families: 'tuning', count: 11, seed: 202 });
    card = cards[10];
  }, 120_000);

  describe('both working', () => {
    const seen: Seen[] = [];
    const engine = createExtractionEngine({ createOcrWorker: watched(seen), barcodes: false, splitSides: true });
    afterAll(() => engine.close());

    it('has each read a part of the side, and the fields read from the joined page are the card’s', async () => {
      const { fields, text } = await engine.extract([{ bytes: new Uint8Array(card.bytes), content_type: card.content_type }], { entities });
      expect(seen).toHaveLength(2);
      // The first recognition of each is a half of the same side: together no taller than it.
      const [top, bottom] = seen.map((s) => s.heights[0]);
      expect(top).toBeGreaterThan(0);
      expect(bottom).toBeGreaterThan(0);
      for (const field of ['member_id', 'member_name', 'payer_name', 'plan_name', 'rx_bin', 'rx_group', 'group_number'] as const) expect(fields[field]?.value).toBe(card.truth[field]);
      // The reading order is the side's: the top half's text before the bottom half's.
      expect(text.indexOf(card.truth.member_id!)).toBeGreaterThanOrEqual(0);
    }, 120_000);

    it('has tesseract binarise each half exactly as it binarises the same rows of the whole side', async () => {
      // Tesseract's global threshold is computed per image: this card's halves, binarised on
      // their own, put about a thousand pixels on the other side of the cut than the whole
      // side does (the single-character misreads of the first measure). Each is padded below
      // its own rows with the grey of the rest of the side, its own grey unchanged.
      const before = seen.map((s) => s.pixels.length);
      await engine.extract([{ bytes: new Uint8Array(card.bytes), content_type: card.content_type }], { entities });
      const [side] = await prepareCard(new Uint8Array(card.bytes));
      const whole = binarised(side.gray);
      const [top, bottom] = seen.map((s, i) => ({ pixels: s.pixels[before[i]], rows: s.heights[before[i]] }));
      expect(top.rows + bottom.rows).toBeGreaterThan(side.height);
      const own = (half: typeof top) => binarised(half.pixels).subarray(0, half.rows * side.width);
      const differing = (ink: Uint8Array, offset: number) => ink.reduce((n, v, i) => n + (v === whole[offset + i] ? 0 : 1), 0);
      expect(differing(own(top), 0)).toBe(0);
      expect(differing(own(bottom), (side.height - bottom.rows) * side.width)).toBe(0);
      expect(Array.from(top.pixels.subarray(0, top.rows * side.width))).toEqual(Array.from(side.gray.subarray(0, top.rows * side.width)));
      expect(Array.from(bottom.pixels.subarray(0, bottom.rows * side.width))).toEqual(Array.from(side.gray.subarray((side.height - bottom.rows) * side.width)));
    }, 120_000);

    it('checks two codes at once, one on each worker', async () => {
      // Which card has two codes read only fairly surely follows the parser's confidence rules,
      // so the test takes the first of the cards whose reading ran two cross-checks.
      const checks = (line: string) => (/passes (\S+)/.exec(line)?.[1] ?? '').split('+').filter((p) => p.startsWith('check:')).length;
      const lines: string[] = [];
      const first = seen.length;
      const reader = createExtractionEngine({ createOcrWorker: watched(seen), barcodes: false, log: (m) => lines.push(m) });
      const workers = seen.slice(first);
      try {
        for (const candidate of cards) {
          lines.length = 0;
          const before = workers.map((w) => w.modes.length);
          const { fields } = await reader.extract([{ bytes: new Uint8Array(candidate.bytes), content_type: candidate.content_type }], { entities });
          if (lines.reduce((n, line) => n + checks(line), 0) < 2) continue;
          // A value read alone is one line (mode 7); only cross-checks are sent to the second worker.
          const alone = workers.map((w, i) => w.modes.slice(before[i]).filter((m) => m === '7').length);
          expect(alone[0]).toBeGreaterThan(0);
          expect(alone[1]).toBeGreaterThan(0);
          expect(fields.member_id?.value).toBe(candidate.truth.member_id);
          return;
        }
        expect.fail('none of the cards had two codes read only fairly surely: the test has no card to check');
      } finally {
        await reader.close();
      }
    }, 600_000);
  });

  it('reads the two sides of a photo of both at once, one on each worker', async () => {
    // The held-out captures hold photos of both sides side by side: the first the card finder cuts in two.
    const photos = await generateCards({ count: 12, seed: 7, styles: 'held-out' });
    let both: { card: GeneratedCard; heights: number[] } | undefined;
    for (const candidate of photos) {
      const sides = await prepareCard(new Uint8Array(candidate.bytes));
      if (sides.length === 2) {
        both = { card: candidate, heights: sides.map((s) => s.height) };
        break;
      }
    }
    if (!both) return expect.fail('none of the photos held both sides: the test has no photo to read');
    const seen: Seen[] = [];
    const reader = createExtractionEngine({ createOcrWorker: watched(seen), barcodes: false });
    try {
      await reader.extract([{ bytes: new Uint8Array(both.card.bytes), content_type: both.card.content_type }], { entities });
      // The first pass over each side, whole (no one-line or block mode): the front on one worker, the back on the other.
      expect(seen.map((s) => [s.heights[0], s.modes[0]])).toEqual(both.heights.map((h) => [h, undefined]));
    } finally {
      await reader.close();
    }
  }, 300_000);

  describe('one of them failing', () => {
    const seen: Seen[] = [];
    const logged: string[] = [];
    const engine = createExtractionEngine({ createOcrWorker: watched(seen, 1), barcodes: false, splitSides: true, log: (m) => logged.push(m) });
    afterAll(() => engine.close());

    it('fails the reading as the engine’s failure, with a clear reason and no fields, after the other half is done', async () => {
      const reading = engine.extract([{ bytes: new Uint8Array(card.bytes), content_type: card.content_type }], { entities });
      await expect(reading).rejects.toBeInstanceOf(ExtractionFailure);
      await expect(reading).rejects.toMatchObject({ reason: 'engine_failed' });
      expect(seen[0].heights.length).toBeGreaterThan(0);
      expect(seen[1].heights.length).toBeGreaterThan(0);
      // The cause's class, never its message (which could quote the card).
      expect(logged).toEqual(['extraction failed: engine_failed (Error)']);
    }, 120_000);
  });
});
