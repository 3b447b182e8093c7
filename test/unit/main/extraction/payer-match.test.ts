import { describe, expect, it } from 'vitest';
import { matchPayer } from '../../../../src/main/extraction/payer-match';
import { SEED_CLEARINGHOUSE_ENTITIES } from '../../../../src/main/sandbox/seed-data';

const payer = (text: string) => matchPayer(text, SEED_CLEARINGHOUSE_ENTITIES)?.entity.name;

describe('payer matched against the known clearinghouse entities', () => {
  it('matches the way payers print their own names', () => {
    expect(payer('aetna\nChoice POS II')).toBe('Aetna');
    expect(payer('BlueCross BlueShield\nof Texas')).toBe('Blue Cross Blue Shield of Texas');
    expect(payer('BLUECROSS BLUESHIELD\nOF TEXAS')).toBe('Blue Cross Blue Shield of Texas');
    expect(payer('United\nHealthcare')).toBe('UnitedHealthcare');
    expect(payer('OXFORD\nHEALTH PLANS')).toBe('Oxford Health Plans');
    expect(payer('MOLINA\nHEALTHCARE')).toBe('Molina Healthcare of California');
    expect(payer('Cigna Healthcare')).toBe('Cigna');
  });

  it('allows one misread letter in a long name', () => {
    expect(payer('UnitedHea1thcare')).toBe('UnitedHealthcare');
    expect(payer('Ambeter')).toBe('Ambetter');
  });

  it('needs the brand: a generic "Healthcare" is nobody', () => {
    expect(payer('Healthcare\nMember Services')).toBeUndefined();
    expect(payer('')).toBeUndefined();
  });

  it('takes the entity list as input', () => {
    const entities = [{ id: 'che_x', name: 'Acme Mutual', payer_id: '1' }];
    expect(matchPayer('ACME MUTUAL', entities)?.entity.id).toBe('che_x');
    expect(matchPayer('aetna', entities)).toBeNull();
  });
});
