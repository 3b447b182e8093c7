import { beforeAll, describe, expect, it } from 'vitest';
import { generateCards, type GeneratedCard } from '../../../../scripts/generate-cards';
import { createExtractionEngine } from '@src/main/extraction/extraction-engine';
import { ExtractionFailure } from '@src/main/extraction/extraction-failure';
import { createOcrWorker, type OcrWorker, type OcrWorkerOptions } from '@src/main/extraction/ocr-worker';
import { directoryEntities } from '@src/shared/payers/payer-directory';

/**
 * The `engine_failed` seen under load (issue 25): a host closed while a card was still being
 * read (a card takes tens of seconds at load 16) closed the OCR workers under the reading,
 * and its next recognition failed the card. Real tesseract workers; the wrapper only says
 * when the first recognition has begun.
 */
describe('the card reader closed while a card is being read', () => {
  let card: GeneratedCard;
  beforeAll(async () => {
    // A tuning family's card (generated, no image committed): tu-011, seed 202.
    card = (await generateCards({ families: 'tuning', count: 11, seed: 202 }))[10];
  }, 120_000);

  it('finishes that card first, then refuses new ones with a clear reason', async () => {
    let begun!: () => void;
    const firstRecognition = new Promise<void>((resolve) => (begun = resolve));
    const makeWorker = (options: OcrWorkerOptions): OcrWorker => {
      const real = createOcrWorker(options);
      return {
        start: () => real.start(),
        close: () => real.close(),
        recognize(image, size, params) {
          begun();
          return real.recognize(image, size, params);
        },
      };
    };
    const logged: string[] = [];
    const engine = createExtractionEngine({ createOcrWorker: makeWorker, barcodes: false, log: (m) => logged.push(m) });
    const reading = engine.extract([{ bytes: new Uint8Array(card.bytes), content_type: card.content_type }], { entities: directoryEntities() });
    await firstRecognition;
    const closed = engine.close();
    const { fields } = await reading;
    await closed;
    expect(fields.member_id?.value).toBe(card.truth.member_id);
    expect(fields.rx_bin?.value).toBe(card.truth.rx_bin);
    expect(logged.filter((m) => m.includes('failed'))).toEqual([]);
    const after = engine.extract([{ bytes: new Uint8Array(card.bytes), content_type: card.content_type }], { entities: directoryEntities() });
    await expect(after).rejects.toBeInstanceOf(ExtractionFailure);
    await expect(after).rejects.toMatchObject({ reason: 'engine_failed', message: expect.stringMatching(/closed/) });
  }, 120_000);
});
