import { describe, expect, it } from 'vitest';
import { parseFaultSpec, seededRandom } from '@src/main/sandbox/fault-injection';

describe('--faults', () => {
  it('parses rates and options', () => {
    expect(parseFaultSpec('500=0.05, 503=0.1,429=0.05,reset=0.02,lost=0.03,slow=0.1,seed=42,slow-ms=2000,retry-after=3')).toEqual({
      rates: { '500': 0.05, '503': 0.1, '429': 0.05, reset: 0.02, lost: 0.03, slow: 0.1 },
      seed: 42,
      slowMs: 2000,
      retryAfterSeconds: 3,
    });
    expect(parseFaultSpec('')).toEqual({ rates: {} });
  });

  it.each([
    ['500', /NAME=NUMBER/],
    ['500=', /NAME=NUMBER/],
    ['500=abc', /NAME=NUMBER/],
    ['500=0.1=2', /NAME=NUMBER/],
    ['teapot=0.1', /unknown "teapot"/],
    ['500=-0.1', /between 0 and 1/],
    ['500=0.7,503=0.7', /at most 1/],
    ['slow=0.1,slow-ms=1.5', /slow-ms must be a whole number/],
    ['seed=-1', /seed must be a whole number/],
  ])('refuses %s and says why', (spec, message) => {
    expect(() => parseFaultSpec(spec)).toThrow(message);
  });
});

describe('seeded randomness', () => {
  it('repeats for a seed, differs between seeds, and stays in [0, 1)', () => {
    const draws = (seed: number) => Array.from({ length: 1000 }, seededRandom(seed));
    expect(draws(3)).toEqual(draws(3));
    expect(draws(3)).not.toEqual(draws(4));
    const values = draws(5);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.05);
  });
});
