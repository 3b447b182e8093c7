import { describe, expect, it } from 'vitest';
import type { Sandbox } from '@src/main/sandbox/start-sandbox';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { startScriptedProxy } from '@test/support/sync/scripted-proxy';
import { closeAfterEach, freePort, startSyncHost, startUpstream, waitFor, waitForDrained, type SyncHostFixture } from '@test/support/sync/sync-harness';

let fx: SyncHostFixture | undefined;
let upstream: Sandbox | undefined;
const proxies: { close(): Promise<void> }[] = [];
closeAfterEach(() => fx, () => upstream, () => proxies.splice(0));

describe('results flow back', () => {
  it('stores failure reasons and entity errors, polls a long-pending check with backoff until it ends, and keeps terminal results', async () => {
    upstream = await startUpstream(await freePort(), { longPendingMs: 900 });
    const proxy = await startScriptedProxy(upstream.url);
    proxies.push(proxy);
    fx = await startSyncHost(proxy.url);
    const { bridge } = fx.host;
    const patient = await bridge['patients.create']({ first_name: 'Grace', last_name: 'Okoye', date_of_birth: '1970-10-10' });
    const run = async (member_id: string) => {
      const card = await bridge['cards.create']({ patient_id: patient.id, member_id });
      const check = await bridge['checks.create']({
        insurance_card_id: card.id,
        provider_id: SEED_PROVIDERS[2].id,
        clearinghouse_entity_id: SEED_CLEARINGHOUSE_ENTITIES[2].id,
        service_type: 'physical_therapy',
      });
      return { card, check };
    };
    const rejected = await run('AAA72Z0001');
    const chError = await run('CHERROR-9');
    const slow = await run('PENDING42001');
    const extraction = await bridge['extractions.create']({ insurance_card_id: rejected.card.id });

    // The rejected and failed checks end first; the long-pending one stays pending locally meanwhile.
    // The two quick ones are polled independently: either may come back first.
    await waitFor('the quick results', async () =>
      (await Promise.all([rejected, chError].map(({ check }) => bridge['checks.get']({ id: check.id })))).every((c) => c.status === 'failure'),
    );
    const aaa = await bridge['checks.get']({ id: rejected.check.id });
    expect(aaa).toMatchObject({ status: 'failure', failure_reason: 'clearinghouse_entity_error', sync: { state: 'synced' } });
    expect(aaa.finished_at).toBeDefined();
    expect(aaa.clearinghouse_entity_errors).toEqual([expect.objectContaining({ code: '72', follow_up_action: expect.any(String) })]);
    expect(await bridge['checks.get']({ id: chError.check.id })).toMatchObject({ failure_reason: 'clearinghouse_error' });
    expect((await bridge['checks.get']({ id: slow.check.id })).status).toBe('pending');

    await waitForDrained(fx);
    const done = await bridge['checks.get']({ id: slow.check.id });
    expect(done.status).toBe('success');
    expect(done.benefits?.length).toBeGreaterThan(0);
    expect((await bridge['cards.get']({ id: slow.card.id })).plan_status).toBe('active');
    // A rejected check leaves the card's plan status unknown, as the upstream does.
    expect((await bridge['cards.get']({ id: rejected.card.id })).plan_status).toBeUndefined();

    // Polled with backoff: over ~0.9 s a fixed 20 ms poll would have asked ~45 times.
    const remoteSlow = done.sync!.remote_id!;
    const polls = proxy.requests.filter((r) => r.method === 'GET' && r.path === `/v1/electronic_eligibility_checks/${remoteSlow}`);
    expect(polls.length).toBeGreaterThanOrEqual(3);
    expect(polls.length).toBeLessThanOrEqual(20);

    // The extraction ended too: the device's reading if it finished first, else the upstream's.
    const ended = await bridge['extractions.get']({ id: extraction.id });
    expect(ended.status).not.toBe('pending');
    if (ended.engine === 'upstream') expect(ended).toMatchObject({ status: 'failure', failure_reason: 'no_engine' });

    // Terminal results never change: another pass of the worker leaves them as they are.
    const before = await bridge['checks.get']({ id: rejected.check.id });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await bridge['checks.get']({ id: rejected.check.id })).toEqual(before);
  });
});
