import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GeneratedCard } from '../../../../scripts/generate-cards';
import { createExtractionEngine } from '@src/main/extraction/extraction-engine';
import { directoryEntities } from '@src/shared/payers/payer-directory';
import { tuningCard } from './tuning-card';

/**
 * A flatbed scan whose dust streak runs down through the card's printing (through the payer's
 * name, the captions and the Rx captions at the card's left): the card finder takes the region
 * right of the streak for the card. Its border runs through printed words, so the whole photo is
 * read again; without that second reading the payer and the plan are lost.
 */
describe('a card region cut through its printing', () => {
  const logs: string[] = [];
  const engine = createExtractionEngine({ log: (message) => logs.push(message) });
  let card: GeneratedCard;
  beforeAll(async () => {
    // Seed 202's first flatbed capture of copay-two-column, whose streak was seen to cut the card
    // (the flatbed knockout-band card picked before had its streak beside the card and never
    // took the second reading).
    card = await tuningCard(202, 'copay-two-column', 'flatbed', 'whose streak cuts the card');
  }, 120_000);
  afterAll(() => engine.close());

  it('is read whole: the payer over the streak and the plan beside it are found', async () => {
    const { fields } = await engine.extract([{ bytes: new Uint8Array(card.bytes), content_type: card.content_type }], { entities: directoryEntities() });
    // The second reading of the whole photo is what this guards; a card that no longer takes it
    // guards nothing.
    expect(logs.join('\n')).toMatch(/passes [^\n]*whole:/);
    expect(fields.payer_name?.value).toBe(card.truth.payer_name);
    expect(fields.plan_name?.value).toBe(card.truth.plan_name);
    expect(fields.rx_bin?.value).toBe(card.truth.rx_bin);
    expect(fields.rx_pcn?.value).toBe(card.truth.rx_pcn);
  }, 120_000);
});
