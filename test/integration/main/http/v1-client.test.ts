import { afterEach, describe, expect, it } from 'vitest';
import { createIdempotencyStore } from '@src/main/http/idempotency-store';
import { listen, type Listening } from '@src/main/http/listen';
import { createHttpV1Client, parseRetryAfter } from '@src/main/http/v1-client';
import { createV1App } from '@src/main/http/v1-app';
import type { V1Service } from '@src/shared/contract';
import { ServiceError } from '@src/shared/service-error';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { makePng } from '@test/support/images';

/** The upstream client against a real /v1 server on loopback (the host's service behind the HTTP layer). */
let fx: HostFixture | undefined;
let server: Listening | undefined;
afterEach(async () => {
  await server?.close();
  await fx?.cleanup();
  server = fx = undefined;
});

async function serve(wrap: (s: V1Service) => V1Service = (s) => s) {
  fx = startTestHost({ localApi: false, hotFolder: false });
  const { host } = fx;
  const app = createV1App({
    service: wrap(host.service),
    source: 'api',
    apiKey: () => 'secret',
    idempotency: createIdempotencyStore({ db: host.database.db, clock: host.clock }),
    ids: host.ids,
  });
  server = await listen(app, { port: 0 });
  return server.address;
}

async function failure(run: () => Promise<unknown>): Promise<ServiceError> {
  const error = await run().then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

describe('the upstream HTTP client', () => {
  it('creates with the Idempotency-Key, reads, lists and moves photos', async () => {
    const client = createHttpV1Client({ baseUrl: await serve(), apiKey: 'secret' });
    const patient = await client.create('patients', { first_name: 'Ada', last_name: 'L', date_of_birth: '1985-12-10' }, { source: 'api', idempotency_key: 'obx_1' });
    const again = await client.create('patients', { first_name: 'Ada', last_name: 'L', date_of_birth: '1985-12-10' }, { source: 'api', idempotency_key: 'obx_1' });
    expect(again.id).toBe(patient.id);
    expect((await client.get('patients', patient.id)).first_name).toBe('Ada');
    expect((await client.list('patients', { limit: 1 })).data).toHaveLength(1);
    const png = makePng(5, 5);
    const { object_key } = await client.uploadPhoto({ content_type: 'image/png', bytes: png });
    const photo = await client.readPhoto(object_key);
    expect(photo.content_type).toBe('image/png');
    expect(Buffer.from(photo.bytes).equals(Buffer.from(png))).toBe(true);
  });

  it("keeps the upstream's error code, field errors and status", async () => {
    const client = createHttpV1Client({ baseUrl: await serve(), apiKey: 'secret' });
    const invalid = await failure(() => client.create('patients', { first_name: 'A' } as never, { source: 'api' }));
    expect(invalid).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(invalid.errors?.map((e) => e.path).sort()).toEqual(['date_of_birth', 'last_name']);
    expect(await failure(() => createHttpV1Client({ baseUrl: server!.address, apiKey: 'wrong' }).list('patients'))).toMatchObject({
      status: 401,
      code: 'unauthorized',
    });
  });

  it('reads Retry-After as seconds or a date', async () => {
    const client = createHttpV1Client({
      baseUrl: await serve((s) => ({
        ...s,
        list: async () => {
          throw new ServiceError('service_unavailable', 'Down for a moment.', undefined, { retryAfterSeconds: 7 });
        },
      })),
      apiKey: 'secret',
    });
    expect(await failure(() => client.list('patients'))).toMatchObject({ status: 503, code: 'service_unavailable', retryAfterSeconds: 7 });
    expect(parseRetryAfter('120')).toBe(120);
    expect(parseRetryAfter(new Date(Date.parse('2026-01-01T00:00:30Z')).toUTCString(), Date.parse('2026-01-01T00:00:00Z'))).toBe(30);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('says upstream_unreachable with status 0 when nothing answers or the answer is too slow', async () => {
    const address = await serve((s) => ({ ...s, list: () => new Promise(() => {}) }));
    const slow = createHttpV1Client({ baseUrl: address, apiKey: 'secret', timeoutMs: 100 });
    expect(await failure(() => slow.list('patients'))).toMatchObject({ status: 0, code: 'upstream_unreachable' });
    await server!.close();
    server = undefined;
    const down = createHttpV1Client({ baseUrl: address, apiKey: 'secret' });
    expect(await failure(() => down.get('patients', 'pat_x'))).toMatchObject({ status: 0, code: 'upstream_unreachable' });
  });
});
