import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import { FIXTURES, repoTestIssuer, SPEC_FIXTURES } from '@test/support/digital-card-issuer';
import { manualClock } from '@test/support/manual-clock';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';

/** The trusted-issuer directory through the bridge, on a real host with its encrypted SQLite file. */
let fx: HostFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

const issuerRows = (f: HostFixture) => JSON.stringify(f.host.database.sqlite.prepare("SELECT * FROM settings WHERE key LIKE 'digital_cards.%' ORDER BY key").all());
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('digitalCards.importIssuers and digitalCards.issuers', () => {
  it('imports the trusted-issuer file, lists name, iss, keys and when refreshed; a second file adds, the same iss replaces', async () => {
    fx = startTestHost({ localApi: false, clock: manualClock('2026-11-23T09:00:00.000Z') });
    expect(await fx.host.bridge['digitalCards.issuers']({})).toEqual({ issuers: [], directory_urls: [] });
    const imported = await fx.host.bridge['digitalCards.importIssuers']({ text: readFileSync(path.join(FIXTURES, 'generated', 'trusted-issuers.json'), 'utf8') });
    const kid = repoTestIssuer().jwk.kid;
    expect(imported).toEqual({
      imported: 1,
      directory: { issuers: [{ iss: 'https://issuer.coverdesk.invalid/test', name: 'Coverdesk test issuer', kids: [kid], revoked: 0, refreshed_at: '2026-11-23T09:00:00.000Z', source: 'file' }], directory_urls: [] },
    });
    // The VCI snapshot shape (issuer: {iss, name}, keys) with the spec's published example key, and directory URLs.
    const jwks = JSON.parse(readFileSync(path.join(SPEC_FIXTURES, 'issuer-jwks.json'), 'utf8')) as { keys: object[] };
    const vci = { participating_issuers: [{ issuer: { iss: 'https://spec.smarthealth.cards/examples/issuer/', name: 'SMART example issuer' }, keys: jwks.keys }], directory_urls: ['https://directory.example.org/vci-issuers.json'] };
    const answer = await dispatchBridgeCall(fx.host.bridge, 'digitalCards.importIssuers', { data_base64: b64(JSON.stringify(vci)), file_name: 'vci.json' });
    expect(answer.ok).toBe(true);
    const listed = await fx.host.bridge['digitalCards.issuers']({});
    expect(listed.issuers.map((i) => [i.name, i.iss, i.kids.length])).toEqual([
      ['Coverdesk test issuer', 'https://issuer.coverdesk.invalid/test', 1],
      ['SMART example issuer', 'https://spec.smarthealth.cards/examples/issuer', 1],
    ]);
    expect(listed.directory_urls).toEqual(['https://directory.example.org/vci-issuers.json']);
  });

  it('a bad file is refused naming the entry and what is allowed, and nothing is written', async () => {
    fx = startTestHost({ localApi: false });
    await fx.host.bridge['digitalCards.importIssuers']({ text: readFileSync(path.join(FIXTURES, 'generated', 'trusted-issuers.json'), 'utf8') });
    const before = issuerRows(fx);
    const bad = { issuers: [{ iss: 'https://good.example.org', name: 'Good', keys: [] }, { iss: 'http://plain.example.org', name: 'Plain' }, { iss: 'https://k.example.org', keys: [{ kty: 'EC', crv: 'P-256', kid: 'k' }] }] };
    const answer = await dispatchBridgeCall(fx.host.bridge, 'digitalCards.importIssuers', { text: JSON.stringify(bad) });
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.code).toBe('validation_failed');
    expect(answer.error.errors).toEqual([
      { path: 'issuers[1].iss', code: 'invalid_format', message: "issuers[1].iss must be the issuer's https address, as its cards carry it (e.g. https://issuer.example.org)." },
      { path: 'issuers[2].keys[0]', code: 'invalid_format', message: 'issuers[2].keys[0] is not an ES256 (P-256) public key with kid, x and y.' },
    ]);
    const notJson = await dispatchBridgeCall(fx.host.bridge, 'digitalCards.importIssuers', { text: 'iss,name' });
    expect(notJson.ok ? null : notJson.error.errors?.[0]?.message).toMatch(/not JSON/);
    expect(issuerRows(fx)).toBe(before);
  });
});
