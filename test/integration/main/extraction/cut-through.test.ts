import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCards, type GeneratedCard } from '../../../../scripts/generate-cards';
import { createExtractionEngine } from '@src/main/extraction/extraction-engine';
import { directoryEntities } from '@src/shared/payers/payer-directory';

/**
 * A flatbed scan whose vertical streak cuts the card: the card finder takes the region
 * between the streak, the coloured header and the Rx strip for the card. Its border runs
 * through printed words, so the whole photo is read again.
 */
describe('a card region cut through its printing', () => {
  const engine = createExtractionEngine();
  let card: GeneratedCard;
  beforeAll(async () => {
    // A tuning family's flatbed capture (generated, no image committed): tu-028, seed 202
    // (tu-024 before the tuning split had 25 families, tu-023 before it had 21).
    card = (await generateCards({ families: 'tuning', count: 28, seed: 202 }))[27];
  }, 120_000);
  afterAll(() => engine.close());

  it('is read whole: the payer in the header band and the Rx strip below are found', async () => {
    expect(card.style).toMatchObject({ capture: 'flatbed', family: 'knockout-band' });
    const { fields } = await engine.extract([{ bytes: new Uint8Array(card.bytes), content_type: card.content_type }], { entities: directoryEntities() });
    expect(fields.payer_name?.value).toBe(card.truth.payer_name);
    expect(fields.rx_bin?.value).toBe(card.truth.rx_bin);
    expect(fields.rx_pcn?.value).toBe(card.truth.rx_pcn);
    expect(fields.plan_name?.value).toBe(card.truth.plan_name);
  }, 120_000);
});
