import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clearinghouse_entities, settings } from '@src/main/db/schema';
import { createHost } from '@src/main/host/create-host';
import type { Sandbox } from '@src/main/sandbox/start-sandbox';
import { secretsFilePath } from '@src/main/settings/secret-store';
import { makeTempDir } from '@test/support/temp-dir';
import { startScriptedProxy } from '@test/support/sync/scripted-proxy';
import {
  closeAfterEach,
  createVisit,
  expectExactlyOnce,
  freePort,
  SANDBOX_KEY,
  startSyncHost,
  startUpstream,
  waitFor,
  waitForDrained,
  type SyncHostFixture,
} from '@test/support/sync/sync-harness';

let fx: SyncHostFixture | undefined;
let upstream: Sandbox | undefined;
const proxies: { close(): Promise<void> }[] = [];
closeAfterEach(() => fx, () => upstream, () => proxies.splice(0));

async function bridgeError(call: () => Promise<unknown>) {
  const error = await call().then(
    () => null,
    (e: unknown) => e as { status: number; code: string; message: string },
  );
  expect(error, 'the call should have failed').not.toBeNull();
  return error!;
}

describe('a permanent 4xx', () => {
  it('fails the entry with the upstream error, blocks its dependents, reports both, and lets the desk discard them', async () => {
    // A payer the desk's cache still lists but the upstream no longer knows (a stale cache).
    const temp = makeTempDir('coverdesk-sync-');
    proxies.push({ close: async () => temp.cleanup() });
    const offline = createHost({ dataDir: temp.dir, localApi: false, hotFolder: false });
    offline.database.db.insert(clearinghouse_entities).values({ id: 'che_GONE0000000000000000000001', name: 'Retired Payer', payer_id: '00000' }).run();
    const good = await createVisit(offline, 1);
    const bad = await createVisit(offline, 2);
    const badCard = await offline.bridge['cards.create']({ patient_id: bad.patient.id, member_id: 'W777', insurance_carrier_ids: ['che_GONE0000000000000000000001'] });
    const badCheck = await offline.bridge['checks.create']({
      insurance_card_id: badCard.id,
      provider_id: good.check.provider_id,
      clearinghouse_entity_id: good.check.clearinghouse_entity_id,
      service_type: 'chiropractic',
    });
    const badDiscovery = await offline.bridge['discoveries.create']({ insurance_card_id: badCard.id });
    await offline.close();

    upstream = await startUpstream(await freePort());
    fx = await startSyncHost(upstream.url, { dataDir: temp.dir });
    const status = await waitFor('the queue to settle', async () => {
      const s = await fx!.status();
      return s.counts.queued + s.counts.sending === 0 && s.counts.failed > 0 ? s : undefined;
    });
    expect(status.counts).toMatchObject({ failed: 1, blocked: 2, queued: 0 });
    expect(status.worker).toBe('running');

    const { bridge } = fx.host;
    const card = await bridge['cards.get']({ id: badCard.id });
    expect(card.sync).toMatchObject({ state: 'failed', remote_id: null, error: { status: 422, code: 'validation_failed' } });
    expect(card.sync?.error?.message).toContain('insurance_carrier_ids');
    const blocked = (await bridge['checks.get']({ id: badCheck.id })).sync;
    expect(blocked).toMatchObject({ state: 'blocked', error: { code: 'blocked_by_dependency' } });
    expect(blocked?.error?.message).toBe(`Waits for insurance_cards ${badCard.id}, which could not be sent.`);
    expect((await bridge['discoveries.get']({ id: badDiscovery.id })).sync?.state).toBe('blocked');
    // The rest of the visit that did nothing wrong went through.
    expect((await bridge['patients.get']({ id: bad.patient.id })).sync?.state).toBe('synced');
    expect((await bridge['checks.get']({ id: good.check.id })).sync?.state).toBe('synced');

    const open = (await bridge['sync.list']({})).data;
    expect(open.map((i) => [i.record_id, i.state]).sort()).toEqual(
      [
        [badCard.id, 'failed'],
        [badCheck.id, 'blocked'],
        [badDiscovery.id, 'blocked'],
      ].sort(),
    );
    expect(open.find((i) => i.record_id === badCheck.id)?.description).toBe('Eligibility check (chiropractic) for Aisha Khan');
    expect(open.find((i) => i.record_id === badCard.id)?.last_error?.message).toContain('insurance_carrier_ids');
    // The desk's three states, each with its one-line reason: the refused card needs someone,
    // what depends on it waits for it, by the name the desk knows it by.
    const failedItem = open.find((i) => i.record_id === badCard.id)!;
    expect(failedItem.phase).toBe('needs_you');
    expect(failedItem.reason).toMatch(/^The service refused it: .*insurance_carrier_ids.* Fix what it names and Retry, or Discard it\.$/);
    expect(open.find((i) => i.record_id === badCheck.id)).toMatchObject({
      phase: 'waiting',
      reason: 'Waits for “Insurance card for Aisha Khan”, which needs you; it goes once that one is sent.',
    });

    // Discard is explicit and never takes other records with it: dependents go first.
    const refused = await bridgeError(() => bridge['sync.discard']({ id: open.find((i) => i.record_id === badCard.id)!.id }));
    expect(refused).toMatchObject({ status: 409, code: 'sync_entry_has_dependents' });
    expect(refused.message).toBe('2 other entries need this one (eligibility check, coverage discovery). Discard those first.');
    expect(refused.message).not.toContain('Khan');
    expect((await bridge['cards.get']({ id: badCard.id })).id).toBe(badCard.id);

    for (const recordId of [badCheck.id, badDiscovery.id, badCard.id]) {
      const entry = open.find((i) => i.record_id === recordId)!;
      expect(await bridge['sync.discard']({ id: entry.id })).toEqual({ id: entry.id, discarded: true });
    }
    await expect(bridge['cards.get']({ id: badCard.id })).rejects.toMatchObject({ code: 'resource_not_found' });
    const after = await waitFor('the status to settle', async () => {
      const s = await fx!.status();
      return s.counts.failed + s.counts.blocked === 0 ? s : undefined;
    });
    expect(after.counts).toMatchObject({ failed: 0, blocked: 0, queued: 0, sending: 0 });
    expectExactlyOnce(fx.host.database.db, upstream.database.db);
  });

  it('can be retried once the upstream accepts it; its dependents follow, exactly once', async () => {
    upstream = await startUpstream(await freePort());
    const proxy = await startScriptedProxy(upstream.url);
    proxies.push(proxy);
    let refuse = true;
    proxy.script.current = ({ method, path }) =>
      refuse && method === 'POST' && path === '/v1/insurance_cards'
        ? { status: 422, body: { error: { type: 'invalid_request_error', code: 'validation_failed', message: 'The request is not valid: check member_id.' } } }
        : undefined;
    fx = await startSyncHost(proxy.url);
    const visit = await createVisit(fx.host, 3, { discovery: true });
    await waitFor('the card to fail', async () => (await fx!.status()).counts.failed === 1);
    expect((await fx.status()).counts.blocked).toBe(2);

    const failed = (await fx.host.bridge['sync.list']({ states: ['failed'] })).data[0];
    expect(failed.record_id).toBe(visit.card.id);
    // Retrying a blocked entry retries what blocks it.
    refuse = false;
    const blocked = (await fx.host.bridge['sync.list']({ states: ['blocked'] })).data[0];
    await fx.host.bridge['sync.retry']({ id: blocked.id });
    await waitForDrained(fx);
    expectExactlyOnce(fx.host.database.db, upstream.database.db);
    const cardPosts = proxy.requests.filter((r) => r.method === 'POST' && r.path === '/v1/insurance_cards');
    expect(cardPosts.map((r) => r.status)).toEqual([422, 201]);
    expect(new Set(cardPosts.map((r) => r.idempotencyKey)).size).toBe(1);

    // Nothing left to retry or discard: both say so.
    await expect(fx.host.bridge['sync.retry']({ id: failed.id })).rejects.toMatchObject({ status: 409, code: 'sync_entry_not_retryable' });
    await expect(fx.host.bridge['sync.discard']({ id: failed.id })).rejects.toMatchObject({ status: 409, code: 'sync_entry_not_discardable' });
    await expect(fx.host.bridge['sync.retry']({ id: 'obx_01JD0000000000000000000000' })).rejects.toMatchObject({ status: 404 });
  });
});

