import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCards, type GeneratedCard } from '../../../../scripts/generate-cards';
import { createExtractionEngine } from '@src/main/extraction/extraction-engine';
import { directoryEntities } from '@src/shared/payers/payer-directory';

/**
 * Where a card's time goes (issue 25): the engine's `profile` option names each step it
 * ran (what `card-measure.ts --profile` tabulates), and profiling changes nothing read.
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

  it('reports each step it ran, each OCR pass by name', async () => {
    expect(card.style.family).toBe('values-below-captions');
    const { fields } = await engine.extract([{ bytes: new Uint8Array(card.bytes), content_type: card.content_type }], { entities: directoryEntities() });
    const ran = steps.map((s) => s.stage);
    expect(ran).toEqual(expect.arrayContaining(['total', 'prepare:decode', 'prepare:deskew-flatten', 'ocr:global', 'parse+payer']));
    expect(steps.every((s) => Number.isFinite(s.ms) && s.ms >= 0)).toBe(true);
    // Its payer match is unsure (under 0.6), which calls for the local-threshold pass.
    expect(fields.payer_name?.confidence).toBeLessThan(0.6);
    expect(ran.filter((stage) => stage.startsWith('ocr:') && !['ocr:reread', 'ocr:reread-name', 'ocr:cross-check'].includes(stage))).toEqual(['ocr:global', 'ocr:local']);
    // What the card prints, read right.
    for (const field of ['member_id', 'member_name', 'payer_name', 'plan_name', 'rx_bin', 'rx_group', 'group_number'] as const) expect(fields[field]?.value).toBe(card.truth[field]);
  }, 120_000);
});
