import { describe, expect, it } from 'vitest';
import { isValidNpi } from '@src/shared/npi';
import { SEED_PROVIDERS } from '@src/main/reference/seed-data';

describe('NPI check digit', () => {
  it('accepts the CMS example and every seeded provider', () => {
    expect(isValidNpi('1234567893')).toBe(true);
    for (const p of SEED_PROVIDERS) expect(isValidNpi(p.npi)).toBe(true);
  });
  it('refuses a wrong check digit or shape', () => {
    expect(isValidNpi('1234567890')).toBe(false);
    expect(isValidNpi('123456789')).toBe(false);
    expect(isValidNpi('12345678a3')).toBe(false);
  });
});
