import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createIssuerDirectory } from '@src/main/digital-card/issuer-directory';
import { readDigitalCard } from '@src/main/digital-card/read-digital-card';
import { decodeJws } from '@src/main/digital-card/shc-payload';
import { verifyShc } from '@src/main/digital-card/shc-verify';
import { carinBundle, FIXTURES, issuersFile, multipartShc, newTestIssuer, numericShc, repoTestIssuer, SPEC_FIXTURES } from '@test/support/digital-card-issuer';
import { openDigitalCardDb } from '@test/support/digital-card-db';
import { manualClock } from '@test/support/manual-clock';
import { startTestHost } from '@test/support/host-fixture';

let db: ReturnType<typeof openDigitalCardDb> | undefined;
afterEach(() => {
  db?.close();
  db = undefined;
});

const clock = manualClock('2026-11-23T09:00:00.000Z');
const issuer = repoTestIssuer();

function desk(trust: { iss: string; name: string; jwk: object; crls?: object[] }[] = [issuer]) {
  db = openDigitalCardDb();
  const issuers = createIssuerDirectory({ db: db.opened.db, clock });
  if (trust.length) issuers.importFile(issuersFile(trust));
  return { deps: { db: db.opened.db, clock }, issuers, rows: db.settingsRows };
}

describe('readDigitalCard: SMART Health Cards', () => {
  it("verifies the spec's published example card against the spec's published issuer key", () => {
    const { issuers } = desk([]);
    const jwks = JSON.parse(readFileSync(path.join(SPEC_FIXTURES, 'issuer-jwks.json'), 'utf8')) as { keys: object[] };
    issuers.importFile(JSON.stringify({ issuers: [{ iss: 'https://spec.smarthealth.cards/examples/issuer', name: 'SMART Health Cards example issuer', keys: jwks }] }));
    const card = decodeJws(readFileSync(path.join(SPEC_FIXTURES, 'example-00-d-jws.txt'), 'utf8'));
    expect(verifyShc({ issuers, clock }, card)).toMatchObject({ status: 'verified', issuer: { name: 'SMART Health Cards example issuer' } });
  });

  it('reads the published example QR and says it holds no insurance coverage (an immunization card)', async () => {
    const { deps } = desk();
    const result = await readDigitalCard(deps, readFileSync(path.join(SPEC_FIXTURES, 'example-00-f-qr-code-numeric-value-0.txt'), 'utf8'));
    expect(result).toEqual({ kind: 'shc', status: 'failed', reason: 'The digital card carries no insurance coverage (it holds Patient, Immunization): there is nothing to fill.', fields: {} });
  });

  it('fills the card from a CARIN insurance card signed by a trusted issuer: verified, copays and members kept', async () => {
    const { deps } = desk();
    const result = await readDigitalCard(deps, readFileSync(path.join(FIXTURES, 'generated', 'carin-card.shc.txt'), 'utf8'));
    expect(result.status).toBe('verified');
    expect(result.fields).toEqual({
      member_id: '102345672-02',
      member_name: 'Jane Doe',
      group_number: '993355',
      plan_name: 'Acme Gold Plus',
      rx_bin: '100045',
      rx_pcn: '1234000',
      payer_name: 'Acme Insurance Co',
    });
    expect(result.extra).toMatchObject({
      payer_id: '45002',
      plan_id: '11461128',
      subscriber_name: 'John Doe',
      subscriber_id: '102345672-01',
      relationship: 'Spouse',
      member_birth_date: '1990-11-12',
      issuer_name: 'Coverdesk test issuer',
      members: [
        { member_id: '102345672-01', name: 'John Doe' },
        { member_id: '102345672-02', name: 'Jane Doe' },
        { member_id: '102345672-03', name: 'Jimmy Doe' },
        { member_id: '102345672-04', name: 'Ginny Doe' },
      ],
    });
    expect(result.extra?.copays).toContainEqual({ type: 'FamInDed', label: 'Family In Network Deductible', cents: 800_000, text: null });
    expect(result.extra?.copays).toContainEqual({ type: 'rx', label: null, cents: null, text: 'DED THEN $10/$40/$70/25%' });
  });

  it('reads the same card from the .smart-health-card file and from the multi-part QR form', async () => {
    const { deps } = desk();
    const file = await readDigitalCard(deps, readFileSync(path.join(FIXTURES, 'generated', 'carin-card.smart-health-card'), 'utf8'));
    expect(file).toMatchObject({ status: 'verified', fields: { member_id: '102345672-02' } });
    const parts = multipartShc(issuer.card(carinBundle()), 2);
    expect(await readDigitalCard(deps, parts.join('\n'))).toMatchObject({ status: 'verified', fields: { member_id: '102345672-02' } });
    expect(await readDigitalCard(deps, parts[1])).toEqual({ kind: 'shc', status: 'failed', reason: 'The card is in 2 parts and part 1 is missing: scan every QR code of the card.', fields: {} });
  });

  it('an unknown issuer, a wrong signature, a withdrawn key: not verified with the reason, values still offered', async () => {
    const { deps, rows } = desk();
    const before = rows();
    const stranger = newTestIssuer('https://stranger.example.org', 'Stranger');
    const unknown = await readDigitalCard(deps, numericShc(stranger.card(carinBundle())));
    expect(unknown).toMatchObject({ status: 'not_verified', reason: "The card is issued by https://stranger.example.org, which is not among the desk's trusted issuers (Settings › Digital cards).", fields: { member_id: '102345672-02' } });

    // Signed by another key that claims the trusted issuer's iss and kid.
    const forger = newTestIssuer(issuer.iss, 'Forger');
    const forged = await readDigitalCard(deps, numericShc(forger.card(carinBundle(), { kid: issuer.jwk.kid })));
    expect(forged).toMatchObject({ status: 'not_verified', reason: "The card's signature does not match Coverdesk test issuer's key: it was altered or not issued by them." });

    // One character of the signed content changed.
    const jws = issuer.card(carinBundle());
    const [h, p, s] = jws.split('.');
    const flipped = `${h}.${p}.${s.startsWith('A') ? `B${s.slice(1)}` : `A${s.slice(1)}`}`;
    expect((await readDigitalCard(deps, flipped)).status).toBe('not_verified');

    const withdrawn = await readDigitalCard(deps, numericShc(issuer.card(carinBundle(), { kid: 'an-old-key' })));
    expect(withdrawn).toMatchObject({ status: 'not_verified', reason: 'The card is signed with a key Coverdesk test issuer does not publish (or has withdrawn): kid an-old-key.' });
    expect(rows()).toEqual(before);
  });

  it("honours the key's revocation list: a revoked rid, and rid.timestamp only for cards issued before it", async () => {
    const revokedAt = Date.parse('2026-11-10T00:00:00Z') / 1000;
    const { deps } = desk([{ ...issuer, crls: [{ kid: issuer.jwk.kid, method: 'rid', ctr: 2, rids: ['revoked-rid', `reissued-rid.${revokedAt}`] }] }]);
    expect(await readDigitalCard(deps, numericShc(issuer.card(carinBundle(), { rid: 'revoked-rid' })))).toMatchObject({ status: 'not_verified', reason: 'Coverdesk test issuer has revoked this card.' });
    const before = await readDigitalCard(deps, numericShc(issuer.card(carinBundle(), { rid: 'reissued-rid', nbf: revokedAt - 86_400 })));
    expect(before).toMatchObject({ status: 'not_verified', reason: 'Coverdesk test issuer has revoked this card.' });
    const after = await readDigitalCard(deps, numericShc(issuer.card(carinBundle(), { rid: 'reissued-rid', nbf: revokedAt + 86_400 })));
    expect(after.status).toBe('verified');
    expect((await readDigitalCard(deps, numericShc(issuer.card(carinBundle(), { rid: 'other-rid' })))).status).toBe('verified');
  });

  it('an expired card, and one not valid yet, are not verified', async () => {
    const { deps } = desk();
    const expired = await readDigitalCard(deps, numericShc(issuer.card(carinBundle(), { exp: Date.parse('2026-11-20T00:00:00Z') / 1000 })));
    expect(expired).toMatchObject({ status: 'not_verified', reason: 'The card expired on 2026-11-20.' });
    const future = await readDigitalCard(deps, numericShc(issuer.card(carinBundle(), { nbf: Date.parse('2026-12-01T00:00:00Z') / 1000 })));
    expect(future).toMatchObject({ status: 'not_verified', reason: 'The card is not valid before 2026-12-01.' });
  });

  it('a zip bomb and a malformed code fail with their reason and write nothing', async () => {
    const { deps, rows } = desk();
    const before = rows();
    const bomb = issuer.sign({ iss: issuer.iss, padding: 'x'.repeat(5 * 1024 * 1024) });
    expect(await readDigitalCard(deps, numericShc(bomb))).toEqual({ kind: 'shc', status: 'failed', reason: "The card's content inflates past 256 KB, more than any health card holds: it was not read.", fields: {} });
    expect(await readDigitalCard(deps, 'shc:/123')).toMatchObject({ status: 'failed', reason: expect.stringMatching(/odd number of digits/) });
    expect(rows()).toEqual(before);
  });
});

