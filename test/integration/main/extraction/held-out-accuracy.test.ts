import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtractionEngine, type ExtractionEngine } from '@src/main/extraction/extraction-engine';
import { directoryEntities } from '@src/shared/payers/payer-directory';
import { formatDetails, formatScores, heldOutSet, loadRealSet, measure, scoreSet, type Measured } from './card-measure';

/**
 * The measure on cards the extraction was not tuned on: a freshly generated set in
 * the generator's held-out styles (real-card layouts, perspective on textured desks, video
 * frames, both sides in one image), and, when `COVERDESK_REAL_CARDS` names a folder of
 * real card images with a `truth.json`, those. Both per-field tables are printed; the
 * test holds the line on what must never happen: a wrong value a person is not asked to
 * check.
 */
const REAL = process.env.COVERDESK_REAL_CARDS;
const entities = directoryEntities();
let engine: ExtractionEngine;
let heldOut: Measured[] = [];
let real: Measured[] | null = null;

beforeAll(async () => {
  engine = createExtractionEngine();
  await engine.warmUp();
  // A seed the extraction was never tuned on (tuning used 101), generated at test time.
  heldOut = await measure(engine, await heldOutSet(20, 4242), entities);
  if (REAL && fs.existsSync(REAL)) real = await measure(engine, loadRealSet(REAL), entities);
}, 300_000);

afterAll(async () => {
  await engine?.close();
});

describe('extraction on cards it was not tuned on', () => {
  it('prints the per-field table of the held-out generated set; no wrong value above the check-this threshold', () => {
    const rows = scoreSet(heldOut);
    console.log(`\nHeld-out generated cards (${heldOut.length}):\n${formatScores(rows)}\n`);
    const slips = heldOut.filter((r) => scoreSet([r]).some((row) => row.wrongHigh + row.extraHigh > 0));
    if (slips.length > 0) console.log(formatDetails(slips));
    // The bar: every wrong value is one a person is asked to check.
    expect(rows.reduce((n, r) => n + r.wrongHigh + r.extraHigh, 0)).toBe(0);
    expect(rows.find((r) => r.field === 'member_id')!.right / heldOut.length).toBeGreaterThanOrEqual(0.95);
  });

  it.runIf(REAL)('prints the per-field table of the real-world cards; no wrong value above the threshold', () => {
    expect(real, `COVERDESK_REAL_CARDS=${REAL} has no truth.json`).not.toBeNull();
    const rows = scoreSet(real!);
    console.log(`\nReal-world cards (${real!.length}):\n${formatScores(rows)}\n`);
    expect(rows.reduce((n, r) => n + r.wrongHigh + r.extraHigh, 0)).toBe(0);
  });
});