describe('401 from the upstream', () => {
  it('pauses the whole queue without failing anything, until the credentials change', async () => {
    upstream = await startUpstream(await freePort());
    fx = await startSyncHost(upstream.url, { upstream: { url: upstream.url, apiKey: 'sk_wrong_key' } });
    await createVisit(fx.host, 4, { discovery: true });

    const paused = await waitFor('the worker to pause', async () => {
      const s = await fx!.status();
      return s.worker === 'paused' ? s : undefined;
    });
    // Give it time to do something wrong: it must not.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const still = await fx.status();
    expect(still.worker).toBe('paused');
    expect(still.counts).toMatchObject({ failed: 0, blocked: 0, synced: 0, sending: 0 });
    expect(still.counts.queued).toBe(paused.counts.queued + paused.counts.sending);
    expect(still.online).toBe(true);
    expect(fx.statuses.some((s) => s.worker === 'paused')).toBe(true);
    const open = (await fx.host.bridge['sync.list']({})).data;
    expect(open.every((i) => i.state === 'queued')).toBe(true);
    // Paused at the first contact (the reference-data refresh), before any entry went out.
    expect(open.every((i) => i.last_error === null || i.last_error.status === 401)).toBe(true);

    // The desk enters the right key in Settings: the queue resumes and drains.
    const saved = await fx.host.bridge['settings.update']({ upstream_url: upstream.url, api_key: SANDBOX_KEY });
    expect(saved).toMatchObject({ mode: 'upstream', upstream_url: upstream.url, api_key_set: true });
    expect(JSON.stringify(saved)).not.toContain(SANDBOX_KEY);
    await waitForDrained(fx);
    expectExactlyOnce(fx.host.database.db, upstream.database.db);
    expect((await fx.status()).worker).toBe('running');

    // The key is a secret: not in the database, only sealed in a file only this user can read.
    const rows = fx.host.database.db.select().from(settings).all();
    expect(JSON.stringify(rows)).not.toContain(SANDBOX_KEY);
    const secretFile = secretsFilePath(fx.dataDir);
    expect(fs.readFileSync(secretFile, 'latin1')).toMatch(/^CDS1/);
    expect(fs.readFileSync(secretFile, 'latin1')).not.toContain(SANDBOX_KEY);
    if (process.platform !== 'win32') expect(fs.statSync(secretFile).mode & 0o777).toBe(0o600);
  });
});