describe('readDigitalCard: the payer in the desk payer directory', () => {
  it("finds the payer by the card's payer id, else by its name; an unknown payer is left for the desk", async () => {
    const fx = startTestHost({ localApi: false, clock });
    try {
      await fx.host.bridge['digitalCards.importIssuers']({ text: issuersFile([issuer]) });
      const deps = { db: fx.host.database.db, clock };
      const withPayer = (payerId: string | null, name: string) => {
        const bundle = carinBundle();
        const org = (bundle.entry as { resource: { resourceType: string; name?: string; identifier?: { value: string }[] } }[]).find((e) => e.resource.resourceType === 'Organization')!.resource;
        org.name = name;
        if (payerId) org.identifier![0].value = payerId;
        else delete org.identifier;
        return numericShc(issuer.card(bundle));
      };
      expect((await readDigitalCard(deps, withPayer('60054', 'Some Plan Name'))).extra?.clearinghouse_entity_id).toBe('che_01JD0000000000000000000001');
      const byName = await readDigitalCard(deps, withPayer(null, 'Cigna'));
      expect(byName.extra?.clearinghouse_entity_id).toBe('che_01JD0000000000000000000002');
      expect(byName.fields.payer_name).toBe('Cigna');
      const unknown = await readDigitalCard(deps, withPayer(null, 'Acme Insurance Co'));
      expect(unknown.extra?.clearinghouse_entity_id).toBeUndefined();
      expect(unknown.fields.payer_name).toBe('Acme Insurance Co');
    } finally {
      await fx.cleanup();
    }
  });
});
