import { describe, expect, it } from 'vitest';
import type { LicenceDetails } from '@src/shared/contract';
import { licenceDifferences } from '@src/renderer/src/intake/barcode-reading';

// Issue 27, item 5: a licence scanned for a patient already registered confirms them, or
// names what differs; the record is never changed by it.
const licence: LicenceDetails = { document: 'driver_licence', issuer_id: '636014', aamva_version: 10, family_name: 'OKAFOR', first_name: 'GRACE', middle_name: 'ADAEZE', date_of_birth: '1984-02-29' };

describe('a licence against the patient’s record', () => {
  it('agrees whatever the case and punctuation of the names', () => {
    expect(licenceDifferences(licence, { first_name: 'Grace', last_name: 'Okafor', date_of_birth: '1984-02-29' })).toEqual([]);
    expect(licenceDifferences({ ...licence, family_name: "O'NEIL-SMITH" }, { first_name: 'grace', last_name: 'O’Neil Smith', date_of_birth: '1984-02-29' })).toEqual([]);
  });

  it('names each field that differs, the licence’s value and the record’s', () => {
    expect(licenceDifferences(licence, { first_name: 'Grace', last_name: 'Okafur', date_of_birth: '1984-03-01' })).toEqual([
      'last name Okafor (the record: Okafur)',
      'date of birth 02/29/1984 (the record: 03/01/1984)',
    ]);
    expect(licenceDifferences(licence, { first_name: 'Gracie', last_name: 'Okafor', date_of_birth: '1984-02-29' })).toEqual(['first name Grace (the record: Gracie)']);
  });
});
