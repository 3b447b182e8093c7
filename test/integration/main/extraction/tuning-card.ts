import { generateCards, type CardStyle, type GeneratedCard } from '../../../../scripts/generate-cards';

/**
 * A seed's first tuning card of a layout family and a capture, chosen by what the generator
 * reports, not by its number (numbers shift whenever a family is added). Fails with `why` the
 * card was picked when the seed no longer has one, so a test cannot pass on another card.
 */
export async function tuningCard(seed: number, family: string, capture: CardStyle['capture'], why: string): Promise<GeneratedCard> {
  const cards = await generateCards({ families: 'tuning', count: 30, seed });
  const found = cards.find((c) => c.style.family === family && c.style.capture === capture);
  if (!found) throw new Error(`seed ${seed} no longer has a ${capture} ${family} card: pick another ${why}`);
  return found;
}
