import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_NETWORK_POLICY } from '@src/main/digital-card/guarded-fetch';
import type { Sandbox } from '@src/main/sandbox/start-sandbox';
import { carinBundle, encryptJwe, issuersFile, repoTestIssuer, shlinkPayload } from '@test/support/digital-card-issuer';
import { startShlinkServer, type ShlinkServer } from '@test/support/shlink-server';
import { freePort, startSyncHost, startUpstream, waitFor, type SyncHostFixture } from '@test/support/sync/sync-harness';

/**
 * Issue 27: a SMART Health Link scanned while the desk cannot reach its upstream waits, and
 * completes by itself when the sync worker finds the upstream again: through the real host,
 * a real sandbox going down and up, and a real link server on 127.0.0.1.
 */
const closables: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const item of closables.splice(0).reverse()) await item.close();
});

const issuer = repoTestIssuer();
const key = randomBytes(32);

function serveCard(server: ShlinkServer) {
  server.files.set('/files/card', encryptJwe(JSON.stringify({ verifiableCredential: [issuer.card(carinBundle())] }), key));
  server.manifest.files = [{ contentType: 'application/smart-health-card', location: `${server.origin}/files/card` }];
}

async function offlineDesk(): Promise<{ fx: SyncHostFixture; server: ShlinkServer; port: number }> {
  const server = await startShlinkServer();
  closables.push(server);
  serveCard(server);
  const port = await freePort(); // the sandbox is down: nobody listens there yet
  const fx = await startSyncHost(`http://127.0.0.1:${port}`, { digitalCardNetwork: { ...DEFAULT_NETWORK_POLICY, allowOrigin: server.origin } });
  closables.push(fx);
  await fx.host.bridge['digitalCards.importIssuers']({ text: issuersFile([issuer]) });
  await waitFor('the worker to find the upstream unreachable', async () => (await fx.status()).online === false);
  return { fx, server, port };
}

describe('a SMART Health Link taken offline', () => {
  it('waits without fetching anything, then completes by itself when the sandbox comes back, and the desk is told', async () => {
    const { fx, server, port } = await offlineDesk();
    const changed: string[] = [];
    fx.host.events.on('records.changed', (change) => change.collection === 'digital_cards' && changed.push(change.id));

    const payload = shlinkPayload({ url: `${server.origin}/manifest`, key, label: 'Insurance card' });
    const reading = await fx.host.bridge['barcodes.read']({ text: payload });
    expect(reading).toMatchObject({ kind: 'digital_card', status: 'waiting', reason: expect.stringContaining('completes by itself when back online'), fields: {} });
    const id = reading.waiting_id!;
    expect(id).toMatch(/^shl_/);
    expect(server.requests).toEqual([]);
    expect(await fx.host.bridge['digitalCards.waitingLink']({ id })).toMatchObject({ status: 'waiting', waiting_id: id });

    const upstream: Sandbox = await startUpstream(port);
    closables.push(upstream);
    await waitFor('the desk to be told the digital card arrived', () => changed.length > 0);
    expect(changed).toEqual([id]);
    const arrived = await fx.host.bridge['digitalCards.waitingLink']({ id });
    expect(arrived).toMatchObject({ kind: 'digital_card', status: 'verified', waiting_id: id, fields: { member_id: '102345672-02', payer_name: 'Acme Insurance Co' } });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /manifest', 'GET /files/card']);
  });

  it('a card saved while its link waited is offered the arrived fields once, until the desk answers', async () => {
    const { fx, server, port } = await offlineDesk();
    const bridge = fx.host.bridge;
    const reading = await bridge['barcodes.read']({ text: shlinkPayload({ url: `${server.origin}/manifest`, key }) });
    const id = reading.waiting_id!;
    const patient = await bridge['patients.create']({ first_name: 'Ada', last_name: 'Stone', date_of_birth: '1980-04-02' });
    const card = await bridge['cards.create']({ patient_id: patient.id, member_id: 'TYPED-1' });
    expect(await bridge['digitalCards.tieWaitingLink']({ id, card_id: card.id })).toEqual({ id, card_id: card.id });
    // Still waiting: nothing to offer yet.
    expect(await bridge['digitalCards.arrivedForCards']({ card_ids: [card.id] })).toBeNull();

    closables.push(await startUpstream(port));
    await waitFor('the link to complete', async () => (await bridge['digitalCards.waitingLink']({ id })).status !== 'waiting');
    expect(await bridge['digitalCards.arrivedForCards']({ card_ids: ['crd_other'] })).toBeNull();
    expect(await bridge['digitalCards.arrivedForCards']({ card_ids: [card.id] })).toMatchObject({ status: 'verified', waiting_id: id, fields: { member_id: '102345672-02' } });
    // The stored card is not touched: the fields are only offered.
    expect((await bridge['cards.get']({ id: card.id })).member_id).toBe('TYPED-1');

    expect(await bridge['digitalCards.answerWaitingLink']({ id, answer: 'declined' })).toEqual({ id, card_id: card.id, answer: 'declined' });
    expect(await bridge['digitalCards.arrivedForCards']({ card_ids: [card.id] })).toBeNull();
  });

  it('tying to a card or a link that does not exist is refused by name, and nothing is written', async () => {
    const { fx, server } = await offlineDesk();
    const bridge = fx.host.bridge;
    const { waiting_id: id } = await bridge['barcodes.read']({ text: shlinkPayload({ url: `${server.origin}/manifest`, key }) });
    await expect(bridge['digitalCards.tieWaitingLink']({ id: id!, card_id: 'crd_nobody' })).rejects.toMatchObject({ code: 'resource_not_found', message: expect.stringContaining('crd_nobody') });
    const patient = await bridge['patients.create']({ first_name: 'Ada', last_name: 'Stone', date_of_birth: '1980-04-02' });
    const card = await bridge['cards.create']({ patient_id: patient.id, member_id: 'TYPED-1' });
    await expect(bridge['digitalCards.tieWaitingLink']({ id: 'shl_unknown', card_id: card.id })).rejects.toMatchObject({ code: 'resource_not_found', message: expect.stringContaining('shl_unknown') });
    await expect(bridge['digitalCards.answerWaitingLink']({ id: 'shl_unknown', answer: 'used' })).rejects.toMatchObject({ code: 'resource_not_found' });
  });

  it('an id the desk never issued is refused by name', async () => {
    const { fx } = await offlineDesk();
    await expect(fx.host.bridge['digitalCards.waitingLink']({ id: 'shl_unknown' })).rejects.toMatchObject({ code: 'resource_not_found', message: 'No waiting digital-card link with id shl_unknown exists.' });
  });
});
