import { describe, expect, it } from 'vitest';
import { clearinghouse_entities, providers } from '@src/main/db/schema';
import type { Sandbox } from '@src/main/sandbox/start-sandbox';
import { makePng } from '@test/support/images';
import { startScriptedProxy } from '@test/support/sync/scripted-proxy';
import { closeAfterEach, expectExactlyOnce, FAST_POLICY, freePort, startSyncHost, startUpstream, waitFor, waitForDrained, type SyncHostFixture } from '@test/support/sync/sync-harness';

let fx: SyncHostFixture | undefined;
let upstream: Sandbox | undefined;
const proxies: { close(): Promise<void> }[] = [];
closeAfterEach(() => fx, () => upstream, () => proxies.splice(0));

describe('past the idempotency window (docs/decisions.md, local data and the outbox)', () => {
  it('a card is looked up by the reference id it carries, other records wait for a person', async () => {
    upstream = await startUpstream(await freePort());
    const proxy = await startScriptedProxy(upstream.url);
    proxies.push(proxy);
    // The first POST of each arrives and commits, but its answer is lost.
    const lost = new Set<string>();
    proxy.script.current = ({ method, path }) => {
      if (method !== 'POST' || lost.has(path)) return undefined;
      lost.add(path);
      return { status: 502, commitFirst: true };
    };
    // A retry comes after the window has passed: the upstream may have forgotten the key.
    fx = await startSyncHost(proxy.url, {
      sync: { policy: { ...FAST_POLICY, send: { baseMs: 500, capMs: 500, maxRetryAfterMs: 1_000 }, idempotencyWindowMs: 200 }, random: () => 0.99 },
    });
    const { bridge } = fx.host;
    const patient = await bridge['patients.create']({ first_name: 'Maria', last_name: 'Garcia', date_of_birth: '1978-03-14' });
    const photo = await bridge['photos.upload']({ content_type: 'image/png', data_base64: Buffer.from(makePng(9, 9)).toString('base64') });
    const card = await bridge['cards.create']({ patient_id: patient.id, member_id: 'W284619375', front_photo_object_key: photo.object_key });

    const review = await waitFor('the patient to need review', async () => {
      const items = (await bridge['sync.list']({ states: ['needs_review'] })).data;
      return items.length ? items[0] : undefined;
    });
    expect(review).toMatchObject({ record_id: patient.id, last_error: { code: 'idempotency_window_passed' } });
    // A photo is named by its bytes: past the window it is simply sent again, no person asked.
    const photoState = () => (fx!.host.database.sqlite.prepare('SELECT state FROM outbox WHERE record_id = ?').get(photo.object_key) as { state: string }).state;
    await waitFor('the photo to be sent again', async () => (photoState() === 'synced' ? true : undefined));
    expect(review.last_error?.message).toMatch(/send it again or discard it/);
    expect((await bridge['cards.get']({ id: card.id })).sync?.state).toBe('blocked');
    expect((await fx.status()).counts).toMatchObject({ needs_review: 1, blocked: 1 });

    // The person checked upstream and sends it again: same key, and this upstream still
    // remembers it, so the first patient is the one recorded.
    await bridge['sync.retry']({ id: review.id });
    await waitForDrained(fx);
    expectExactlyOnce(fx.host.database.db, upstream.database.db);

    // The card's first answer was lost too; past the window it was found by its reference
    // id, not posted again.
    const cardPosts = proxy.requests.filter((r) => r.method === 'POST' && r.path === '/v1/insurance_cards');
    expect(cardPosts).toHaveLength(1);
    expect(proxy.requests.some((r) => r.method === 'GET' && r.path.startsWith('/v1/insurance_cards?'))).toBe(true);
    const remoteCard = await upstream.service.get('insurance_cards', (await bridge['cards.get']({ id: card.id })).sync!.remote_id!);
    const cardEntry = fx.host.database.sqlite.prepare('SELECT id FROM outbox WHERE record_id = ?').get(card.id) as { id: string };
    expect(remoteCard.reference_id).toBe(cardEntry.id);
  });
});

describe('reference data', () => {
  it('is refreshed from the upstream when online and served from the local cache', async () => {
    upstream = await startUpstream(await freePort());
    const udb = upstream.database.db;
    udb.insert(providers).values({ id: 'prv_01JD0000000000000000000777', name: 'Lakeside Pediatrics', npi: '1234567893' }).run();
    udb.insert(clearinghouse_entities).values({ id: 'che_01JD0000000000000000000777', name: 'Kaiser Permanente', payer_id: '94135' }).run();
    const upstreamProviders = udb.select().from(providers).all();
    fx = await startSyncHost(upstream.url);
    await waitFor('the refresh', async () => (await fx!.host.bridge['providers.list']({ limit: 100 })).data.length === upstreamProviders.length);
    const local = (await fx.host.bridge['providers.list']({ limit: 100 })).data;
    expect(local.map((p) => p.id).sort()).toEqual(upstreamProviders.map((p) => p.id).sort());
    expect(local.find((p) => p.id === 'prv_01JD0000000000000000000777')).toEqual({ id: 'prv_01JD0000000000000000000777', name: 'Lakeside Pediatrics', npi: '1234567893' });
    // The directory holds over a thousand payers: read every page.
    const entities = [];
    for (let cursor: string | undefined; ; ) {
      const page = await fx.host.bridge['clearinghouseEntities.list']({ limit: 100, ...(cursor ? { cursor } : {}) });
      entities.push(...page.data);
      if (!page.has_more || !page.next_cursor) break;
      cursor = page.next_cursor;
    }
    expect(entities.some((e) => e.name === 'Kaiser Permanente')).toBe(true);

    // The upstream goes away: the desk still picks from what it has.
    await upstream.close();
    upstream = undefined;
    expect((await fx.host.bridge['providers.list']({ limit: 100 })).data).toHaveLength(upstreamProviders.length);
  });
});
