import { describe, expect, it } from 'vitest';
import { createHost, type Host } from '@src/main/host/create-host';
import { createHttpV1Client } from '@src/main/http/v1-client';
import type { Sandbox } from '@src/main/sandbox/start-sandbox';
import type { V1Service } from '@src/shared/contract';
import { createSyncEngine, type SyncEngine } from '@src/main/sync/sync-engine';
import { makeTempDir } from '@test/support/temp-dir';
import { startScriptedProxy } from '@test/support/sync/scripted-proxy';
import { closeAfterEach, expectExactlyOnce, FAST_POLICY, freePort, SANDBOX_KEY, startUpstream, waitFor } from '@test/support/sync/sync-harness';

/**
 * The sync worker's reserve (docs/decisions.md, Sync): entries claimed ahead of a free slot,
 * so a finished send starts the next in the same turn instead of the window waiting for the
 * next round's commit. Against the real sandbox over HTTP (through a proxy that can hold an
 * answer back). A window of one makes the order exact.
 */

const temp = makeTempDir('coverdesk-reserve-');
let host: Host | undefined;
let engine: SyncEngine | undefined;
let upstream: Sandbox | undefined;
const proxies: { close(): Promise<void> }[] = [];
closeAfterEach(
  () => (engine ? { close: () => engine!.stop() } : undefined),
  () => host,
  () => upstream,
  () => proxies.splice(0),
);

type Row = { id: string; state: string; attempts: number; first_attempt_at: string | null };

/** `sending` notes what the desk's outbox says as each create request starts. */
async function setUp(name: string, patients: number, sending?: (key: string) => void) {
  upstream = await startUpstream(await freePort());
  const proxy = await startScriptedProxy(upstream.url);
  proxies.push(proxy);
  host = createHost({ dataDir: `${temp.dir}/${name}`, localApi: false, hotFolder: false });
  // Queued before the worker starts, as a desk that was offline.
  for (let i = 0; i < patients; i++) {
    await host.service.create('patients', { first_name: `Reserve${i}`, last_name: 'Test', date_of_birth: '1970-01-01' }, { source: 'dashboard' });
  }
  const sqlite = host.database.sqlite;
  const outbox = () => sqlite.prepare('SELECT id, state, attempts, first_attempt_at FROM outbox ORDER BY rowid').all() as Row[];
  engine = createSyncEngine({
    db: host.database.db,
    clock: host.clock,
    ids: host.ids,
    policy: { ...FAST_POLICY, concurrency: 1, maxConcurrency: 1 },
    readPhoto: (key) => host!.service.readPhoto(key),
  });
  const client = createHttpV1Client({ baseUrl: proxy.url, apiKey: SANDBOX_KEY, timeoutMs: 5_000 });
  const service: V1Service = {
    ...client,
    create(collection, input, context) {
      sending?.(context.idempotency_key!);
      return client.create(collection, input, context);
    },
  };
  engine.setUpstream({ mode: 'upstream', url: proxy.url, service });
  return { proxy, outbox };
}

describe('the sync worker keeps its window full from claimed entries', () => {
  it('a finished send starts the next claimed entry at once, before a round writes its outcome', async () => {
    // For each create as it starts: what the desk's outbox says of the entry sent before it.
    const before: (string | undefined)[] = [];
    let previous: string | undefined;
    const { outbox } = await setUp('next-at-once', 3, (key) => {
      before.push(previous ? outbox().find((row) => row.id === previous)?.state : undefined);
      previous = key;
    });
    engine!.start();
    await waitFor('every entry synced', () => outbox().every((row) => row.state === 'synced') || undefined);

    // The second and third requests started with their predecessor's answer: its outcome was
    // still to be written (without the reserve, the round that writes it claims the next).
    expect(before).toEqual([undefined, 'sending', 'sending']);
    expect(outbox().map((row) => row.attempts)).toEqual([1, 1, 1]);
    expectExactlyOnce(host!.database.db, upstream!.database.db);
  });

  it('claims two windows ahead, so a round writes many outcomes and claims at once', async () => {
    const { proxy, outbox } = await setUp('two-windows', 6);
    let first: string | undefined;
    // The first answer is held back: no slot frees, so what is claimed is the first round's.
    proxy.script.current = ({ method, idempotencyKey }) => {
      if (method !== 'POST' || (first && first !== idempotencyKey)) return undefined;
      first = idempotencyKey;
      return { forwardAfterMs: 400 };
    };
    engine!.start();
    const sending = () => outbox().filter((row) => row.state === 'sending').length;
    // The one in flight and a reserve of two windows (a window is one request here).
    await waitFor('the reserve claimed', () => sending() >= 3 || undefined);
    expect(sending()).toBe(3);
    await waitFor('every entry synced', () => outbox().every((row) => row.state === 'synced') || undefined);
    expect(outbox().map((row) => row.attempts)).toEqual([1, 1, 1, 1, 1, 1]);
    expectExactlyOnce(host!.database.db, upstream!.database.db);
  });

  it('a stop gives back the claims whose requests never left: queued, their attempt not counted', async () => {
    const { proxy, outbox } = await setUp('stop-releases', 3);
    let first: string | undefined;
    // The first request is answered late: meanwhile the next entries wait, claimed, for its slot.
    proxy.script.current = ({ method, idempotencyKey }) => {
      if (method !== 'POST' || first) return undefined;
      first = idempotencyKey;
      return { forwardAfterMs: 300 };
    };
    engine!.start();
    await waitFor('an entry claimed ahead of a free slot', () => outbox().filter((row) => row.state === 'sending').length >= 2 || undefined);
    await engine!.stop();

    const rows = outbox();
    // The one in flight was answered within the grace and is written; the others are as before their claim.
    expect(rows.find((row) => row.id === first)).toMatchObject({ state: 'synced', attempts: 1 });
    const others = rows.filter((row) => row.id !== first);
    expect(others).toHaveLength(2);
    for (const row of others) expect(row).toMatchObject({ state: 'queued', attempts: 0, first_attempt_at: null });
    expect(proxy.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });
});
