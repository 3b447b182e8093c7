/**
 * Barcode payloads for test material, built from the specifications' own layouts: the AAMVA
 * DL/ID card design standard's example (Annex D, "MICHAEL JOHN SAMPLE" of Virginia's
 * sample IIN 636000) and the health card track layout (INCITS 284). Fictional people only.
 */

export interface LicencePerson {
  family: string;
  first: string;
  middle?: string;
  /** YYYY-MM-DD. */
  dob: string;
  sex: 'male' | 'female';
  street: string;
  city: string;
  state: string;
  zip: string;
  /** The licence number: in the barcode, as on every licence; the desk must never keep it. */
  number: string;
  country?: 'USA' | 'CAN';
}

export const STANDARD_SAMPLE: LicencePerson = {
  family: 'SAMPLE',
  first: 'MICHAEL',
  middle: 'JOHN',
  dob: '1986-06-06',
  sex: 'male',
  street: '2300 WEST BROAD STREET',
  city: 'RICHMOND',
  state: 'VA',
  zip: '232690000',
  number: 'T64235789',
};

function mmddccyy(iso: string): string {
  return `${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(0, 4)}`;
}

function ccyymmdd(iso: string): string {
  return iso.replaceAll('-', '');
}

/**
 * An AAMVA payload: header, subfile designators with their real offsets and lengths, the DL
 * subfile and a jurisdiction subfile. `version`: 1 (AAMVA 2000: DAA full name, CCYYMMDD,
 * sex M/F, no jurisdiction version), 3 (DCS + DCT given names), or 4 to 10 (DCS, DAC, DAD).
 * `drop`: element ids left out (bad-input tests).
 */
export function aamvaPayload(p: LicencePerson, options: { version?: number; subfile?: 'DL' | 'ID'; drop?: string[]; dobText?: string } = {}): string {
  const version = options.version ?? 10;
  const canadian = p.country === 'CAN';
  const date = (iso: string) => (version === 1 || canadian ? ccyymmdd(iso) : mmddccyy(iso));
  const elements: [string, string][] =
    version === 1
      ? [
          ['DAQ', p.number],
          ['DAA', [p.family, p.first, p.middle].filter(Boolean).join(',')],
          ['DAG', p.street],
          ['DAI', p.city],
          ['DAJ', p.state],
          ['DAK', p.zip],
          ['DBB', options.dobText ?? date(p.dob)],
          ['DBC', p.sex === 'male' ? 'M' : 'F'],
          ['DBA', '20300101'],
        ]
      : [
          ['DAQ', p.number],
          ['DCS', p.family],
          ['DDE', 'N'],
          ...(version <= 3 ? ([['DCT', [p.first, p.middle].filter(Boolean).join(',')]] as [string, string][]) : ([['DAC', p.first], ['DDF', 'N'], ['DAD', p.middle ?? 'NONE'], ['DDG', 'N']] as [string, string][])),
          ['DCA', 'D'],
          ['DCB', 'K'],
          ['DCD', 'PH'],
          ['DBD', date('2019-06-06')],
          ['DBB', options.dobText ?? date(p.dob)],
          ['DBA', date('2030-12-10')],
          ['DBC', p.sex === 'male' ? '1' : '2'],
          ['DAU', '068 in'],
          ['DAY', 'BRO'],
          ['DAG', p.street],
          ['DAI', p.city],
          ['DAJ', p.state],
          ['DAK', p.zip.padEnd(11, ' ')],
          ['DCF', '2424244747474786102204'],
          ['DCG', p.country ?? 'USA'],
          ['DCK', '123456789'],
          ['DDA', 'F'],
          ['DDB', date('2018-06-06')],
        ];
  const kept = elements.filter(([id]) => !(options.drop ?? []).includes(id));
  const type = options.subfile ?? 'DL';
  const subfiles = [`${type}${kept.map(([id, v]) => `${id}${v}`).join('\n')}\r`, 'ZVZVA01\r'];
  const iin = canadian ? '636012' : '636000';
  const prefix = `@\n\x1e\r${version === 1 ? 'AAMVA' : 'ANSI '}${iin}${String(version).padStart(2, '0')}${version === 1 ? '' : '00'}${String(subfiles.length).padStart(2, '0')}`;
  let offset = prefix.length + subfiles.length * 10;
  let designators = '';
  for (const [i, body] of subfiles.entries()) {
    designators += `${i === 0 ? type : 'ZV'}${String(offset).padStart(4, '0')}${String(body.length).padStart(4, '0')}`;
    offset += body.length;
  }
  return prefix + designators + subfiles.join('');
}

/** The health card track layout (INCITS 284): issuer 80840 + 5 digits, the cardholder id, FAMILY/GIVEN, no expiry, the date of birth. */
export function payerTrackPayload(c: { issuer: string; memberId: string; family: string; given: string; dob?: string }): string {
  return `%B80840${c.issuer}${c.memberId}^${c.family}/${c.given}^^${c.dob ? ccyymmdd(c.dob) : ''}?`;
}
