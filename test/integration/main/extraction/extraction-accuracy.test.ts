import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCardSet, type GeneratedCard } from '../../../../scripts/generate-cards';
import { createExtractionEngine, type ExtractionEngine } from '@src/main/extraction/extraction-engine';
import { SEED_CLEARINGHOUSE_ENTITIES } from '@src/main/reference/seed-data';
import type { ExtractedFieldName, ExtractedFields } from '@src/shared/contract';
import { makeTempDir } from '@test/support/temp-dir';
import { formatTable, isRight, scoreFields } from './accuracy-table';

/** The bar: ids and Rx fields exact on 95% of cards, names 90%, payer matched 90%. */
const GOALS: Partial<Record<ExtractedFieldName, number>> = {
  member_id: 0.95,
  group_number: 0.95,
  rx_bin: 0.95,
  rx_pcn: 0.95,
  rx_group: 0.95,
  member_name: 0.9,
  payer_name: 0.9,
};

let temp: ReturnType<typeof makeTempDir>;
let engine: ExtractionEngine;
let cards: GeneratedCard[];
const results: { file: string; truth: GeneratedCard['truth']; fields: ExtractedFields }[] = [];

beforeAll(async () => {
  temp = makeTempDir('coverdesk-cards-');
  // Generated at test time from the seeded generator: no image is checked in.
  cards = await writeCardSet(temp.dir, { count: 40, seed: 7 });
  engine = createExtractionEngine();
  await engine.warmUp();
  for (const card of cards) {
    const bytes = new Uint8Array(fs.readFileSync(path.join(temp.dir, card.file)));
    const { fields } = await engine.extract([{ bytes, content_type: card.content_type }], { entities: SEED_CLEARINGHOUSE_ENTITIES });
    results.push({ file: card.file, truth: card.truth, fields });
  }
}, 240_000);

afterAll(async () => {
  await engine?.close();
  temp?.cleanup();
});

describe('on-device extraction on the generated card set', () => {
  it('covers the variety the issue asks for', () => {
    expect(cards.length).toBeGreaterThanOrEqual(40);
    const styles = cards.map((c) => c.style);
    expect(new Set(styles.map((s) => s.font)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(styles.map((s) => s.layout)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(styles.map((s) => s.labels)).size).toBe(3);
    expect(new Set(cards.map((c) => c.payer_entity_id)).size).toBe(SEED_CLEARINGHOUSE_ENTITIES.length);
    expect(styles.some((s) => s.capture === 'photo' && Math.abs(s.rotation_deg) > 3)).toBe(true);
    expect(styles.some((s) => s.exif_orientation !== null)).toBe(true);
    expect(styles.some((s) => s.blur_sigma >= 0.8)).toBe(true);
    expect(styles.some((s) => s.noise >= 15)).toBe(true);
    expect(styles.some((s) => s.jpeg_quality !== null && s.jpeg_quality < 50)).toBe(true);
  });

  it('reads each field as well as the issue requires (per-field accuracy table)', () => {
    const scores = scoreFields(results);
    console.log(`\nOn-device extraction, ${results.length} generated cards (seed 7):\n${formatTable(scores, GOALS)}\n`);
    const misses = results.flatMap((r) => scores.filter((s) => !isRight(s.field, r.fields[s.field]?.value, r.truth[s.field])).map((s) => `${r.file} ${s.field}`));
    if (misses.length > 0) console.log(`Missed: ${misses.join(', ')}`);
    for (const score of scores) {
      const goal = GOALS[score.field];
      if (goal !== undefined) expect(score.share, `${score.field} accuracy`).toBeGreaterThanOrEqual(goal);
    }
  });

  it('gives every field a confidence between 0 and 1, lower on the ones it got wrong', () => {
    const right: number[] = [];
    const wrong: number[] = [];
    for (const r of results) {
      for (const [field, value] of Object.entries(r.fields) as [ExtractedFieldName, { value: string; confidence: number }][]) {
        expect(value.confidence).toBeGreaterThanOrEqual(0);
        expect(value.confidence).toBeLessThanOrEqual(1);
        if (field === 'plan_name' || field === 'member_name') continue;
        (value.value === r.truth[field] ? right : wrong).push(value.confidence);
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    if (wrong.length > 0) expect(mean(wrong)).toBeLessThan(mean(right));
  });
});
