import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FaultKind, FaultOptions } from '@src/main/sandbox/fault-injection';
import { ErrorEnvelope } from '@src/shared/contract';
import { makeTempDir } from '@test/support/temp-dir';
import { startTestSandbox, type SandboxFixture } from '@test/support/sandbox-fixture';

const PATIENT = { first_name: 'Fault', last_name: 'Tolerant', date_of_birth: '1970-01-01' };

let fx: SandboxFixture | undefined;
const temps: { cleanup(): void }[] = [];
afterEach(async () => {
  await fx?.close();
  fx = undefined;
  for (const t of temps.splice(0)) t.cleanup();
});

async function withFaults(faults: FaultOptions, extra: Parameters<typeof startTestSandbox>[0] = {}) {
  fx = await startTestSandbox({ faults, ...extra });
  return fx;
}

const patientCount = () => (fx!.sandbox.database.sqlite.prepare('SELECT count(*) AS n FROM patients').get() as { n: number }).n;

/** A request whose connection is cut: the client sees a network error, not an answer. */
async function cut(run: () => Promise<unknown>) {
  const error = await run().then(
    () => null,
    (e: unknown) => e as NodeJS.ErrnoException,
  );
  expect(error).not.toBeNull();
  expect(['ECONNRESET', 'EPIPE'].includes(error!.code ?? '') || /socket hang up/.test(error!.message)).toBe(true);
}

describe('fault injection', () => {
  it('is off by default: a hundred requests, a hundred answers', async () => {
    fx = await startTestSandbox();
    for (let i = 0; i < 100; i++) expect((await fx.call('GET', '/v1/providers?limit=1')).status).toBe(200);
  });

  it.each([
    ['500', 500, 'internal_error', undefined],
    ['503', 503, 'service_unavailable', '2'],
    ['429', 429, 'rate_limited', '2'],
  ] as const)('%s: the error envelope (with Retry-After where due) and nothing written', async (kind, status, code, retryAfter) => {
    await withFaults({ rates: { [kind]: 1 }, retryAfterSeconds: 2 });
    const before = fx!.snapshot();
    const answer = await fx!.call('POST', '/v1/patients', PATIENT, { 'idempotency-key': `k-${kind}` });
    expect(answer.status).toBe(status);
    expect(ErrorEnvelope.parse(answer.json).error.code).toBe(code);
    expect(answer.headers['retry-after']).toBe(retryAfter);
    expect(fx!.snapshot()).toEqual(before);
  });

  it('reset: the connection drops before the request runs, and nothing is written', async () => {
    await withFaults({ rates: { reset: 1 } });
    const before = fx!.snapshot();
    await cut(() => fx!.call('POST', '/v1/patients', PATIENT));
    expect(fx!.snapshot()).toEqual(before);
  });

  it('lost: the request commits, the answer never arrives, and a retry with the same key replays it', async () => {
    const temp = makeTempDir();
    temps.push(temp);
    const dbFile = path.join(temp.dir, 'sandbox.sqlite');
    await withFaults({ rates: { lost: 1 } }, { dbFile });
    await cut(() => fx!.call('POST', '/v1/patients', PATIENT, { 'idempotency-key': 'lost-1' }));
    expect(patientCount()).toBe(1);
    await fx!.close();

    // The same data without faults: the retry is answered from the stored first response.
    fx = await startTestSandbox({ dbFile });
    const retry = await fx.call('POST', '/v1/patients', PATIENT, { 'idempotency-key': 'lost-1' });
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(patientCount()).toBe(1);
    expect((await fx.call('GET', `/v1/patients/${retry.json.id}`)).json).toMatchObject(PATIENT);
  });

  it('slow: the answer comes slow-ms late, and right', async () => {
    await withFaults({ rates: { slow: 1 }, slowMs: 300 });
    const started = Date.now();
    const answer = await fx!.call('GET', '/v1/providers');
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('latency: added to every answer', async () => {
    fx = await startTestSandbox({ latencyMs: 150 });
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      expect((await fx.call('GET', '/v1/providers')).status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    }
  });

  it('a seeded mix: the fractions roughly as asked, and the same seed gives the same faults', async () => {
    const rates = { '500': 0.1, '503': 0.1, '429': 0.1, reset: 0.05, lost: 0.05 } as const;
    async function run(seed: number): Promise<(FaultKind | 'ok')[]> {
      const seen: (FaultKind | 'ok')[] = [];
      const injected: FaultKind[] = [];
      await withFaults({ rates, seed, onFault: (kind) => injected.push(kind) });
      for (let i = 0; i < 120; i++) {
        const before = injected.length;
        const outcome = await fx!.call('GET', '/v1/providers?limit=1').then(
          (a) => String(a.status),
          () => 'cut',
        );
        const kind = injected.length > before ? injected[injected.length - 1] : 'ok';
        // What the client saw matches what was injected.
        const expected = { ok: '200', '500': '500', '503': '503', '429': '429', reset: 'cut', lost: 'cut', slow: '200' }[kind];
        expect(outcome).toBe(expected);
        seen.push(kind);
      }
      await fx!.close();
      fx = undefined;
      return seen;
    }
    const first = await run(7);
    expect(await run(7)).toEqual(first);
    expect(await run(8)).not.toEqual(first);
    const share = (kind: FaultKind | 'ok') => first.filter((k) => k === kind).length / first.length;
    // 120 draws: each fraction within a generous binomial margin.
    for (const [kind, rate] of Object.entries(rates)) expect(Math.abs(share(kind as FaultKind) - rate)).toBeLessThan(0.08);
    expect(Math.abs(share('ok') - 0.6)).toBeLessThan(0.12);
  });

  it('refuses rates outside 0..1 or adding up to more than 1', async () => {
    await expect(startTestSandbox({ faults: { rates: { '500': 1.5 } } })).rejects.toThrow(/between 0 and 1/);
    await expect(startTestSandbox({ faults: { rates: { '500': 0.6, '503': 0.6 } } })).rejects.toThrow(/at most 1/);
  });
});
