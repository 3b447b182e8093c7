import type { ExtractedFieldName } from '../contract/extraction';

/**
 * A health plan card's machine-readable data (INCITS 284-2011, the layout the WEDI health ID
 * card implementation guide points to), as printed in a 2D barcode: the track 1 layout,
 * "%B" + the card issuer identifier ("80840" then the issuer's 5 digits) + the cardholder id
 * + "^" + "FAMILY/GIVEN MIDDLE" + "^" + the expiry (YYMM, or "^" when none) + discretionary
 * data, whose first 8 characters, when they are a date CCYYMMDD, are the date of birth.
 * Anything else is not this layout and is kept raw by the caller, never guessed at.
 */
const TRACK = /^%?B(80840\d{5})([A-Z0-9-]{1,20})\^([^^]{1,26})\^(\d{4}|\^)?(.*?)\??$/i;

export interface PayerBarcode {
  issuer_id: string;
  fields: Partial<Record<ExtractedFieldName, string>>;
  date_of_birth?: string;
}

export type PayerBarcodeResult = { ok: true; card: PayerBarcode } | { ok: false; reason: string };

/** Whether a text starts like the health card track layout (issuer id 80840…). */
export function isPayerPayload(text: string): boolean {
  return /^%?B80840/i.test(text.trim());
}

export function parsePayerBarcode(text: string): PayerBarcodeResult {
  const m = TRACK.exec(text.trim());
  if (!m) return { ok: false, reason: 'The health card barcode is incomplete: it needs the issuer id (80840 and 5 digits), the cardholder id and the name, separated by "^".' };
  const [, issuer, cardholder, nameText, , discretionary] = m as unknown as [string, string, string, string, string | undefined, string];
  const [family, given] = nameText.trim().split('/').map((s) => s?.trim().replace(/\s+/g, ' '));
  if (!family || !given) return { ok: false, reason: 'The health card barcode\'s name is not "FAMILY/GIVEN": the name field cannot be read.' };
  const card: PayerBarcode = { issuer_id: issuer, fields: { member_id: cardholder.toUpperCase(), member_name: `${given} ${family}`.toUpperCase() } };
  const dob = /^(\d{4})(\d{2})(\d{2})/.exec(discretionary ?? '');
  if (dob) {
    const [y, mo, d] = [Number(dob[1]), Number(dob[2]), Number(dob[3])];
    const date = new Date(Date.UTC(y, mo - 1, d));
    if (y >= 1900 && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d) card.date_of_birth = `${dob[1]}-${dob[2]}-${dob[3]}`;
  }
  return { ok: true, card };
}
