import { describe, expect, it } from 'vitest';
import { calibrate, formatCalibration, formatFamilies, scoreSet, splitByFamilies, type Measured } from './card-measure';

const result = (family: string, truth: Measured['truth'], fields: Measured['fields']): Measured => ({ file: `${family}.png`, family, truth, fields, ms: 1 });

describe('card-measure: per family and calibration', () => {
  const results = [
    result('dental-ppo', { member_id: 'W123', payer_name: 'Delta Dental of Minnesota', rx_bin: '' }, { member_id: { value: 'W123', confidence: 0.95 }, payer_name: { value: 'Delta Dental of Minnesota', confidence: 0.55 } }),
    result('dental-ppo', { member_id: 'W999', payer_name: 'Delta Dental of Minnesota' }, { member_id: { value: 'W998', confidence: 0.85 } }),
    // A pharmacy-only card names no medical payer: a payer given there is wrong.
    result('pharmacy-only-pbm', { member_id: 'A1', payer_name: '' }, { member_id: { value: 'A1', confidence: 0.45 }, payer_name: { value: 'Express Scripts', confidence: 0.9 } }),
    // A real card's back: no payer in the truth says nothing about the payer.
    result('real', { member_id: 'Z1' }, { member_id: { value: 'Z1', confidence: 0.72 }, payer_name: { value: 'Aetna', confidence: 0.9 } }),
  ];

  it('puts every value given in its confidence bucket, and counts the wrong ones at or above 0.8', () => {
    const c = calibrate(results);
    const bucket = (low: number) => c.buckets.find((b) => b.low === low)!;
    expect(bucket(0)).toMatchObject({ given: 1, right: 1 });
    expect(bucket(0.5)).toMatchObject({ given: 1, right: 1 });
    expect(bucket(0.7)).toMatchObject({ given: 1, right: 1 });
    expect(bucket(0.8)).toMatchObject({ given: 1, right: 0 });
    expect(bucket(0.9)).toMatchObject({ given: 2, right: 1 });
    expect(c.wrongAtOrAbove08).toBe(2);
    expect(formatCalibration(c)).toContain('wrong values at or above 0.8: 2');
    expect(formatCalibration(c)).toMatch(/0\.9–1\.0\s+2\s+1\s+50%/);
  });

  it("counts a payer given for a card whose truth says '' as an extra above the threshold", () => {
    expect(scoreSet(results).find((r) => r.field === 'payer_name')!.extraHigh).toBe(1);
  });

  it('prints one line per family: fields right out of fields printed', () => {
    const lines = formatFamilies(results).split('\n');
    expect(lines.find((l) => l.startsWith('dental-ppo'))).toMatch(/2\/4\s+50%\s+\(2 cards, 1 wrong ≥thr\)/);
    expect(lines.find((l) => l.startsWith('pharmacy-only-pbm'))).toMatch(/1\/1\s+100%\s+\(1 cards, 1 wrong ≥thr\)/);
  });
});

describe('card-measure: train and validation families apart', () => {
  it('puts the named families in validation and every other card in train', () => {
    const r = (family: string | undefined): Measured => ({ file: `${family}.png`, family, truth: {}, fields: {}, ms: 1 });
    const [[trainName, train], [validationName, validation]] = splitByFamilies([r('a'), r('b'), r('c'), r(undefined)], new Set(['b', 'c']));
    expect([trainName, validationName]).toEqual(['train', 'validation']);
    expect(train.map((x) => x.family)).toEqual(['a', undefined]);
    expect(validation.map((x) => x.family)).toEqual(['b', 'c']);
  });
});
