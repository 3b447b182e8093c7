import { isAamvaPayload } from './aamva';
import { isPayerPayload } from './payer-barcode';

/**
 * What a barcode's text is, decided in one place for every way it reaches the desk (a photo,
 * a scanner typing it, the local API): a SMART Health Card, a SMART Health Link (also behind a
 * viewer URL), a driver's licence (AAMVA), a health plan card's layout, or something else,
 * which is kept as it is and never guessed at.
 */
export type PayloadKind = 'shc' | 'shlink' | 'aamva' | 'payer' | 'unknown';

const SHLINK_VIEWER = /^https:\/\/[^\s#]+#shlink:\//i;

export function classifyPayload(text: string): PayloadKind {
  const t = text.trim();
  if (/^shc:\//i.test(t)) return 'shc';
  if (/^shlink:\//i.test(t) || SHLINK_VIEWER.test(t)) return 'shlink';
  if (isAamvaPayload(text)) return 'aamva';
  if (isPayerPayload(t)) return 'payer';
  return 'unknown';
}

/**
 * The prefixes a scanner's typing is recognised by. The AAMVA header starts `@`, then LF
 * (typed as Enter): `@` alone would take a person's e-mail address for a licence.
 */
export const WEDGE_PREFIXES = ['shc:/', 'shlink:/', 'https://', '@\n', '%B80840'] as const;
