import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GeneratedCard } from '../../../../scripts/generate-cards';
import { createExtractionEngine } from '@src/main/extraction/extraction-engine';
import { directoryEntities } from '@src/shared/payers/payer-directory';
import { tuningCard } from './tuning-card';

/**
 * A flatbed scan of a card printed on a paper form: each field in a ruled box, its caption in
 * the box's corner and its value under it. With the rules in place tesseract's layout read only
 * the header and the footer (the payer, no member id, name, group or Rx code: seen before the
 * erased reading existed), so the card is read once more with its rules erased, filling what
 * the other readings missed. Real tesseract, no mocks.
 */
describe('a card whose fields each sit in a ruled box', () => {
  const logs: string[] = [];
  const engine = createExtractionEngine({ log: (message) => logs.push(message) });
  let card: GeneratedCard;
  beforeAll(async () => {
    card = await tuningCard(505, 'paper-form-boxes', 'flatbed', 'whose boxed fields the reading with rules misses');
  }, 120_000);
  afterAll(() => engine.close());

  it('reads the values inside the boxes', async () => {
    const { fields } = await engine.extract([{ bytes: new Uint8Array(card.bytes), content_type: card.content_type }], { entities: directoryEntities() });
    // The reading without the rules is what this guards: a card that no longer needs it guards nothing.
    expect(logs.join('\n')).toMatch(/passes [^\n]*unruled/);
    for (const field of ['member_id', 'member_name', 'group_number', 'plan_name', 'rx_bin', 'rx_pcn', 'rx_group'] as const) expect(fields[field]?.value, field).toBe(card.truth[field]);
  }, 120_000);
});
