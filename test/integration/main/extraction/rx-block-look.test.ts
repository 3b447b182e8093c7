import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GeneratedCard } from '../../../../scripts/generate-cards';
import { createExtractionEngine } from '@src/main/extraction/extraction-engine';
import { directoryEntities } from '@src/shared/payers/payer-directory';
import { tuningCard } from './tuning-card';

/**
 * A flatbed scan of a paper form whose pharmacy block prints RxBIN, PCN and Rx Group side by
 * side: the whole-card reading finds the BIN and the PCN and loses the group's caption and
 * value. The card shows its block (the Rx captions read), so the block is read again alone,
 * enlarged, as one block of text, and the group is found under its own caption. Its PCN,
 * 03200000, the whole reading merges to "032000" (a run of one glyph, held under 0.8): the
 * look reads the run whole and its reading takes the place. Real tesseract, no mocks.
 */
describe('the second look at a pharmacy block', () => {
  const logs: string[] = [];
  const engine = createExtractionEngine({ log: (message) => logs.push(message) });
  let card: GeneratedCard;
  beforeAll(async () => {
    // Seed 202's first flatbed paper-form-boxes card, whose Rx group the whole reading was seen to miss.
    card = await tuningCard(202, 'paper-form-boxes', 'flatbed', 'whose Rx group the whole reading misses');
  }, 120_000);
  afterAll(() => engine.close());

  it('finds the Rx group under its own caption and reads the PCN\'s merged run whole', async () => {
    const { fields } = await engine.extract([{ bytes: new Uint8Array(card.bytes), content_type: card.content_type }], { entities: directoryEntities() });
    // The look is what this guards: a card that no longer needs it guards nothing.
    expect(logs.join('\n')).toMatch(/passes [^\n]*rx-block/);
    expect(fields.rx_group?.value).toBe(card.truth.rx_group);
    expect(fields.rx_bin?.value).toBe(card.truth.rx_bin);
    expect(fields.rx_pcn?.value).toBe(card.truth.rx_pcn);
    expect(fields.rx_pcn!.confidence).toBeLessThan(0.8);
  }, 120_000);
});
