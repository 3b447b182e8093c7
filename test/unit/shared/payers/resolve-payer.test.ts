import { describe, expect, it } from 'vitest';
import { directoryEntities, LEGACY_PAYERS, withDirectoryFacts } from '@src/shared/payers/payer-directory';
import { buildPayerIndex, resolvePayer, spellOutPayerBrands } from '@src/shared/payers/payer-search';

const directory = buildPayerIndex(withDirectoryFacts(directoryEntities()));
const name = (r: ReturnType<typeof resolvePayer>) => (r.kind === 'matched' ? r.entry.name : r.kind);

describe('resolvePayer: a schedule’s payer cell in the desk’s directory', () => {
  it('matches a payer id, an alias id, a name or an alternate name written in full, whatever the case', () => {
    expect(name(resolvePayer(directory, '60054'))).toBe('Aetna');
    expect(name(resolvePayer(directory, '87726'))).toBe('UnitedHealthcare');
    expect(name(resolvePayer(directory, 'txbcbs'))).toBe('Blue Cross Blue Shield of Texas');
    expect(name(resolvePayer(directory, 'UNITEDHEALTHCARE'))).toBe('UnitedHealthcare');
    expect(name(resolvePayer(directory, 'aetna'))).toBe('Aetna');
  });

  it('puts a payer that fits several to a person, best first, and finds nothing for a payer not in the directory', () => {
    const blue = resolvePayer(directory, 'Blue Cross');
    expect(blue.kind).toBe('ambiguous');
    if (blue.kind === 'ambiguous') {
      expect(blue.entries.length).toBeGreaterThan(1);
      expect(blue.entries.length).toBeLessThanOrEqual(6);
    }
    expect(resolvePayer(directory, 'Zzyzx Mutual of Nowhere')).toEqual({ kind: 'none' });
    expect(resolvePayer(directory, '')).toEqual({ kind: 'none' });
  });

  it('with a desk that knows few payers, a partial name that fits one of them is that one', () => {
    const few = buildPayerIndex(withDirectoryFacts(LEGACY_PAYERS));
    expect(name(resolvePayer(few, 'BCBS TX'))).toBe('Blue Cross Blue Shield of Texas');
  });
});

describe('brand abbreviations spelled out', () => {
  it('spells out BCBS (with a state code run in or after it) and UHC, and leaves plan words and everyday words alone', () => {
    expect(spellOutPayerBrands('bcbsil')).toBe('blue cross blue shield illinois');
    expect(spellOutPayerBrands('bcbs tx ppo')).toBe('blue cross blue shield texas ppo');
    expect(spellOutPayerBrands('uhc choice plus')).toBe('united healthcare choice plus');
    // "in" after a space is a word, not Indiana; "PPO" and "HMO" stay as printed.
    expect(spellOutPayerBrands('bcbs in your area')).toBe('blue cross blue shield in your area');
    expect(spellOutPayerBrands('bcbsin')).toBe('blue cross blue shield indiana');
    expect(spellOutPayerBrands('blue choice ppo hmo')).toBe('blue choice ppo hmo');
    expect(spellOutPayerBrands('abcbs')).toBe('abcbs');
  });
});
