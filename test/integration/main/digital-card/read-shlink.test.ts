import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_NETWORK_POLICY, guardedFetch, type NetworkPolicy } from '@src/main/digital-card/guarded-fetch';
import { createIssuerDirectory } from '@src/main/digital-card/issuer-directory';
import { completeWaitingLinks, readDigitalCard, waitingLinkResult, type DigitalCardDeps } from '@src/main/digital-card/read-digital-card';
import { refreshIssuers } from '@src/main/digital-card/refresh-issuers';
import { carinBundle, encryptJwe, issuersFile, repoTestIssuer, shlinkPayload } from '@test/support/digital-card-issuer';
import { openDigitalCardDb } from '@test/support/digital-card-db';
import { manualClock } from '@test/support/manual-clock';
import { startShlinkServer, type ShlinkServer } from '@test/support/shlink-server';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const clock = manualClock('2026-11-23T09:00:00.000Z');
const issuer = repoTestIssuer();
const key = randomBytes(32);

async function setup(options: { network?: Partial<NetworkPolicy>; trust?: boolean } = {}) {
  const server = await startShlinkServer();
  cleanups.push(() => server.close());
  const db = openDigitalCardDb();
  cleanups.push(() => db.close());
  if (options.trust !== false) createIssuerDirectory({ db: db.opened.db, clock }).importFile(issuersFile([issuer]));
  const network: NetworkPolicy = { ...DEFAULT_NETWORK_POLICY, allowOrigin: server.origin, ...options.network };
  const deps: DigitalCardDeps = { db: db.opened.db, clock, network };
  return { server, db, deps };
}

function serveCard(server: ShlinkServer, how: 'embedded' | 'location' = 'location') {
  const card = JSON.stringify({ verifiableCredential: [issuer.card(carinBundle())] });
  const jwe = encryptJwe(card, key);
  if (how === 'embedded') server.manifest.files = [{ contentType: 'application/smart-health-card', embedded: jwe }];
  else {
    server.files.set('/files/card', jwe);
    server.manifest.files = [{ contentType: 'application/smart-health-card', location: `${server.origin}/files/card` }];
  }
}

const link = (server: ShlinkServer, extra: { flag?: string; exp?: number; key?: Buffer; url?: string } = {}) =>
  shlinkPayload({ url: extra.url ?? `${server.origin}/manifest`, key: extra.key ?? key, flag: extra.flag, exp: extra.exp, label: 'Insurance card' });

