import { describe, expect, it } from 'vitest';
import { parseAamva } from '@src/shared/barcodes/aamva';
import { aamvaPayload, STANDARD_SAMPLE } from '../../../../scripts/barcode-payloads';

/** The AAMVA DL/ID card design standard (2020), Annex D: the example barcode, as printed there (LF, RS, CR written out). */
const STANDARD_EXAMPLE =
  '@\n\x1e\rANSI 636000100002DL00410278ZV03190008DLDAQT64235789\nDCSSAMPLE\nDDEN\nDACMICHAEL\nDDFN\nDADJOHN\nDDGN\nDCUJR\nDCAD\nDCBK\nDCDPH\nDBD06062019\nDBB06061986\nDBA12102024\nDBC1\nDAU068 in\nDAYBRO\nDAG2300 WEST BROAD STREET\nDAIRICHMOND\nDAJVA\nDAK232690000  \nDCF2424244747474786102204\nDCGUSA\nDCK123456789\nDDAF\nDDB06062018\nDDC06062020\nDDD1\rZVZVA01\r';

describe('parseAamva', () => {
  it("reads the standard's own example: names, date of birth (MMDDCCYY), sex, address; never the licence number", () => {
    const result = parseAamva(STANDARD_EXAMPLE);
    expect(result).toEqual({
      ok: true,
      details: {
        document: 'driver_licence',
        issuer_id: '636000',
        aamva_version: 10,
        family_name: 'SAMPLE',
        first_name: 'MICHAEL',
        middle_name: 'JOHN',
        date_of_birth: '1986-06-06',
        sex: 'male',
        address: { street: '2300 WEST BROAD STREET', city: 'RICHMOND', state: 'VA', postal_code: '23269', country: 'USA' },
      },
    });
    expect(JSON.stringify(result)).not.toContain('T64235789');
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])('reads version %i (its name elements and date format)', (version) => {
    const result = parseAamva(aamvaPayload(STANDARD_SAMPLE, { version }));
    expect(result.ok && result.details).toMatchObject({ aamva_version: version, family_name: 'SAMPLE', first_name: 'MICHAEL', middle_name: 'JOHN', date_of_birth: '1986-06-06', sex: 'male' });
  });

  it('reads a Canadian card, whose dates are CCYYMMDD from version 2 on, and an ID card subfile', () => {
    const result = parseAamva(aamvaPayload({ ...STANDARD_SAMPLE, country: 'CAN', state: 'ON', zip: 'M5V 2T6' }, { version: 8, subfile: 'ID' }));
    expect(result.ok && result.details).toMatchObject({ document: 'id_card', date_of_birth: '1986-06-06', address: { postal_code: 'M5V 2T6', country: 'CAN' } });
  });

  it('reads a payload a keyboard-wedge scanner typed, its control characters turned into line breaks', () => {
    const typed = aamvaPayload(STANDARD_SAMPLE).replaceAll('\r', '\n').replaceAll('\x1e', '\n');
    const result = parseAamva(typed);
    expect(result.ok && result.details.family_name).toBe('SAMPLE');
  });

  it('names each missing element (family name, first name, date of birth) and returns nothing else', () => {
    const result = parseAamva(aamvaPayload(STANDARD_SAMPLE, { drop: ['DCS', 'DAC', 'DBB'] }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => p.element)).toEqual(['DCS', 'DAC', 'DBB']);
    expect(result.problems[2].message).toMatch(/DBB \(date of birth\) is missing/);
  });

  it('names an invalid date of birth with the format it must have', () => {
    const result = parseAamva(aamvaPayload(STANDARD_SAMPLE, { dobText: '13451986' }));
    expect(result).toEqual({ ok: false, problems: [{ element: 'DBB', message: expect.stringMatching(/DBB \(date of birth\) is not a real date in MMDDCCYY \(a US card\)/) }] });
  });

  it('refuses a truncated payload, a payload without the DL/ID subfile, and a text that is not AAMVA, each with its reason', () => {
    expect(parseAamva('@\n\x1e\rANSI 6360')).toEqual({ ok: false, problems: [{ element: 'header', message: expect.stringMatching(/cut short/) }] });
    expect(parseAamva('@\n\x1e\rANSI 636000100001ZV00310008ZVZVA01\r')).toEqual({ ok: false, problems: [{ element: 'subfile', message: expect.stringMatching(/no DL or ID subfile/) }] });
    expect(parseAamva('hello')).toEqual({ ok: false, problems: [{ element: 'header', message: expect.stringMatching(/not a driver's licence/) }] });
    expect(parseAamva('@\n\x1e\rANSI 636000990002')).toEqual({ ok: false, problems: [{ element: 'header', message: expect.stringMatching(/version 99 is not known/) }] });
  });

  it('refuses a sex element that is not 1, 2 or 9', () => {
    const bad = aamvaPayload(STANDARD_SAMPLE).replace('DBC1', 'DBC7');
    expect(parseAamva(bad)).toEqual({ ok: false, problems: [{ element: 'DBC', message: expect.stringMatching(/DBC \(sex\) must be 1/) }] });
  });
});
