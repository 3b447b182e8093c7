/**
 * Driver's licences and state ID cards: the AAMVA DL/ID card design standard's PDF417
 * (versions 1 to 10, 2000 to 2020). Pure: the licence's barcode text in, the details a desk
 * registers a patient with out. The licence number (DAQ) and every other element are read
 * past and never returned: the licence number is not the practice's to keep.
 */

export type Sex = 'male' | 'female' | 'unspecified';

export interface LicenceAddress {
  street: string;
  city?: string;
  state?: string;
  postal_code?: string;
  country?: string;
}

export interface LicenceDetails {
  document: 'driver_licence' | 'id_card';
  /** The issuing jurisdiction's 6-digit issuer identification number (not the licence number). */
  issuer_id: string;
  aamva_version: number;
  family_name: string;
  first_name: string;
  middle_name?: string;
  /** YYYY-MM-DD. */
  date_of_birth: string;
  sex?: Sex;
  address?: LicenceAddress;
}

/** An element missing or unreadable: its AAMVA id and what is wrong, in the desk's words. */
export interface AamvaProblem {
  element: string;
  message: string;
}

export type AamvaResult = { ok: true; details: LicenceDetails } | { ok: false; problems: AamvaProblem[] };

/** The compliance indicator and the file type: "@" LF RS CR "ANSI " (or "AAMVA", version 1). */
// eslint-disable-next-line no-control-regex -- the header's record separator (RS) is part of the standard
const HEADER = /^@[\n\r\x1e ]{0,4}(ANSI |AAMVA)/;

/** Whether a text is an AAMVA licence payload (the header, however a scanner passed its control characters). */
export function isAamvaPayload(text: string): boolean {
  return HEADER.test(text.replace(/^\s+(?=@)/, ''));
}

const CANADIAN_PROVINCES = new Set(['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT']);

const ELEMENT_NAMES: Record<string, string> = {
  DCS: 'family name',
  DAB: 'family name',
  DAC: 'first name',
  DCT: 'given names',
  DAA: 'full name',
  DBB: 'date of birth',
  DBC: 'sex',
};

function named(element: string): string {
  return `${element} (${ELEMENT_NAMES[element] ?? 'element'})`;
}

/** "NONE", "unavl", "unavail": what jurisdictions print where a name part is absent. */
function present(value: string | undefined): string | undefined {
  const v = value?.trim().replace(/\s+/g, ' ');
  if (!v || /^(none|unavl|unavail|unknown|n\/a)$/i.test(v)) return undefined;
  return v;
}

function isoDate(y: string, m: string, d: string): string | null {
  const [yy, mm, dd] = [Number(y), Number(m), Number(d)];
  const date = new Date(Date.UTC(yy, mm - 1, dd));
  if (date.getUTCFullYear() !== yy || date.getUTCMonth() !== mm - 1 || date.getUTCDate() !== dd || yy < 1900) return null;
  return `${y}-${m}-${d}`;
}

/**
 * The elements of the DL or ID subfile. The designators' offsets are used when they point at
 * the subfile; a scanner that typed the payload (keyboard wedge) may have dropped or doubled
 * control characters, so otherwise the subfile is found by its type after the designators.
 */
function subfileElements(data: string, start: number, designators: { type: string; offset: number; length: number }[]): { type: string; elements: Map<string, string> } | null {
  const wanted = designators.find((d) => d.type === 'DL') ?? designators.find((d) => d.type === 'ID');
  if (!wanted) return null;
  let body: string;
  if (data.startsWith(wanted.type, wanted.offset)) body = data.slice(wanted.offset + 2, wanted.offset + wanted.length);
  else {
    const at = data.indexOf(wanted.type, start);
    if (at < 0) return null;
    body = data.slice(at + 2);
  }
  const elements = new Map<string, string>();
  // Elements end at LF (CR ends the subfile; scanners often turn either into the other).
  // eslint-disable-next-line no-control-regex -- RS, as a scanner may pass it
  for (const line of body.split(/[\n\r\x1e]+/)) {
    const m = /^([A-Z]{3})(.*)$/.exec(line);
    if (!m) continue;
    // A later subfile (a jurisdiction's "ZV…") starts with its type before its first element.
    if (!elements.has(m[1])) elements.set(m[1], m[2]);
  }
  return { type: wanted.type, elements };
}