describe('Retry-After', () => {
  it('is honoured: nothing is sent before it has passed, even though the backoff alone would retry sooner', async () => {
    upstream = await startUpstream(await freePort());
    const proxy = await startScriptedProxy(upstream.url);
    proxies.push(proxy);
    let limited = 0;
    proxy.script.current = ({ method, path }) => {
      if (method === 'POST' && path === '/v1/patients' && limited < 1) {
        limited += 1;
        return { status: 429, headers: { 'retry-after': '1' }, body: { error: { type: 'rate_limit_error', code: 'rate_limited', message: 'Slow down.' } } };
      }
      return undefined;
    };
    fx = await startSyncHost(proxy.url);
    await waitFor('the first contact', async () => (await fx!.status()).online === true);
    const visit = await createVisit(fx.host, 5);
    await waitForDrained(fx);
    expectExactlyOnce(fx.host.database.db, upstream.database.db);

    const limitedAt = proxy.requests.find((r) => r.status === 429)!;
    const patientPosts = proxy.requests.filter((r) => r.method === 'POST' && r.path === '/v1/patients');
    expect(patientPosts.map((r) => r.status)).toEqual([429, 201]);
    expect(patientPosts[1].idempotencyKey).toBe(limitedAt.idempotencyKey);
    expect(patientPosts[1].at - limitedAt.at).toBeGreaterThanOrEqual(1000);
    // A 429 holds the whole queue, not only the request that got it (requests already on
    // their way when it was answered are let through).
    const during = proxy.requests.filter((r) => r.at > limitedAt.at + 50 && r.at < limitedAt.at + 950);
    expect(during).toEqual([]);
    expect((await fx.host.bridge['patients.get']({ id: visit.patient.id })).sync?.state).toBe('synced');
  });
});
