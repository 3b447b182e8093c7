import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { socketPath } from '@src/main/local-api/endpoints';
import { tokenPath } from '@src/main/local-api/token-file';
import { v1Caller } from '@test/support/http-request';
import { openApiDocument } from '@src/shared/contract/openapi-document';
import type { Sandbox } from '@src/main/sandbox/start-sandbox';
import { DISK_FULL_MESSAGE } from '@src/main/storage/disk-full';
import { createDiskSpaceMonitor, freeSpace } from '@src/main/storage/disk-space';
import type { SqliteHandle } from '@src/main/db/open-database';
import { ServiceError } from '@src/shared/service-error';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { makePng } from '@test/support/images';
import { makeTempDir } from '@test/support/temp-dir';
import {
  closeAfterEach,
  createVisit,
  expectExactlyOnce,
  freePort,
  startSyncHost,
  startUpstream,
  waitFor,
  waitForDrained,
  type SyncHostFixture,
} from '@test/support/sync/sync-harness';

/** SQLite's page limit at the file's size now: the next write that needs a page is SQLITE_FULL, no disk filled. */
function capAtCurrentSize(sqlite: SqliteHandle): void {
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const pages = sqlite.pragma('page_count', { simple: true }) as number;
  sqlite.pragma(`max_page_count = ${pages}`);
}

function lift(sqlite: SqliteHandle): void {
  sqlite.pragma('max_page_count = 1073741823');
}

const person = (n: number) => ({ first_name: `Full${n}`, last_name: 'Disk', date_of_birth: '1980-01-01' });

async function refusal(run: () => Promise<unknown>): Promise<unknown> {
  return run().then(
    () => null,
    (error: unknown) => error,
  );
}

describe('a full database', () => {
  let fx: HostFixture | undefined;
  closeAfterEach(() => (fx ? { close: () => fx!.cleanup() } : undefined));

  it('refuses the create that does not fit with the disk-full sentence and a 507, and stores nothing of it', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    const { bridge, database } = fx.host;
    capAtCurrentSize(database.sqlite);
    let error: unknown = null;
    let before: ReturnType<HostFixture['snapshot']> = {};
    for (let n = 0; n < 2_000 && !error; n += 1) {
      before = fx.snapshot();
      error = await refusal(() => bridge['patients.create'](person(n)));
    }
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe('disk_full');
    expect((error as ServiceError).status).toBe(507);
    expect((error as ServiceError).message).toBe(DISK_FULL_MESSAGE);
    // Nothing half-written: no record, no outbox entry, no audit entry of the refused create.
    expect(fx.snapshot()).toEqual(before);

    // Room again: the same create goes through.
    lift(database.sqlite);
    await expect(bridge['patients.create'](person(9_999))).resolves.toMatchObject({ first_name: 'Full9999' });
  });

  it('refuses a photo the disk has no room for, leaving no file and no row', async () => {
    const noSpace = () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
    };
    fx = startTestHost({ localApi: false, hotFolder: false, writePhotoFile: noSpace });
    const before = fx.snapshot();
    const error = await refusal(() =>
      fx!.host.bridge['photos.upload']({ content_type: 'image/png', data_base64: Buffer.from(makePng(4, 4, [7, 7, 7])).toString('base64') }),
    );
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: 'disk_full', status: 507, message: DISK_FULL_MESSAGE });
    expect(fx.snapshot()).toEqual(before);
  });

  it.runIf(process.platform !== 'win32')('answers a scanner 507 disk_full over the local API, storing nothing of the request', async () => {
    fx = startTestHost({ localApi: {}, hotFolder: false });
    await fx.host.start();
    const call = v1Caller({ socketPath: socketPath(fx.dataDir) }, fs.readFileSync(tokenPath(fx.dataDir), 'utf8').trim());
    capAtCurrentSize(fx.host.database.sqlite);
    let answer: Awaited<ReturnType<typeof call>> | null = null;
    let before: ReturnType<HostFixture['snapshot']> = {};
    for (let n = 0; n < 2_000; n += 1) {
      before = fx.snapshot();
      answer = await call('POST', '/v1/patients', person(n), { 'idempotency-key': `full-${n}` });
      if (answer.status !== 201) break;
    }
    expect(answer?.status).toBe(507);
    expect(answer?.json.error).toMatchObject({ type: 'api_error', code: 'disk_full', message: DISK_FULL_MESSAGE });
    expect(fx.snapshot()).toEqual(before);
  });

  it.runIf(process.platform !== 'win32')('answers 507 on the local API\'s other writing routes too (a fee schedule import), from the one HTTP layer', async () => {
    fx = startTestHost({ localApi: {}, hotFolder: false });
    await fx.host.start();
    const call = v1Caller({ socketPath: socketPath(fx.dataDir) }, fs.readFileSync(tokenPath(fx.dataDir), 'utf8').trim());
    const rows = Array.from({ length: 400 }, (_, i) => `V${i},default,${100 + i}.00`).join('\n');
    capAtCurrentSize(fx.host.database.sqlite);
    const before = fx.snapshot();
    const answer = await call('POST', '/v1/fee_schedule/import', `Visit type,Payer,Allowed\n${rows}\n`, { 'content-type': 'text/csv' });
    expect(answer.status, answer.text).toBe(507);
    expect(answer.json.error).toMatchObject({ code: 'disk_full', message: DISK_FULL_MESSAGE });
    expect(fx.snapshot()).toEqual(before);
  });

  it('declares disk_full (507) on every create route of the OpenAPI document', () => {
    const document = openApiDocument() as unknown as { paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>> };
    const creates = Object.values(document.paths).flatMap((item) => (item.post ? [item.post] : []));
    expect(creates.length).toBeGreaterThan(5);
    for (const operation of creates) expect(Object.keys(operation.responses), operation.operationId).toContain('507');
  });
});

