import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { socketPath } from '@src/main/local-api/endpoints';
import { tokenPath } from '@src/main/local-api/token-file';
import { startTestHost } from '@test/support/host-fixture';
import { fuzzAgainstDocument, type FuzzReport, type FuzzTarget } from '@test/support/openapi-fuzzer';
import { startTestSandbox } from '@test/support/sandbox-fixture';

/** Bounded in count and time: a few hundred requests each, well under 30 s. */
const LIMITS = { maxRequests: 400, maxMs: 20_000 };
const SEED = Number(process.env.FUZZ_SEED ?? 19);

function expectClean(report: FuzzReport): void {
  // The counts go to the test log: how much was sent, of which kinds, answered how.
  console.log(JSON.stringify({ sent: report.sent, ms: report.ms, byKind: report.byKind, byStatus: report.byStatus }));
  // One line per kind of finding, with the first request that showed it.
  const grouped = new Map<string, string>();
  for (const f of report.findings) {
    const key = `${f.status} ${f.problem.replace(/[0-9A-Za-z_%*&.-]{3,}(?=[ /"]|$)/g, '…').slice(0, 160)}`;
    if (!grouped.has(key)) grouped.set(key, `${f.request} → ${f.status}: ${f.problem.slice(0, 300)}`);
  }
  expect([...grouped.values()]).toEqual([]);
  expect(report.sent).toBeGreaterThanOrEqual(200);
  expect(Object.keys(report.byStatus).every((status) => Number(status) < 500)).toBe(true);
  // Both sides were reached: some requests were accepted and many refused.
  expect(report.byStatus['201']).toBeGreaterThan(0);
  expect(report.byStatus['422']).toBeGreaterThan(0);
}

describe('OpenAPI-driven fuzzing (json-schema-faker requests from the document)', () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it('the sandbox over loopback TCP: no 5xx, every answer as documented, no write from a refused request', async () => {
    const fx = await startTestSandbox();
    closers.push(fx.close);
    const target: FuzzTarget = { target: { baseUrl: fx.sandbox.url }, apiKey: fx.sandbox.apiKey, snapshot: fx.snapshot };
    expectClean(await fuzzAgainstDocument(target, { seed: SEED, ...LIMITS }));
  }, 30_000);

  it.runIf(process.platform !== 'win32')('the local API over its Unix socket: the same', async () => {
    const fx = startTestHost({ localApi: {}, hotFolder: false });
    closers.push(() => fx.cleanup());
    await fx.host.start();
    const target: FuzzTarget = {
      target: { socketPath: socketPath(fx.dataDir) },
      apiKey: fs.readFileSync(tokenPath(fx.dataDir), 'utf8').trim(),
      snapshot: () => fx.snapshot(),
    };
    expectClean(await fuzzAgainstDocument(target, { seed: SEED, ...LIMITS }));
  }, 30_000);
});
