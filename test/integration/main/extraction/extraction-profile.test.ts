import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCards, type GeneratedCard } from '../../../../scripts/generate-cards';
import { createExtractionEngine } from '@src/main/extraction/extraction-engine';
import { directoryEntities } from '@src/shared/payers/payer-directory';

/**
 * Where a card's time goes (issue 25): the engine's `profile` option names each step it
 * ran, and a card read whole the first time, its payer matched less surely than 0.6 (a
 * directory match, not an OCR reading), pays one recognition, not a second reading of the
 * whole card that cannot change the match.
 */
describe('the card reader, profiled', () => {
  const steps: { stage: string; ms: number }[] = [];
  const engine = createExtractionEngine({ profile: (stage, ms) => steps.push({ stage, ms }) });
  let card: GeneratedCard;
  beforeAll(async () => {
    // A tuning family's card (generated, no image committed): tu-011, seed 202.
    card = (await generateCards({ families: 'tuning', count: 11, seed: 202 }))[10];
    await engine.warmUp();
  }, 120_000);
  afterAll(() => engine.close());

  it('reports each step it ran, and reads a card whose payer match alone is unsure in one recognition', async () => {
    expect(card.style.family).toBe('values-below-captions');
    const { fields } = await engine.extract([{ bytes: new Uint8Array(card.bytes), content_type: card.content_type }], { entities: directoryEntities() });
    const ran = steps.map((s) => s.stage);
    expect(ran).toEqual(expect.arrayContaining(['total', 'prepare:decode', 'prepare:deskew-flatten', 'ocr:global', 'parse+payer']));
    expect(steps.every((s) => Number.isFinite(s.ms) && s.ms >= 0)).toBe(true);
    expect(fields.payer_name?.confidence).toBeLessThan(0.6);
    // One reading of the whole card (the closer looks at single values aside).
    expect(ran.filter((stage) => stage.startsWith('ocr:') && !['ocr:reread', 'ocr:reread-name', 'ocr:cross-check'].includes(stage))).toEqual(['ocr:global']);
    // Read as before: what the card prints, unchanged.
    for (const field of ['member_id', 'member_name', 'payer_name', 'plan_name', 'rx_bin', 'rx_group', 'group_number'] as const) expect(fields[field]?.value).toBe(card.truth[field]);
  }, 120_000);
});
