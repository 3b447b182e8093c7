/**
 * Writes the repo's own digital-card test material into test/fixtures/digital-cards/generated:
 * a test issuer key (test only: its private half is committed on purpose), the trusted-issuer
 * file that trusts it, and the spec's CARIN example card signed by it as a SMART Health Card
 * (QR content and .smart-health-card file). Run again to make a new key:
 *   npx tsx scripts/generate-digital-card-fixtures.ts
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { carinBundle, FIXTURES, issuersFile, numericShc, repoTestIssuer } from '../test/support/digital-card-issuer';

const out = path.join(FIXTURES, 'generated');
mkdirSync(out, { recursive: true });
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
writeFileSync(
  path.join(out, 'test-issuer-key.json'),
  `${JSON.stringify({ iss: 'https://issuer.coverdesk.invalid/test', name: 'Coverdesk test issuer', private_jwk: privateKey.export({ format: 'jwk' }) }, null, 2)}\n`,
);
const issuer = repoTestIssuer();
writeFileSync(path.join(out, 'trusted-issuers.json'), `${JSON.stringify(JSON.parse(issuersFile([issuer])), null, 2)}\n`);
const jws = issuer.card(carinBundle(), { rid: 'test-rid-0001' });
writeFileSync(path.join(out, 'carin-card.shc.txt'), `${numericShc(jws)}\n`);
writeFileSync(path.join(out, 'carin-card.smart-health-card'), `${JSON.stringify({ verifiableCredential: [jws] })}\n`);
console.log(`wrote ${out}`);