describe('the sync worker on a full database', () => {
  let sync: SyncHostFixture | undefined;
  let upstream: Sandbox | undefined;
  closeAfterEach(() => sync, () => upstream);

  it('survives a round it cannot write, says the disk is full, and sends everything once when there is room again', async () => {
    const port = await freePort();
    sync = await startSyncHost(`http://127.0.0.1:${port}`, { sync: { policy: { diskFullRetryMs: 50 } } });
    const { host } = sync;
    // Queued while the upstream is down: their outcomes are what the worker must write.
    for (let n = 0; n < 12; n += 1) await createVisit(host, n);
    await waitFor('the worker to see the upstream is down', async () => (await sync!.status()).online === false);
    capAtCurrentSize(host.database.sqlite);

    upstream = await startUpstream(port);
    const full = await waitFor('the worker to pause for the full disk', async () => {
      const status = await sync!.status();
      return status.storage === 'full' ? status : undefined;
    });
    expect(full.worker).toBe('paused');
    // The desk is told (the banner and the Sync screen read this event).
    await waitFor('the full-disk status event', () => sync!.statuses.some((s) => s.storage === 'full' && s.worker === 'paused'));
    expect(full.counts.queued + full.counts.sending).toBeGreaterThan(0);

    lift(host.database.sqlite);
    await waitForDrained(sync);
    const status = await sync.status();
    expect(status).toMatchObject({ storage: 'ok', worker: 'running' });
    expectExactlyOnce(host.database.db, upstream.database.db);
  });
});

describe('free space', () => {
  it('warns under the margin, through the sync status the banner reads, and clears when space is back', async () => {
    let free = 100 * 1024 * 1024;
    const port = await freePort();
    const sync = await startSyncHost(`http://127.0.0.1:${port}`, { diskSpace: { freeSpace: async () => free, intervalMs: 20 } });
    try {
      expect((await sync.status()).storage).toBe('low');
      free = 2 * 1024 * 1024 * 1024;
      await waitFor('the warning to clear', async () => (await sync.status()).storage === 'ok');
      expect(sync.statuses.some((s) => s.storage === 'low')).toBe(true);
    } finally {
      await sync.close();
    }
  });

  it('measures the real file system with statfs', async () => {
    const temp = makeTempDir();
    try {
      expect(await freeSpace(temp.dir)).toBeGreaterThan(0);
      const monitor = createDiskSpaceMonitor({ dir: temp.dir, marginBytes: Number.MAX_SAFE_INTEGER });
      expect(await monitor.check()).toBe(true);
    } finally {
      temp.cleanup();
    }
  });
});
