import { inflateRawSync } from 'node:zlib';
import { DigitalCardFailure } from './digital-card-failure';

/**
 * A SMART Health Card from what a QR code or file carries, up to the decoded JWS: the
 * numeric `shc:/` form (each character of the JWS as two digits, its code minus 45), the
 * older multi-part form `shc:/2/3/…` (assembled when every part is there), the
 * `.smart-health-card` file, or the JWS itself. Signature and trust are `shc-verify.ts`.
 */

/** The spec caps a card's payload well under this; more is a zip bomb, not a card. */
export const MAX_INFLATED_BYTES = 256 * 1024;
/** A numeric QR holds at most ~4,300 digits; a multi-part card is at most a few of them. */
const MAX_DIGITS = 4296 * 20;
/** Base64url and the dot: the highest character a JWS may hold is 'z' (122 = 77 + 45). */
const MAX_PAIR = 77;

export interface DecodedJws {
  header: { alg?: unknown; kid?: unknown; zip?: unknown; [key: string]: unknown };
  payload: Record<string, unknown>;
  /** The bytes the signature covers: `header.payload` as written. */
  signingInput: string;
  signature: Buffer;
}

const NUMERIC = /^shc:\/(?:(\d+)\/(\d+)\/)?([0-9]*)$/;

/** Two digits per character: an odd count or a pair past 'z' is a damaged or truncated code. */
function jwsFromDigits(digits: string): string {
  if (digits.length === 0) throw new DigitalCardFailure('The shc:/ code holds no digits: scan it again.');
  if (digits.length % 2 !== 0) throw new DigitalCardFailure('The shc:/ code has an odd number of digits, so it was read only in part: scan it again.');
  let jws = '';
  for (let i = 0; i < digits.length; i += 2) {
    const pair = Number(digits.slice(i, i + 2));
    if (pair > MAX_PAIR) throw new DigitalCardFailure(`The shc:/ code holds "${digits.slice(i, i + 2)}" at digit ${i + 1}, which no card character encodes (00–77): scan it again.`);
    jws += String.fromCharCode(pair + 45);
  }
  return jws;
}

/**
 * Every `shc:/` chunk in the text (one per QR; a scanner may give several on separate
 * lines), assembled in order. A multi-part card with a part missing names the missing parts.
 */
export function jwsFromShcText(text: string): string {
  const chunks = text.trim().split(/\s+/).filter(Boolean);
  if (chunks.length === 0) throw new DigitalCardFailure('The code is empty.');
  if (chunks.reduce((sum, chunk) => sum + chunk.length, 0) > MAX_DIGITS) throw new DigitalCardFailure('The shc:/ code is longer than any SMART Health Card: it was not read.');
  const parts = new Map<number, string>();
  let total: number | null = null;
  for (const chunk of chunks) {
    const match = NUMERIC.exec(chunk);
    if (!match) {
      throw new DigitalCardFailure(
        chunk.toLowerCase().startsWith('shc:/')
          ? 'The shc:/ code holds characters other than digits (after shc:/ a card is digits only, or shc:/PART/TOTAL/digits): scan it again.'
          : 'Not a SMART Health Card: the code does not start with shc:/.',
      );
    }
    const [, partText, totalText, digits] = match;
    if (partText === undefined) {
      if (chunks.length > 1) throw new DigitalCardFailure('Several shc:/ codes were read at once, not numbered as parts of one card: scan one card at a time.');
      return jwsFromDigits(digits);
    }
    const part = Number(partText);
    const count = Number(totalText);
    if (count < 1 || part < 1 || part > count) throw new DigitalCardFailure(`The shc:/ code says it is part ${part} of ${count}, which cannot be.`);
    if (total !== null && total !== count) throw new DigitalCardFailure('The shc:/ parts were read from different cards (they give different part counts).');
    total = count;
    if (parts.has(part)) throw new DigitalCardFailure(`Part ${part} of the card was read twice.`);
    parts.set(part, digits);
  }
  const missing: number[] = [];
  for (let part = 1; part <= total!; part++) if (!parts.has(part)) missing.push(part);
  if (missing.length) throw new DigitalCardFailure(`The card is in ${total} parts and part${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing: scan every QR code of the card.`);
  return [...parts.keys()].sort((a, b) => a - b).map((part) => jwsFromDigits(parts.get(part)!)).join('');
}

/** A `.smart-health-card` file: `{"verifiableCredential": ["<jws>", …]}`; the first card is read. */
export function jwsFromHealthCardFile(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new DigitalCardFailure('The SMART Health Card file is not JSON.');
  }
  const list = (parsed as { verifiableCredential?: unknown } | null)?.verifiableCredential;
  if (!Array.isArray(list) || typeof list[0] !== 'string') throw new DigitalCardFailure('The SMART Health Card file has no verifiableCredential list of cards.');
  return list[0];
}

function base64url(part: string, what: string): Buffer {
  if (!/^[A-Za-z0-9_-]*$/.test(part)) throw new DigitalCardFailure(`The card's ${what} is not base64url: the code is damaged.`);
  return Buffer.from(part, 'base64url');
}

function jsonObject(bytes: Buffer, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new DigitalCardFailure(`The card's ${what} is not JSON: the code is damaged or truncated.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new DigitalCardFailure(`The card's ${what} is not a JSON object.`);
  return value as Record<string, unknown>;
}

/**
 * The JWS compact form, its payload inflated (header `zip: "DEF"`: raw DEFLATE) with a
 * hard output limit, so a crafted payload cannot fill the desk's memory.
 */
export function decodeJws(jws: string, maxInflatedBytes = MAX_INFLATED_BYTES): DecodedJws {
  const parts = jws.trim().split('.');
  if (parts.length !== 3) throw new DigitalCardFailure(`The card is not a signed JWS (it has ${parts.length} parts, a JWS has 3): the code is damaged or truncated.`);
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = jsonObject(base64url(headerPart, 'header'), 'header');
  let payloadBytes = base64url(payloadPart, 'content');
  if (header.zip === 'DEF') {
    try {
      payloadBytes = inflateRawSync(payloadBytes, { maxOutputLength: maxInflatedBytes });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
        throw new DigitalCardFailure(`The card's content inflates past ${Math.round(maxInflatedBytes / 1024)} KB, more than any health card holds: it was not read.`);
      }
      throw new DigitalCardFailure('The card\'s compressed content is damaged (it does not inflate): scan it again.');
    }
  } else if (header.zip !== undefined) {
    throw new DigitalCardFailure(`The card is compressed with "${String(header.zip)}"; SMART Health Cards use DEF.`);
  }
  return { header, payload: jsonObject(payloadBytes, 'content'), signingInput: `${headerPart}.${payloadPart}`, signature: base64url(signaturePart, 'signature') };
}