describe('readDigitalCard: SMART Health Links, through a real server on 127.0.0.1', () => {
  it('posts the manifest, fetches and decrypts the card file, verifies it; fetches nothing else', async () => {
    const { server, deps } = await setup();
    serveCard(server);
    const result = await readDigitalCard(deps, link(server));
    expect(result).toMatchObject({ kind: 'shlink', status: 'verified', fields: { member_id: '102345672-02', payer_name: 'Acme Insurance Co' }, extra: { link_label: 'Insurance card' } });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /manifest', 'GET /files/card']);
    expect(JSON.parse(server.requests[0].body)).toEqual({ recipient: 'Coverdesk front desk' });
  });

  it('reads a link behind a viewer URL, and a U link fetched directly', async () => {
    const { server, deps } = await setup();
    serveCard(server, 'embedded');
    expect(await readDigitalCard(deps, `https://viewer.example.org/#${link(server)}`)).toMatchObject({ status: 'verified' });
    server.files.set('/direct', encryptJwe(JSON.stringify({ verifiableCredential: [issuer.card(carinBundle())] }), key));
    expect(await readDigitalCard(deps, link(server, { url: `${server.origin}/direct`, flag: 'U' }))).toMatchObject({ status: 'verified', fields: { member_id: '102345672-02' } });
  });

  it('plain FHIR content is offered but never verified (it carries no issuer signature)', async () => {
    const { server, deps } = await setup();
    server.manifest.files = [{ contentType: 'application/fhir+json', embedded: encryptJwe(JSON.stringify(carinBundle()), key, 'application/fhir+json') }];
    expect(await readDigitalCard(deps, link(server))).toMatchObject({
      status: 'not_verified',
      reason: 'The link carries the coverage as plain FHIR, not a signed health card: confirm the values with the patient.',
      fields: { member_id: '102345672-02' },
    });
  });

  it('asks for the passcode; a right one on the second try reads the card', async () => {
    const { server, deps } = await setup();
    serveCard(server);
    server.manifest.passcode = '1234';
    const asked: unknown[] = [];
    const answers = ['0000', '1234'];
    const result = await readDigitalCard({ ...deps, askPasscode: async (ask) => (asked.push(ask), answers.shift()!) }, link(server, { flag: 'P' }));
    expect(result.status).toBe('verified');
    expect(asked).toEqual([
      { label: 'Insurance card', remainingAttempts: null, wrong: false },
      { label: 'Insurance card', remainingAttempts: 2, wrong: true },
    ]);
  });

  it('a passcode wrong three times: the link is locked, with the reason', async () => {
    const { server, deps, db } = await setup();
    serveCard(server);
    server.manifest.passcode = '1234';
    const result = await readDigitalCard({ ...deps, askPasscode: async () => '9999' }, link(server, { flag: 'P' }));
    expect(result).toEqual({ kind: 'shlink', status: 'failed', reason: 'The passcode was wrong 3 times: the link is locked. Ask the patient to share a new link.', fields: {} });
    expect(server.requests.filter((r) => r.path === '/manifest')).toHaveLength(3);
    expect(db.settingsRows()).toHaveLength(1); // the trusted issuers only: nothing kept of the link
  });

  it('an expired link is reported and not fetched', async () => {
    const { server, deps } = await setup();
    const result = await readDigitalCard(deps, link(server, { exp: Date.parse('2026-11-22T00:00:00Z') / 1000 }));
    expect(result).toMatchObject({ status: 'failed', reason: 'The SMART Health Link expired on 2026-11-22: ask the patient to share a new link.' });
    expect(server.requests).toEqual([]);
  });

  it('a JWE the key does not open fails with its reason', async () => {
    const { server, deps } = await setup();
    server.manifest.files = [{ contentType: 'application/smart-health-card', embedded: encryptJwe('{"verifiableCredential":[]}', randomBytes(32)) }];
    expect(await readDigitalCard(deps, link(server))).toMatchObject({
      status: 'failed',
      reason: "A file of the SMART Health Link could not be decrypted with the link's key (the key does not open it): the link is damaged or not this file's.",
    });
  });

  it('a manifest too large, and one too slow, are refused', async () => {
    const { server, deps } = await setup({ network: { timeoutMs: 300 } });
    serveCard(server, 'embedded');
    server.padBytes = 2 * 1024 * 1024;
    expect(await readDigitalCard(deps, link(server))).toMatchObject({ status: 'failed', reason: "The link's manifest is larger than 1024 KB: it was not read." });
    server.padBytes = 0;
    server.delayMs = 1_000;
    expect(await readDigitalCard(deps, link(server))).toMatchObject({ status: 'failed', reason: "The link's manifest took longer than 0.3 s to arrive: try again later." });
  });

  it('refuses http links and private addresses; the production policy refuses the local server itself', async () => {
    const { server, deps } = await setup();
    serveCard(server, 'embedded');
    const production = { ...deps, network: DEFAULT_NETWORK_POLICY };
    expect(await readDigitalCard(production, link(server))).toMatchObject({ status: 'failed', reason: "The link's manifest is at a http address; only https links are followed." });
    expect(await readDigitalCard(production, link(server, { url: 'https://127.0.0.1/manifest' }))).toMatchObject({
      status: 'failed',
      reason: "The link's manifest points at a private or local network address (127.0.0.1); only public https addresses are followed.",
    });
    // A public-looking name that resolves to the practice's network.
    const rebinding = { ...deps, network: { ...DEFAULT_NETWORK_POLICY, lookup: async () => [{ address: '10.0.0.7', family: 4 }] } };
    expect(await readDigitalCard(rebinding, link(server, { url: 'https://shl.example.org/manifest' }))).toMatchObject({
      status: 'failed',
      reason: "The link's manifest points at a private or local network address (shl.example.org); only public https addresses are followed.",
    });
    for (const address of ['169.254.169.254', '[::1]', '[fe80::1]', '192.168.1.1', '[::ffff:127.0.0.1]']) {
      await expect(guardedFetch(DEFAULT_NETWORK_POLICY, `https://${address}/x`, { what: 'file' })).rejects.toThrow(/private or local network address/);
    }
    expect(server.requests).toEqual([]);
  });

  it('offline: saved as waiting, then completed by completeWaitingLinks once the server is back', async () => {
    const { server, deps, db } = await setup();
    const port = Number(new URL(server.origin).port);
    const payload = link(server);
    await server.close();
    const waiting = await readDigitalCard(deps, payload);
    expect(waiting).toMatchObject({ kind: 'shlink', status: 'waiting', reason: 'Waiting for the digital card: the desk is offline; it completes by itself when back online.' });
    const id = waiting.extra!.waiting_id as string;
    expect(await completeWaitingLinks(deps)).toEqual([]); // still offline
    expect(waitingLinkResult(db.opened.db, id)).toMatchObject({ status: 'waiting' });

    const back = await startShlinkServer(port);
    cleanups.push(() => back.close());
    serveCard(back);
    const completed: string[] = [];
    // Called twice at once (the worker's next tick while the first run is out): the link is read once.
    const [done, overlapping] = await Promise.all([completeWaitingLinks({ ...deps, onCompleted: ({ waiting_id }) => completed.push(waiting_id) }), completeWaitingLinks(deps)]);
    expect(overlapping).toEqual([]);
    expect(back.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /manifest', 'GET /files/card']);
    expect(done).toHaveLength(1);
    expect(done[0].result).toMatchObject({ status: 'verified', fields: { member_id: '102345672-02' }, extra: { waiting_id: id } });
    expect(completed).toEqual([id]);
    expect(waitingLinkResult(db.opened.db, id)).toMatchObject({ status: 'verified' });
    expect(await completeWaitingLinks(deps)).toEqual([]); // done once
  });

  it('a passcode link with nobody to ask (the background) keeps waiting for a person, and is never given a guessed passcode', async () => {
    const { server, deps } = await setup();
    serveCard(server);
    server.manifest.passcode = '1234';
    const waiting = await readDigitalCard(deps, link(server, { flag: 'P' }));
    expect(waiting).toMatchObject({ status: 'waiting', reason: 'Waiting for the digital card: the link needs its passcode; scan it again to enter it.' });
    expect(await completeWaitingLinks(deps)).toEqual([]);
    expect(server.requests).toEqual([]);
  });

  it('a damaged link is refused at once, never kept waiting', async () => {
    const { deps, db } = await setup();
    expect(await readDigitalCard({ ...deps, online: () => false }, 'shlink:/eyJ1cmwiOi')).toMatchObject({ status: 'failed', reason: expect.stringMatching(/damaged or cut short/) });
    expect(db.settingsRows()).toHaveLength(1);
  });

  it('a link that cannot be kept waiting (the database refuses it) fails with a plain reason; the log names the error class, never the link', async () => {
    const { server, db, deps } = await setup();
    const lines: string[] = [];
    const payload = link(server);
    db.opened.sqlite.exec("CREATE TRIGGER refuse BEFORE INSERT ON settings BEGIN SELECT RAISE(ABORT, 'refused'); END");
    const result = await readDigitalCard({ ...deps, online: () => false, log: (line) => lines.push(line) }, payload);
    expect(result).toMatchObject({ kind: 'shlink', status: 'failed', reason: 'The digital card could not be read.' });
    expect(lines).toEqual(['digital card: shlink failed (SqliteError)']);
    expect(db.settingsRows()).toHaveLength(1);
    expect(server.requests).toEqual([]);
  });
});

describe('refreshIssuers: VCI directory, JWKS and revocation lists', () => {
  it('refreshes issuers listed by a directory, with their keys and CRLs, and keeps them offline', async () => {
    const { server, db } = await setup({ trust: false });
    const iss = `${server.origin}/issuer`;
    server.files.set('/directory.json', JSON.stringify({ participating_issuers: [{ iss, name: 'Directory issuer' }] }));
    server.files.set('/issuer/.well-known/jwks.json', JSON.stringify({ keys: [{ ...issuer.jwk, crlVersion: 1 }] }));
    server.files.set(`/issuer/.well-known/crl/${issuer.jwk.kid}.json`, JSON.stringify({ kid: issuer.jwk.kid, method: 'rid', ctr: 1, rids: ['gone'] }));
    const issuers = createIssuerDirectory({ db: db.opened.db, clock });
    issuers.upsert([], [`${server.origin}/directory.json`]);
    const network = { ...DEFAULT_NETWORK_POLICY, allowOrigin: server.origin };
    expect(await refreshIssuers({ issuers, network, clock })).toEqual({ refreshed: 1, failures: [], offline: false });
    expect(issuers.view().issuers).toEqual([{ iss, name: 'Directory issuer', kids: [issuer.jwk.kid], revoked: 1, refreshed_at: '2026-11-23T09:00:00.000Z', source: 'directory' }]);
    await server.close();
    expect(await refreshIssuers({ issuers, network, clock })).toMatchObject({ offline: true });
    expect(issuers.view().issuers).toHaveLength(1);
  });
});
