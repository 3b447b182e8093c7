import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeJws, jwsFromShcText } from '@src/main/digital-card/shc-payload';
import { DigitalCardFailure } from '@src/main/digital-card/digital-card-failure';
import { multipartShc, newTestIssuer, numericShc, SPEC_FIXTURES } from '@test/support/digital-card-issuer';

const specJws = readFileSync(path.join(SPEC_FIXTURES, 'example-00-d-jws.txt'), 'utf8').trim();
const specQr = readFileSync(path.join(SPEC_FIXTURES, 'example-00-f-qr-code-numeric-value-0.txt'), 'utf8').trim();

function reason(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DigitalCardFailure);
    return (error as Error).message;
  }
  throw new Error('expected a failure');
}

describe('shc:/ content to a JWS', () => {
  it("decodes the spec's published QR content to its published JWS, and inflates the payload", () => {
    expect(jwsFromShcText(specQr)).toBe(specJws);
    const card = decodeJws(specJws);
    expect(card.header).toMatchObject({ zip: 'DEF', alg: 'ES256', kid: '3Kfdg-XwP-7gXyywtUfUADwBumDOPKMQx-iELL11W9s' });
    expect(card.payload.iss).toBe('https://spec.smarthealth.cards/examples/issuer');
  });

  it('assembles the multi-part form in any order, and names the parts missing', () => {
    const jws = newTestIssuer().card({ resourceType: 'Bundle', entry: [] });
    const parts = multipartShc(jws, 3);
    expect(jwsFromShcText([parts[2], parts[0], parts[1]].join('\n'))).toBe(jws);
    expect(reason(() => jwsFromShcText([parts[0], parts[2]].join('\n')))).toBe('The card is in 3 parts and part 2 is missing: scan every QR code of the card.');
    expect(reason(() => jwsFromShcText(parts[0]))).toMatch(/parts 2, 3 are missing/);
  });

  it('refuses an odd digit count, a pair no character encodes, non-digits and another scheme, each with its reason', () => {
    expect(reason(() => jwsFromShcText(specQr.slice(0, -1)))).toMatch(/odd number of digits/);
    expect(reason(() => jwsFromShcText('shc:/5699'))).toMatch(/"99" at digit 3, which no card character encodes/);
    expect(reason(() => jwsFromShcText('shc:/56a9'))).toMatch(/characters other than digits/);
    expect(reason(() => jwsFromShcText('shc:/'))).toMatch(/holds no digits/);
    expect(reason(() => jwsFromShcText('https://example.org'))).toMatch(/does not start with shc:\//);
  });

  it('refuses a truncated card (even digits, cut short) as damaged', () => {
    const truncated = jwsFromShcText(specQr.slice(0, 805));
    expect(reason(() => decodeJws(truncated))).toMatch(/not a signed JWS|damaged or truncated|does not inflate/);
    // Cut inside the payload: the header and the signature separator are gone.
    expect(reason(() => decodeJws(specJws.slice(0, specJws.lastIndexOf('.'))))).toMatch(/it has 2 parts, a JWS has 3/);
  });

  it('stops a payload that inflates past the limit (a zip bomb) before it is held in memory', () => {
    const bomb = deflateRawSync(Buffer.alloc(50 * 1024 * 1024, 0x20));
    const header = Buffer.from('{"zip":"DEF","alg":"ES256","kid":"k"}').toString('base64url');
    const jws = `${header}.${bomb.toString('base64url')}.AAAA`;
    expect(numericShc(jws).length).toBeLessThan(200_000);
    expect(reason(() => decodeJws(jws))).toBe("The card's content inflates past 256 KB, more than any health card holds: it was not read.");
  });
});
