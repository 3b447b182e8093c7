import { describe, expect, it } from 'vitest';
import { isCaption, isOtherPrint, isSentence } from '@src/main/extraction/printed-text';

describe('text a card prints that is never a value', () => {
  it('knows captions in English and Spanish, alone or side by side', () => {
    // CMS's Medicare card prints every caption in both languages.
    expect(isCaption('Name/Nombre')).toBe(true);
    expect(isCaption('Nombre / Name')).toBe(true);
    expect(isCaption('Medicare Number/Número de Medicare')).toBe(true);
    expect(isCaption('Entitled to/Con derecho a')).toBe(true);
    expect(isCaption('Número de identificación del miembro')).toBe(true);
    expect(isCaption('JOHN L SMITH')).toBe(false);
    expect(isCaption('Choice Plus')).toBe(false);
  });

  it('knows sentences: notices in capitals or in sentence case', () => {
    expect(isSentence('Prior approval required for all inpatient admissions')).toBe(true);
    expect(isSentence('PRIOR AUTHORIZATION REQUIRED FOR IMAGING')).toBe(true);
    expect(isSentence('Call before you visit')).toBe(true);
    expect(isSentence('must obtain prior approval')).toBe(true);
    expect(isSentence('MARIA DE LA CRUZ')).toBe(false);
    expect(isSentence('Jennifer R Fitzgerald')).toBe(false);
    expect(isSentence('UnitedHealthcare Choice Plus')).toBe(false);
  });

  it('knows phones, web and mail addresses and amounts', () => {
    for (const text of ['1-800-555-0100', '(877) 842-3210', 'www.bcbstx.com', 'uhc.com/members', 'help@plan.org', 'Office $25', 'Coinsurance 20%']) expect(isOtherPrint(text), text).toBe(true);
    expect(isOtherPrint('W123456789')).toBe(false);
  });
});