/** Parses an AAMVA DL/ID payload; every problem found is named, nothing half returned. */
export function parseAamva(text: string): AamvaResult {
  const data = text.replace(/^\s+(?=@)/, '');
  const header = HEADER.exec(data);
  if (!header) return { ok: false, problems: [{ element: 'header', message: 'The barcode does not start with the AAMVA header ("@" then "ANSI "): it is not a driver\'s licence or state ID.' }] };
  let at = header[0].length;
  const iin = /^\d{6}/.exec(data.slice(at))?.[0];
  const version = /^\d{2}/.exec(data.slice(at + 6))?.[0];
  if (!iin || !version) return { ok: false, problems: [{ element: 'header', message: 'The AAMVA header is cut short: the issuer number and version are missing (a truncated or damaged barcode).' }] };
  const aamvaVersion = Number(version);
  if (aamvaVersion > 10) return { ok: false, problems: [{ element: 'header', message: `AAMVA version ${aamvaVersion} is not known (versions 1 to 10 are read).` }] };
  at += 8;
  // Version 1 has no jurisdiction version number.
  if (aamvaVersion >= 2) at += 2;
  const entries = Number(/^\d{2}/.exec(data.slice(at))?.[0] ?? NaN);
  if (!Number.isInteger(entries) || entries < 1) return { ok: false, problems: [{ element: 'header', message: 'The AAMVA header names no subfiles (a truncated or damaged barcode).' }] };
  at += 2;
  const designators: { type: string; offset: number; length: number }[] = [];
  for (let i = 0; i < entries; i++) {
    const m = /^([A-Z]{2})(\d{4})(\d{4})/.exec(data.slice(at));
    if (!m) break;
    designators.push({ type: m[1], offset: Number(m[2]), length: Number(m[3]) });
    at += 10;
  }
  const subfile = subfileElements(data, at, designators);
  if (!subfile) return { ok: false, problems: [{ element: 'subfile', message: 'The barcode has no DL or ID subfile: the licence data is missing (a truncated or damaged barcode).' }] };
  const e = subfile.elements;
  const problems: AamvaProblem[] = [];

  // Names: DCS/DAC/DAD (v4 on), DCS + DCT given names (v2, v3), DAB/DAC/DAD or DAA "LAST,FIRST,MIDDLE" (v1).
  let family = present(e.get('DCS')) ?? present(e.get('DAB'));
  let first = present(e.get('DAC'));
  let middle = present(e.get('DAD'));
  if (!first && present(e.get('DCT'))) {
    const given = present(e.get('DCT'))!.split(/\s*,\s*|\s+/).filter(Boolean);
    first = given[0];
    middle = present(given.slice(1).join(' '));
  }
  if ((!family || !first) && present(e.get('DAA'))) {
    const parts = present(e.get('DAA'))!.split(/\s*,\s*/);
    family ??= present(parts[0]);
    first ??= present(parts[1]);
    middle ??= present(parts.slice(2).join(' '));
  }
  if (!family) problems.push({ element: aamvaVersion >= 2 ? 'DCS' : 'DAB', message: `${named(aamvaVersion >= 2 ? 'DCS' : 'DAB')} is missing.` });
  if (!first) problems.push({ element: aamvaVersion >= 4 || aamvaVersion === 1 ? 'DAC' : 'DCT', message: `${named(aamvaVersion >= 4 || aamvaVersion === 1 ? 'DAC' : 'DCT')} is missing.` });

  const state = present(e.get('DAJ'))?.toUpperCase();
  const country = present(e.get('DCG'))?.toUpperCase();
  const canadian = country === 'CAN' || (!country && !!state && CANADIAN_PROVINCES.has(state));
  // Version 1 dates are CCYYMMDD everywhere; from version 2 the US writes MMDDCCYY and Canada CCYYMMDD.
  const yearFirst = aamvaVersion === 1 || canadian;
  const dobText = present(e.get('DBB'));
  let dob: string | null = null;
  if (!dobText) problems.push({ element: 'DBB', message: `${named('DBB')} is missing.` });
  else {
    const m = /^\d{8}$/.exec(dobText);
    dob = m ? (yearFirst ? isoDate(dobText.slice(0, 4), dobText.slice(4, 6), dobText.slice(6, 8)) : isoDate(dobText.slice(4, 8), dobText.slice(0, 2), dobText.slice(2, 4))) : null;
    if (!dob) problems.push({ element: 'DBB', message: `${named('DBB')} is not a real date in ${yearFirst ? 'CCYYMMDD' : 'MMDDCCYY'} (${yearFirst ? (aamvaVersion === 1 ? 'AAMVA version 1' : 'a Canadian card') : 'a US card'}).` });
  }
  const sexText = present(e.get('DBC'))?.toUpperCase();
  let sex: Sex | undefined;
  if (sexText) {
    sex = ({ '1': 'male', M: 'male', '2': 'female', F: 'female', '9': 'unspecified', X: 'unspecified' } as Record<string, Sex>)[sexText];
    if (!sex) problems.push({ element: 'DBC', message: `${named('DBC')} must be 1 (male), 2 (female) or 9 (not specified).` });
  }
  if (problems.length > 0) return { ok: false, problems };

  const street = [present(e.get('DAG')), present(e.get('DAH'))].filter(Boolean).join(', ');
  const zip = present(e.get('DAK'));
  const digits = zip?.replace(/\s+/g, '');
  // US ZIP+4 is written as 9 digits, "0000" when the +4 is not known.
  const postal = digits && !canadian && /^\d{9}$/.test(digits) ? (digits.endsWith('0000') ? digits.slice(0, 5) : `${digits.slice(0, 5)}-${digits.slice(5)}`) : zip;
  const details: LicenceDetails = {
    document: subfile.type === 'ID' ? 'id_card' : 'driver_licence',
    issuer_id: iin,
    aamva_version: aamvaVersion,
    family_name: family!,
    first_name: first!,
    date_of_birth: dob!,
  };
  if (middle) details.middle_name = middle;
  if (sex) details.sex = sex;
  if (street) {
    const address: LicenceAddress = { street };
    const city = present(e.get('DAI'));
    if (city) address.city = city;
    if (state) address.state = state;
    if (postal) address.postal_code = postal;
    if (country) address.country = country;
    details.address = address;
  }
  return { ok: true, details };
}
