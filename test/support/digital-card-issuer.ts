import { createCipheriv, createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';

/**
 * A SMART Health Card issuer with the repo's own test keys: signs cards (ES256, raw
 * DEFLATE, as issuers do), writes them as `shc:/` numeric QR content (whole or in parts),
 * and encrypts files for SMART Health Links (JWE `dir` + `A256GCM`). Nothing here is a
 * real issuer or a real person.
 */

export const FIXTURES = path.resolve(__dirname, '../fixtures/digital-cards');
export const SPEC_FIXTURES = path.join(FIXTURES, 'spec');

export interface PublicJwk {
  kty: 'EC';
  crv: 'P-256';
  kid: string;
  x: string;
  y: string;
  alg: 'ES256';
  use: 'sig';
  crlVersion?: number;
}

export interface TestIssuer {
  iss: string;
  name: string;
  jwk: PublicJwk;
  /** A signed card: header `zip: DEF`, `alg: ES256`, `kid` of this key (or `kid` given, to pose as another key). */
  sign(payload: object, options?: { kid?: string; zip?: boolean }): string;
  /** A SMART Health Card holding `bundle`, issued at `nbf` (seconds), with `exp` and `rid` when given. */
  card(bundle: unknown, options?: { nbf?: number; exp?: number; rid?: string; kid?: string }): string;
}

/** RFC 7638 thumbprint: what SMART Health Cards use as `kid`. */
function thumbprint(jwk: { crv: string; kty: string; x: string; y: string }): string {
  return createHash('sha256').update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })).digest('base64url');
}

function issuerFrom(privateKey: KeyObject, iss: string, name: string): TestIssuer {
  const exported = privateKey.export({ format: 'jwk' }) as { x: string; y: string };
  const jwk: PublicJwk = { kty: 'EC', crv: 'P-256', x: exported.x, y: exported.y, kid: thumbprint({ kty: 'EC', crv: 'P-256', x: exported.x, y: exported.y }), alg: 'ES256', use: 'sig' };
  const signJws = (payload: object, options: { kid?: string; zip?: boolean } = {}) => {
    const zip = options.zip ?? true;
    const header = Buffer.from(JSON.stringify({ ...(zip ? { zip: 'DEF' } : {}), alg: 'ES256', kid: options.kid ?? jwk.kid })).toString('base64url');
    const json = Buffer.from(JSON.stringify(payload));
    const body = (zip ? deflateRawSync(json) : json).toString('base64url');
    const signature = sign('sha256', Buffer.from(`${header}.${body}`), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
    return `${header}.${body}.${signature}`;
  };
  return {
    iss,
    name,
    jwk,
    sign: signJws,
    card: (bundle, options = {}) =>
      signJws(
        {
          iss,
          nbf: options.nbf ?? Date.parse('2026-11-01T00:00:00Z') / 1000,
          ...(options.exp !== undefined ? { exp: options.exp } : {}),
          vc: { type: ['https://smarthealth.cards#health-card'], credentialSubject: { fhirVersion: '4.0.1', fhirBundle: bundle }, ...(options.rid ? { rid: options.rid } : {}) },
        },
        { kid: options.kid },
      ),
  };
}

/** The repo's committed test issuer (scripts/generate-digital-card-fixtures.ts wrote its key). */
export function repoTestIssuer(): TestIssuer {
  const file = JSON.parse(readFileSync(path.join(FIXTURES, 'generated', 'test-issuer-key.json'), 'utf8')) as { iss: string; name: string; private_jwk: object };
  return issuerFrom(createPrivateKey({ key: file.private_jwk as never, format: 'jwk' }), file.iss, file.name);
}

/** A fresh issuer for one test (a key nobody trusts). */
export function newTestIssuer(iss = 'https://issuer.test.coverdesk.invalid', name = 'Test issuer'): TestIssuer {
  return issuerFrom(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, iss, name);
}

/** `shc:/` + two digits per character (its code minus 45). */
export function numericShc(jws: string): string {
  return `shc:/${[...jws].map((c) => String(c.charCodeAt(0) - 45).padStart(2, '0')).join('')}`;
}

/** The older multi-part form: `shc:/N/M/…`, the JWS cut in `count` pieces. */
export function multipartShc(jws: string, count: number): string[] {
  const size = Math.ceil(jws.length / count);
  return Array.from({ length: count }, (_, i) => `shc:/${i + 1}/${count}/${numericShc(jws.slice(i * size, (i + 1) * size)).slice(5)}`);
}

/** The spec's CARIN Digital Insurance Card example entries, as a bundle. */
export function carinBundle(): { resourceType: 'Bundle'; type: 'collection'; entry: unknown[] } {
  return { resourceType: 'Bundle', type: 'collection', entry: JSON.parse(readFileSync(path.join(SPEC_FIXTURES, 'carin-ins-card.json'), 'utf8')) as unknown[] };
}

/** A trusted-issuer file with these issuers (our format). */
export function issuersFile(issuers: { iss: string; name: string; jwk: object; crls?: object[] }[], directoryUrls?: string[]): string {
  return JSON.stringify({ issuers: issuers.map((i) => ({ iss: i.iss, name: i.name, keys: [i.jwk], crls: i.crls ?? [] })), ...(directoryUrls ? { directory_urls: directoryUrls } : {}) });
}

/** JWE compact `dir` + `A256GCM` with the link's key, as a SMART Health Link server serves its files. */
export function encryptJwe(content: string, key: Buffer, contentType = 'application/smart-health-card'): string {
  const header = Buffer.from(JSON.stringify({ alg: 'dir', enc: 'A256GCM', cty: contentType })).toString('base64url');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(header, 'ascii'));
  const ciphertext = Buffer.concat([cipher.update(content, 'utf8'), cipher.final()]);
  return `${header}..${iv.toString('base64url')}.${ciphertext.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
}

/** `shlink:/` + base64url JSON. */
export function shlinkPayload(link: { url: string; key: Buffer; exp?: number; flag?: string; label?: string }): string {
  const body = { url: link.url, key: link.key.toString('base64url'), ...(link.exp !== undefined ? { exp: link.exp } : {}), ...(link.flag ? { flag: link.flag } : {}), ...(link.label ? { label: link.label } : {}), v: 1 };
  return `shlink:/${Buffer.from(JSON.stringify(body)).toString('base64url')}`;
}
