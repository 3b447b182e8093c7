import { beforeAll, describe, expect, it } from 'vitest';
import { generateCards, type GeneratedCard } from '../../../../scripts/generate-cards';
import { createExtractionEngine } from '@src/main/extraction/extraction-engine';
import { createOcrWorker, type OcrWorker, type OcrWorkerOptions } from '@src/main/extraction/ocr-worker';
import { directoryEntities } from '@src/shared/payers/payer-directory';
import { REVIEW_BELOW } from '@src/shared/review-threshold';

/**
 * A name or a plan has no shape or check digit: one letter misread leaves another name ("TERESA
 * J MORALES" read without its J at 0.90, tuning seed 707). Read only fairly surely, it is read a
 * second time alone, as the codes are, and two readings that disagree put it under "check
 * this". Real tesseract workers; where the test needs the second reading to disagree, the
 * wrapper changes one letter of that reading's words, the way the OCR misreads a letter (a
 * real misreading cannot be made to happen on demand).
 */
describe("a member's name or a plan read only fairly surely", () => {
  let card: GeneratedCard;
  let planCard: GeneratedCard;
  beforeAll(async () => {
    // Tuning seed 202's first card: "TERESA ANDERSON" read at 0.90; its sixteenth: "Choice Plus PPO" at 0.86.
    const cards = await generateCards({ families: 'tuning', count: 16, seed: 202 });
    card = cards[0];
    planCard = cards[15];
  }, 120_000);

  const read = async (secondReading: (words: string[]) => string[], which = card) => {
    const makeWorker = (options: OcrWorkerOptions): OcrWorker => {
      const real = createOcrWorker(options);
      return {
        start: () => real.start(),
        close: () => real.close(),
        async recognize(image, size, params) {
          const page = await real.recognize(image, size, params);
          // A value read alone is one line (mode 7): the second readings.
          if (params?.tessedit_pageseg_mode !== '7') return page;
          return { ...page, lines: page.lines.map((line) => ({ ...line, words: line.words.map((w, i, all) => ({ ...w, text: secondReading(all.map((x) => x.text))[i] })) })) };
        },
      };
    };
    const logged: string[] = [];
    const engine = createExtractionEngine({ createOcrWorker: makeWorker, barcodes: false, log: (m) => logged.push(m) });
    try {
      const { fields } = await engine.extract([{ bytes: new Uint8Array(which.bytes), content_type: which.content_type }], { entities: directoryEntities() });
      return { fields, passes: logged.find((m) => m.includes('passes')) ?? '' };
    } finally {
      await engine.close();
    }
  };

  it('is read again alone, and kept as sure as it was when both readings agree', async () => {
    const { fields, passes } = await read((words) => words);
    expect(fields.member_name?.value).toBe(card.truth.member_name);
    expect(fields.member_name!.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
    expect(passes).toContain('check:member_name');
  }, 120_000);

  it('is put under "check this" when the second reading reads one letter otherwise', async () => {
    const first = card.truth.member_name!.split(' ')[0];
    // The card prints "ANDERSON/TERESA": its first name's last letter read otherwise.
    const { fields } = await read((words) => words.map((w) => w.replace(new RegExp(first, 'i'), `${first.slice(0, -1)}X`)));
    // The first reading stands (nothing says which is right): a person checks it.
    expect(fields.member_name?.value).toBe(card.truth.member_name);
    expect(fields.member_name!.confidence).toBeLessThan(REVIEW_BELOW);
  }, 120_000);

  it('and so is a plan: "Choice Plus PPO" read "Choice Phis PPO" at 0.88 (tuning seed 1414) has no shape to catch it', async () => {
    const same = await read((words) => words, planCard);
    expect(same.fields.plan_name?.value).toBe(planCard.truth.plan_name);
    expect(same.fields.plan_name!.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
    expect(same.passes).toContain('check:plan_name');
    const differs = await read((words) => words.map((w) => w.replace(/^Plus$/, 'Phis')), planCard);
    expect(differs.fields.plan_name?.value).toBe(planCard.truth.plan_name);
    expect(differs.fields.plan_name!.confidence).toBeLessThan(REVIEW_BELOW);
  }, 240_000);
});
