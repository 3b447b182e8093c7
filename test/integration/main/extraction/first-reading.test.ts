import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCards, type GeneratedCard } from '../../../../scripts/generate-cards';
import { createExtractionEngine, sameReading } from '@src/main/extraction/extraction-engine';
import { bundledLangPath, createOcrWorker, fastLangPath, type OcrWorker, type OcrWorkerOptions } from '@src/main/extraction/ocr-worker';
import { directoryEntities } from '@src/shared/payers/payer-directory';
import { REVIEW_BELOW } from '@src/shared/review-threshold';

/**
 * A card's first reading with tesseract's fast model (issue 25, speed), every later reading
 * with the bundled best_int model. Real tesseract workers, wrapped only to see which model
 * read what.
 */
interface Seen {
  langPath: string;
  /** The page segmentation mode of each recognition: undefined for a whole side, '7' for a value read alone. */
  modes: (string | undefined)[];
  /** Each recognition's thresholding method: undefined for the global threshold, '2' for the local one. */
  thresholds: (string | undefined)[];
}

function watched(seen: Seen[]) {
  return (options: OcrWorkerOptions): OcrWorker => {
    const record: Seen = { langPath: options.langPath ?? bundledLangPath(), modes: [], thresholds: [] };
    seen.push(record);
    const real = createOcrWorker(options);
    return {
      start: () => real.start(),
      close: () => real.close(),
      recognize(image, size, params) {
        record.modes.push(params?.tessedit_pageseg_mode);
        record.thresholds.push(params?.thresholding_method);
        return real.recognize(image, size, params);
      },
    };
  };
}

describe('a card read first with the fast model', () => {
  let cards: GeneratedCard[];
  const entities = directoryEntities();
  const seen: Seen[] = [];
  const lines: string[] = [];
  const engine = createExtractionEngine({ createOcrWorker: watched(seen), barcodes: false, log: (m) => lines.push(m) });
  const fast = () => seen.filter((s) => s.langPath === fastLangPath());
  const best = () => seen.filter((s) => s.langPath !== fastLangPath());
  const read = (card: GeneratedCard) => engine.extract([{ bytes: new Uint8Array(card.bytes), content_type: card.content_type }], { entities });
  beforeAll(async () => {
    // Tuning families (generated at test time, no image committed).
    cards = await generateCards({ families: 'tuning', count: 4, seed: 202 });
  }, 120_000);
  afterAll(() => engine.close());

  it('is the default: one worker of the fast model beside the two best_int ones', () => {
    expect(seen.map((s) => s.langPath).sort()).toEqual([bundledLangPath(), bundledLangPath(), fastLangPath()].sort());
  });

  it('reads each side whole once with the fast model, and everything after it with best_int', async () => {
    for (const card of cards) {
      const before = fast()[0].modes.length;
      const { fields } = await read(card);
      // Whole sides (no one-line or block mode), global threshold: the first pass only.
      const modes = fast()[0].modes.slice(before);
      expect(modes.length).toBeGreaterThan(0);
      expect(modes.every((m) => m === undefined)).toBe(true);
      expect(fast()[0].thresholds.slice(before).every((t) => t === undefined)).toBe(true);
      // Right, or marked for the desk to check: never a sure wrong value.
      const id = fields.member_id!;
      if (id.value !== card.truth.member_id) expect(id.confidence).toBeLessThan(REVIEW_BELOW);
    }
    // The later readings (re-reads, cross-checks, a second pass) were best_int's.
    expect(best().reduce((n, s) => n + s.modes.length, 0)).toBeGreaterThan(0);
  }, 600_000);

  it('hands over a name the fast model gave surely only after best_int read it alone too', () => {
    // Names and plans have no shape to catch a misread letter: each the fast model gave at or
    // above "check this" is cross-checked by best_int (the checks a card ran are in its log line).
    const checked = lines.filter((l) => /passes \S*check:member_name/.test(l));
    expect(checked.length).toBeGreaterThan(0);
  });
});

describe('the first reading by best_int (firstLangPath: null)', () => {
  it('has only the two best_int workers', async () => {
    const seen: Seen[] = [];
    const engine = createExtractionEngine({ createOcrWorker: watched(seen), barcodes: false, firstLangPath: null });
    await engine.close();
    expect(seen.map((s) => s.langPath)).toEqual([bundledLangPath(), bundledLangPath()]);
  });
});

describe('two readings of a value', () => {
  it('agree on a name whatever the order and case of its words, on a plan whatever its case, on a code only character for character', () => {
    expect(sameReading('member_name', 'BROWN DANIEL', 'Daniel Brown')).toBe(true);
    expect(sameReading('member_name', 'DANIEL BROWN', 'DANTEL BROWN')).toBe(false);
    expect(sameReading('plan_name', 'Pos II', 'POS II')).toBe(true);
    expect(sameReading('plan_name', 'POS IL', 'POS II')).toBe(false);
    expect(sameReading('plan_name', 'PPO Choice', 'Choice PPO')).toBe(false);
    expect(sameReading('member_id', 'W123456789', 'W123456789')).toBe(true);
    expect(sameReading('rx_bin', '616279', '610279')).toBe(false);
  });
});
