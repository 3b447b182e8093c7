import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createIdempotencyStore } from '@src/main/http/idempotency-store';
import { listen, type Listening } from '@src/main/http/listen';
import { MAX_ANSWER_BYTES } from '@src/main/http/upstream-transport';
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

/** A raw node:http server on loopback answering as `answer` says: an upstream that misbehaves. */
async function rawServer(
  answer: (request: http.IncomingMessage, response: http.ServerResponse) => void,
  host = '127.0.0.1',
): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server = http.createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    request.resume();
    request.on('end', () => answer(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('the upstream HTTP client against an upstream that misbehaves', () => {
  let raw: Awaited<ReturnType<typeof rawServer>> | undefined;
  afterEach(async () => {
    await raw?.close();
    raw = undefined;
  });

  it('does not follow a redirect: a POST never turns into a GET somewhere else, and the error says where it pointed', async () => {
    raw = await rawServer((_request, response) => {
      response.writeHead(307, { Location: 'https://elsewhere.example/v1/patients' });
      response.end();
    });
    const client = createHttpV1Client({ baseUrl: raw.url, apiKey: 'secret' });
    const error = await failure(() => client.create('patients', { first_name: 'A', last_name: 'B', date_of_birth: '1980-01-01' }, { source: 'api' }));
    expect(error).toMatchObject({ status: 307, code: 'upstream_redirected' });
    expect(error.message).toMatch(/redirect \(HTTP 307 to https:\/\/elsewhere\.example\/v1\/patients\).*Settings/);
    expect(raw.seen).toEqual(['POST /v1/patients']);
  });

  it('reaches an upstream by an IPv6 address', async () => {
    raw = await rawServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end('{"id":"prv_1"}');
    }, '::1');
    const client = createHttpV1Client({ baseUrl: raw.url, apiKey: 'secret' });
    const error = await client.get('providers', 'prv_1').then(() => null, (e: unknown) => e as ServiceError);
    // The record may not parse; what matters is that the request arrived.
    expect(error?.code).not.toBe('upstream_unreachable');
    expect(raw.seen).toEqual(['GET /v1/providers/prv_1']);
  });

  it('sends again, once, on a fresh connection when a kept-alive one turns out closed before any answer', async () => {
    let onFirstSocket = 0;
    let firstSocket: unknown;
    raw = await rawServer((request, response) => {
      firstSocket ??= request.socket;
      if (request.socket === firstSocket && ++onFirstSocket === 2) {
        // As a server that dropped the idle connection just as the next request was sent.
        request.socket.destroy();
        return;
      }
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ data: [], next_cursor: null }));
    });
    const client = createHttpV1Client({ baseUrl: raw.url, apiKey: 'secret' });
    await client.list('patients').catch(() => undefined);
    await client.list('patients').catch((e: unknown) => {
      expect((e as ServiceError).code).not.toBe('upstream_unreachable');
    });
    expect(raw.seen).toEqual(['GET /v1/patients', 'GET /v1/patients', 'GET /v1/patients']);
  });

  it('reads JSON that starts with a byte-order mark', async () => {
    raw = await rawServer((_request, response) => {
      response.writeHead(503, { 'Content-Type': 'application/json' });
      response.end(`\uFEFF${JSON.stringify({ error: { type: 'api_error', code: 'service_unavailable', message: 'Down.' } })}`);
    });
    const client = createHttpV1Client({ baseUrl: raw.url, apiKey: 'secret' });
    expect(await failure(() => client.list('patients'))).toMatchObject({ status: 503, code: 'service_unavailable' });
  });

  it('keeps the base URL’s own path in front of every route', async () => {
    raw = await rawServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ data: [], next_cursor: null }));
    });
    const client = createHttpV1Client({ baseUrl: `${raw.url}/eligibility/`, apiKey: 'secret' });
    // The page itself is not the point here (it may not parse): where the request went is.
    await client.list('patients', { limit: 2 }).catch(() => undefined);
    expect(raw.seen).toEqual(['GET /eligibility/v1/patients?limit=2']);
  });

  it('says upstream_unreachable when the answer breaks off before its declared length', async () => {
    raw = await rawServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '500' });
      response.write('{"data": [');
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const client = createHttpV1Client({ baseUrl: raw.url, apiKey: 'secret' });
    const error = await failure(() => client.list('patients'));
    expect(error).toMatchObject({ status: 0, code: 'upstream_unreachable' });
    expect(error.message).toMatch(/mid-response/);
  });

  it('times out an answer that starts but never ends', async () => {
    raw = await rawServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('{"data": [');
    });
    const client = createHttpV1Client({ baseUrl: raw.url, apiKey: 'secret', timeoutMs: 150 });
    expect(await failure(() => client.list('patients'))).toMatchObject({ status: 0, code: 'upstream_unreachable' });
  });

  it('stops reading an answer larger than any the contract has, and keeps nothing of it', async () => {
    let sentWhole = false;
    raw = await rawServer((_request, response) => {
      response.on('finish', () => (sentWhole = true));
      response.writeHead(200, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      // Twice the limit, sent as the socket drains: more than any socket buffer holds.
      let left = (2 * MAX_ANSWER_BYTES) / chunk.length;
      const more = () => {
        while (left > 0) {
          left--;
          if (!response.write(chunk)) return void response.once('drain', more);
        }
        response.end();
      };
      more();
    });
    const client = createHttpV1Client({ baseUrl: raw.url, apiKey: 'secret' });
    const error = await failure(() => client.list('patients'));
    expect(error).toMatchObject({ status: 502, code: 'upstream_invalid_response' });
    expect(error.message).toMatch(/more than 32 MiB/);
    // The connection was cut while the server was still sending: the answer was never read whole.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sentWhole).toBe(false);
  });

  it('calls a whole answer that is not JSON an invalid response, not a lost one', async () => {
    raw = await rawServer((_request, response) => {
      response.writeHead(201, { 'Content-Type': 'application/json' });
      response.end('<html>gateway</html>');
    });
    const client = createHttpV1Client({ baseUrl: raw.url, apiKey: 'secret' });
    expect(await failure(() => client.get('patients', 'pat_1'))).toMatchObject({ status: 502, code: 'upstream_invalid_response' });
  });

  it('treats an address that is not a URL, or a key HTTP cannot carry, as unreachable, and a 5xx without an envelope by its status', async () => {
    expect(await failure(() => createHttpV1Client({ baseUrl: 'not a url', apiKey: 'k' }).list('patients'))).toMatchObject({ status: 0, code: 'upstream_unreachable' });
    expect(await failure(() => createHttpV1Client({ baseUrl: 'http://127.0.0.1:9', apiKey: 'line\nbreak' }).list('patients'))).toMatchObject({
      status: 0,
      code: 'upstream_unreachable',
    });
    raw = await rawServer((_request, response) => {
      response.writeHead(502, { 'Retry-After': '3' });
      response.end('Bad gateway');
    });
    expect(await failure(() => createHttpV1Client({ baseUrl: raw!.url, apiKey: 'k' }).list('patients'))).toMatchObject({
      status: 502,
      code: 'upstream_error',
      retryAfterSeconds: 3,
    });
  });
});
