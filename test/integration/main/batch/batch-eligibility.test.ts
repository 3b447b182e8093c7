import { describe, expect, it } from 'vitest';
import type { Sandbox } from '@src/main/sandbox/start-sandbox';
import type { BatchProgress } from '@src/shared/bridge/appointment-contract';
import { createDayOfVisits, EXPECTED_STATUS, isCheckable } from '@test/support/batch/day-of-visits';
import { closeAfterEach, expectExactlyOnce, freePort, startSyncHost, startUpstream, waitFor, waitForDrained, type SyncHostFixture } from '@test/support/sync/sync-harness';

let fx: SyncHostFixture | undefined;
let upstream: Sandbox | undefined;
closeAfterEach(() => fx, () => upstream);

const DAY = '2026-12-02';

function checksPerCard(fx: SyncHostFixture): Map<string, number> {
  const rows = fx.host.database.sqlite.prepare('SELECT insurance_card_id AS card, count(*) AS n FROM electronic_eligibility_checks GROUP BY insurance_card_id').all() as { card: string; n: number }[];
  return new Map(rows.map((r) => [r.card, r.n]));
}

describe('batch eligibility for a day', () => {
  it('checks every eligible appointment once, at most K at a time, skips the rest with a reason, and the worklist shows the sandbox outcomes', async () => {
    const port = await freePort();
    upstream = await startUpstream(port, { delayMs: 40 });
    fx = await startSyncHost(`http://127.0.0.1:${port}`, { batchIntervalMs: 20 });
    const { bridge } = fx.host;
    await bridge['appointments.updateSettings']({ max_in_flight: 3 });
    const visits = await createDayOfVisits(fx.host, DAY, 30);
    // A patient registered twice: their appointment waits for a person, never checked.
    for (let i = 0; i < 2; i++) await bridge['patients.create']({ first_name: 'Twin', last_name: 'Case', date_of_birth: '1990-02-03' });
    const ambiguous = await bridge['appointments.create']({ date: DAY, time: '17:00', first_name: 'Twin', last_name: 'Case', date_of_birth: '1990-02-03' });
    expect(ambiguous.patient).toBe('ambiguous');

    const progress: BatchProgress[] = [];
    fx.host.events.on('appointments.progress', (p) => progress.push(p));
    const started = await bridge['appointments.checkDay']({ date: DAY });
    expect(started).toMatchObject({ state: 'running', total: 31, checks: visits.filter((v) => isCheckable(v.kind)).length });

    const finished = await waitFor('the batch to be answered', async () => {
      const p = await bridge['appointments.progress']({ date: DAY });
      return p.done === p.total && p.state === 'finished' ? p : undefined;
    }, 30_000);
    expect(finished.in_flight).toBe(0);
    // Throttled: never more than three of the batch's checks waiting for the upstream at once.
    expect(Math.max(...progress.map((p) => p.in_flight))).toBeLessThanOrEqual(3);
    expect(Math.max(...progress.map((p) => p.in_flight))).toBeGreaterThan(0);
    expect(progress.some((p) => p.seconds_left !== null && p.done < p.total)).toBe(true);

    const perCard = checksPerCard(fx);
    for (const visit of visits) expect(perCard.get(visit.card_id ?? '') ?? 0, visit.kind).toBe(isCheckable(visit.kind) ? 1 : 0);
    // Each check sends PHI to a payer: every one the batch made is in the audit log as a create.
    const checkIds = (fx.host.database.sqlite.prepare('SELECT id FROM electronic_eligibility_checks').all() as { id: string }[]).map((r) => r.id);
    const audited = new Set((fx.host.database.sqlite.prepare("SELECT record_id FROM audit_log WHERE action = 'create'").all() as { record_id: string }[]).map((r) => r.record_id));
    expect(checkIds.length).toBeGreaterThan(0);
    expect(checkIds.filter((id) => !audited.has(id))).toEqual([]);

    const { rows } = await bridge['appointments.worklist']({ date: DAY });
    const byId = new Map(rows.map((r) => [r.appointment.id, r]));
    for (const visit of visits) expect(byId.get(visit.appointment_id)!.status, visit.kind).toBe(EXPECTED_STATUS[visit.kind]);
    expect(byId.get(ambiguous.appointment.id)!.status).toBe('needs_patient');
    const rejected = rows.find((r) => r.status === 'rejected')!;
    expect(rejected.detail).toMatch(/subscriber\/insured ID.*Correct the member id/);
    expect(rows.find((r) => r.status === 'ready')!.detail).toMatch(/^Active/);
    // What needs a person first, then waiting, then ready.
    const groups = rows.map((r) => r.group);
    expect(groups).toEqual([...groups].sort((a, b) => ['needs_attention', 'waiting', 'ready'].indexOf(a) - ['needs_attention', 'waiting', 'ready'].indexOf(b)));

    // "Check tomorrow" again: the successful ones are recent, the rest were just checked; nothing twice.
    await waitForDrained(fx);
    const again = await bridge['appointments.checkDay']({ date: DAY });
    await waitFor('the second batch to finish', async () => (await bridge['appointments.progress']({ date: DAY })).state === 'finished');
    const jobs = fx.host.database.sqlite.prepare('SELECT state, skip_reason, count(*) AS n FROM batch_jobs WHERE batch_id = ? GROUP BY state, skip_reason ORDER BY skip_reason').all(again.batch_id);
    const count = (...kinds: string[]) => visits.filter((v) => kinds.includes(v.kind)).length;
    expect(jobs).toEqual([
      // A rejection or a failure is no answer: those are checked again. Inactive is an answer.
      { state: 'done', skip_reason: null, n: count('rejected', 'check_failed') },
      { state: 'skipped', skip_reason: 'no_card', n: count('no_card') },
      { state: 'skipped', skip_reason: 'no_patient_match', n: 1 },
      { state: 'skipped', skip_reason: 'payer_unknown', n: count('payer_unknown') },
      { state: 'skipped', skip_reason: 'recent_check', n: count('active', 'inactive') },
    ]);
  }, 60_000);

  it('under 429s with Retry-After (held by the sync worker) stays within its bound and checks each appointment once', async () => {
    const port = await freePort();
    const limited: string[] = [];
    upstream = await startUpstream(port, {
      delayMs: 30,
      faults: { rates: { '429': 0.2 }, seed: 429, retryAfterSeconds: 1, onFault: (kind, request) => kind === '429' && limited.push(`${request.method} ${request.path}`) },
    });
    fx = await startSyncHost(`http://127.0.0.1:${port}`, { batchIntervalMs: 20 });
    const { bridge } = fx.host;
    await bridge['appointments.updateSettings']({ max_in_flight: 2 });
    const visits = await createDayOfVisits(fx.host, DAY, 12);
    const progress: BatchProgress[] = [];
    fx.host.events.on('appointments.progress', (p) => progress.push(p));
    await bridge['appointments.checkDay']({ date: DAY });
    await waitFor('the batch to be answered', async () => (await bridge['appointments.progress']({ date: DAY })).state === 'finished', 60_000);

    // The upstream refused some of the batch's own checks or their polls; they waited and went again.
    expect(limited.filter((r) => r.includes('/v1/electronic_eligibility_checks')).length).toBeGreaterThan(0);
    expect(Math.max(...progress.map((p) => p.in_flight))).toBeLessThanOrEqual(2);
    const perCard = checksPerCard(fx);
    for (const visit of visits) expect(perCard.get(visit.card_id ?? '') ?? 0).toBe(isCheckable(visit.kind) ? 1 : 0);
    await waitForDrained(fx);
    expectExactlyOnce(fx.host.database.db, upstream.database.db);
  }, 90_000);

  it('starts a scheduled batch at its time, not before, and queues checks offline', async () => {
    const port = await freePort();
    // Nobody listens upstream: the checks queue in the outbox as any check made offline does.
    fx = await startSyncHost(`http://127.0.0.1:${port}`, { batchIntervalMs: 20 });
    const { bridge } = fx.host;
    const visits = await createDayOfVisits(fx.host, DAY, 10);
    const startAt = new Date(Date.now() + 600).toISOString();
    const scheduled = await bridge['appointments.checkDay']({ date: DAY, start_at: startAt });
    expect(scheduled).toMatchObject({ state: 'scheduled', start_at: startAt });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(checksPerCard(fx).size).toBe(0);
    const queued = await waitFor('the scheduled batch to start and queue its checks', async () => {
      const p = await bridge['appointments.progress']({ date: DAY });
      return p.state === 'running' && p.in_flight === p.checks ? p : undefined;
    });
    // Offline nothing is answered: the batch stays open until the answers come.
    expect(queued.done).toBe(queued.total - queued.checks);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(startAt));
    expect(checksPerCard(fx).size).toBe(visits.filter((v) => isCheckable(v.kind)).length);
    const { rows } = await bridge['appointments.worklist']({ date: DAY });
    expect(rows.filter((r) => r.status === 'queued_offline')).toHaveLength(visits.filter((v) => isCheckable(v.kind)).length);
  }, 30_000);
});
