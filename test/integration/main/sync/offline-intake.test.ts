import { describe, expect, it } from 'vitest';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import type { Sandbox } from '@src/main/sandbox/start-sandbox';
import { makePng } from '@test/support/images';
import { closeAfterEach, expectExactlyOnce, FAST_POLICY, freePort, startSyncHost, startUpstream, waitFor, waitForDrained, type SyncHostFixture } from '@test/support/sync/sync-harness';

let fx: SyncHostFixture | undefined;
let upstream: Sandbox | undefined;
closeAfterEach(() => fx, () => upstream);

describe('offline intake', () => {
  it('keeps everything while the upstream is down, then sends it all exactly once and brings the results back', async () => {
    const port = await freePort();
    fx = await startSyncHost(`http://127.0.0.1:${port}`);
    const { bridge } = fx.host;

    // The desk works as usual with nobody listening upstream.
    const patient = await bridge['patients.create']({ first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' });
    const front = await bridge['photos.upload']({ content_type: 'image/png', data_base64: Buffer.from(makePng(4, 4, [9, 9, 9])).toString('base64') });
    const back = await bridge['photos.upload']({ content_type: 'image/png', data_base64: Buffer.from(makePng(4, 4, [8, 8, 8])).toString('base64') });
    const card = await bridge['cards.create']({
      patient_id: patient.id,
      member_id: 'XGH123456789',
      front_photo_object_key: front.object_key,
      back_photo_object_key: back.object_key,
    });
    const discovery = await bridge['discoveries.create']({ insurance_card_id: card.id });
    const check = await bridge['checks.create']({
      insurance_card_id: card.id,
      provider_id: SEED_PROVIDERS[0].id,
      clearinghouse_entity_id: SEED_CLEARINGHOUSE_ENTITIES[4].id,
      service_type: 'health_benefit_plan_coverage',
    });

    const offline = await waitFor('the worker to notice the upstream is down', async () => {
      const status = await fx!.status();
      return status.online === false ? status : undefined;
    });
    expect(offline.counts.queued).toBe(6);
    expect(offline.counts.synced).toBe(0);
    expect(offline.worker).toBe('running');
    expect((await bridge['checks.get']({ id: check.id })).sync).toMatchObject({ state: 'queued', remote_id: null });

    upstream = await startUpstream(port);
    await waitForDrained(fx);

    expectExactlyOnce(fx.host.database.db, upstream.database.db);
    const status = await fx.status();
    expect(status.online).toBe(true);
    expect(status.counts).toMatchObject({ queued: 0, sending: 0, failed: 0, blocked: 0, needs_review: 0, synced: 6 });
    expect(status.last_sync_at).not.toBeNull();
    expect(fx.statuses.some((s) => s.online === false)).toBe(true);
    expect(fx.statuses.at(-1)?.online).toBe(true);

    // Local ids stay; the upstream's ids travel with each record.
    const localCheck = await bridge['checks.get']({ id: check.id });
    expect(localCheck.id).toBe(check.id);
    expect(localCheck.sync?.state).toBe('synced');
    expect(localCheck.sync?.remote_id).toMatch(/^eec_/);
    expect(localCheck.sync?.remote_id).not.toBe(check.id);
    expect(localCheck.status).toBe('success');
    expect(localCheck.finished_at).toBeDefined();
    expect(localCheck.benefits?.some((b) => b.code === 'active_coverage')).toBe(true);

    const upstreamCheck = await upstream.service.get('electronic_eligibility_checks', localCheck.sync!.remote_id!);
    expect(upstreamCheck.insurance_card_id).toBe((await bridge['cards.get']({ id: card.id })).sync?.remote_id);
    expect(upstreamCheck.benefits).toEqual(localCheck.benefits);

    const localCard = await bridge['cards.get']({ id: card.id });
    expect(localCard.plan_status).toBe('active');
    expect(localCard.plan_status_fetched_at).toBeDefined();
    const upstreamCard = await upstream.service.get('insurance_cards', localCard.sync!.remote_id!);
    expect(upstreamCard.reference_id).toBeDefined();
    expect(upstreamCard.front_photo_download_url).toContain(front.object_key);

    // The discovery found Ada in the roster and spawned a check upstream: it is stored here too.
    const localDiscovery = await bridge['discoveries.get']({ id: discovery.id });
    expect(localDiscovery.status).toBe('success');
    const detail = await bridge['desk.patient']({ id: patient.id });
    const spawned = detail.checks.filter((c) => c.electronic_eligibility_discovery_id === discovery.id);
    expect(spawned.length).toBeGreaterThan(0);
    expect(spawned.every((c) => c.source === 'system' && c.status !== 'pending' && c.sync?.state === 'synced')).toBe(true);
  });

  it('notices an idle upstream going away and coming back (a light heartbeat), and publishes each change', async () => {
    const port = await freePort();
    upstream = await startUpstream(port);
    fx = await startSyncHost(upstream.url, { sync: { policy: { ...FAST_POLICY, heartbeatMs: 100 } } });
    const online = (want: boolean) => waitFor(`online = ${want}`, async () => (await fx!.status()).online === want);
    await online(true);
    await upstream.close();
    await online(false);
    upstream = await startUpstream(port);
    await online(true);
    await waitFor('the status events', () => {
      const seen = fx!.statuses.map((s) => s.online);
      return seen.includes(false) && seen.at(-1) === true;
    });
  });
});
