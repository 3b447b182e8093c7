import net from 'node:net';
import { isNotNull } from 'drizzle-orm';
import { afterEach, expect } from 'vitest';
import type { Db } from '@src/main/db/open-database';
import * as schema from '@src/main/db/schema';
import { createHost, type Host, type HostOptions } from '@src/main/host/create-host';
import { startSandbox, type Sandbox, type SandboxOptions } from '@src/main/sandbox/start-sandbox';
import type { SyncStatus } from '@src/shared/bridge/desk-contract';
import { makeTempDir } from '@test/support/temp-dir';
import { FAST_POLICY, SANDBOX_KEY } from './visits';

export { createVisit, FAST_POLICY, SANDBOX_KEY } from './visits';

/** A loopback port nobody listens on (yet): the upstream that is "down" until started there. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function startUpstream(port: number, options: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  return startSandbox({ port, apiKey: SANDBOX_KEY, delayMs: 50, ...options });
}

export interface SyncHostFixture {
  host: Host;
  dataDir: string;
  status(): Promise<SyncStatus>;
  /** Every status event the host published, in order. */
  statuses: SyncStatus[];
  close(): Promise<void>;
}

/** A host syncing to `url` with fast backoffs; no local API or hot folder (not under test here). */
export async function startSyncHost(url: string, options: Partial<HostOptions> = {}): Promise<SyncHostFixture> {
  const temp = options.dataDir ? null : makeTempDir('coverdesk-sync-');
  const dataDir = options.dataDir ?? temp!.dir;
  const host = createHost({
    dataDir,
    upstream: { url, apiKey: SANDBOX_KEY },
    localApi: false,
    hotFolder: false,
    ...options,
    sync: { policy: FAST_POLICY, timeoutMs: 2_000, ...options.sync },
  });
  const statuses: SyncStatus[] = [];
  host.events.on('sync.status', (s) => statuses.push(s));
  await host.start();
  return {
    host,
    dataDir,
    statuses,
    status: () => host.bridge['sync.status']({}),
    async close() {
      await host.close();
      temp?.cleanup();
    },
  };
}

type Closable = { close(): Promise<void> | void } | undefined;

/**
 * After each test, closes what it started: the getters read the test file's variables
 * (host fixture, upstream, proxies) then, and closing twice is harmless for all of them.
 */
export function closeAfterEach(...targets: (() => Closable | Closable[])[]): void {
  afterEach(async () => {
    for (const target of targets) for (const item of [target()].flat()) await item?.close();
  });
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const RECORD_TABLES = {
  patients: schema.patients,
  insurance_cards: schema.insurance_cards,
  extractions: schema.extractions,
  electronic_eligibility_discoveries: schema.discoveries,
  electronic_eligibility_checks: schema.checks,
} as const;

/** Nothing left to send and nothing left pending locally. */
export async function waitForDrained(fx: { host: Host }, timeoutMs = 20_000): Promise<void> {
  await waitFor(
    'the outbox to drain and pending records to finish',
    async () => {
      const { counts } = await fx.host.bridge['sync.status']({});
      if (counts.queued + counts.sending + counts.blocked > 0) return false;
      const db = fx.host.database.db;
      const pending = [schema.extractions, schema.discoveries, schema.checks].some(
        (table) => db.$client.prepare(`SELECT 1 FROM "${tableName(table)}" WHERE status = 'pending' LIMIT 1`).get() !== undefined,
      );
      return !pending;
    },
    timeoutMs,
  );
}

function tableName(table: object): string {
  return (table as Record<symbol, string>)[Symbol.for('drizzle:Name')];
}

/**
 * Exactly once: every local record reached the upstream (has a remote id), no two share
 * one, and the upstream holds no record this desk did not make (or store from it).
 */
export function expectExactlyOnce(local: Db, upstream: Db): void {
  for (const [collection, table] of Object.entries(RECORD_TABLES)) {
    const localRows = local.select({ id: table.id, remote_id: table.remote_id }).from(table).all();
    const missing = localRows.filter((r) => !r.remote_id).map((r) => r.id);
    expect(missing, `${collection} never reached the upstream`).toEqual([]);
    const remoteIds = localRows.map((r) => r.remote_id as string).sort();
    expect(new Set(remoteIds).size, `${collection}: two local records share an upstream id`).toBe(remoteIds.length);
    const upstreamIds = upstream.select({ id: table.id }).from(table).all().map((r) => r.id).sort();
    expect(upstreamIds, `${collection}: upstream records differ from the local ones`).toEqual(remoteIds);
  }
  const localPhotos = local.select({ remote_id: schema.photos.remote_id }).from(schema.photos).where(isNotNull(schema.photos.object_key)).all();
  expect(localPhotos.filter((p) => !p.remote_id)).toEqual([]);
  const upstreamPhotos = upstream.select({ key: schema.photos.object_key }).from(schema.photos).all().map((p) => p.key).sort();
  expect(upstreamPhotos).toEqual(localPhotos.map((p) => p.remote_id as string).sort());
}

