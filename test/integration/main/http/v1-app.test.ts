import type { MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIdempotencyStore } from '@src/main/http/idempotency-store';
import { createV1App } from '@src/main/http/v1-app';
import { MAX_JSON_BYTES, MAX_PHOTO_BYTES, type V1Service } from '@src/shared/contract';
import { ServiceError } from '@src/shared/service-error';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';

/** The HTTP layer through `app.request`, no socket: what only a controlled service can show. */
let fx: HostFixture;
let now = Date.parse('2026-11-23T10:00:00.000Z');
const clock = { now: () => new Date(now) };
beforeEach(() => {
  fx = startTestHost({ localApi: false, hotFolder: false });
});
afterEach(async () => {
  await fx.cleanup();
});

function appOver(service: V1Service, more: { log?: (m: string) => void; before?: MiddlewareHandler[]; apiKey?: () => string | null } = {}) {
  return createV1App({
    service,
    source: 'api',
    apiKey: more.apiKey ?? (() => 'k'),
    idempotency: createIdempotencyStore({ db: fx.host.database.db, clock, ttlMs: 60_000, staleMs: 5_000 }),
    ids: fx.host.ids,
    before: more.before,
    log: more.log,
  });
}

const patient = { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' };
const post = (key: string, body: unknown = patient) => ({
  method: 'POST',
  headers: { authorization: 'Bearer k', 'content-type': 'application/json', 'idempotency-key': key },
  body: JSON.stringify(body),
});

describe('the /v1 HTTP layer', () => {
  it('answers 409 idempotency_request_in_progress while the first request with a key runs; writes only its answer, with the record', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const service = fx.host.service;
    const slow: V1Service = { ...service, create: async (c, i, ctx) => (await gate, service.create(c, i, ctx)) };
    const app = appOver(slow);
    const before = fx.snapshot();
    const first = app.request('/v1/patients', post('k1'));
    await new Promise((r) => setTimeout(r, 20));
    const second = await app.request('/v1/patients', post('k1'));
    expect(second.status).toBe(409);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe('idempotency_request_in_progress');
    // The claim is the running request's own: nothing of it is on disk, no commit spent on it.
    expect(fx.snapshot()).toEqual(before);
    release();
    expect((await first).status).toBe(201);
    expect(fx.snapshot()).toEqual({ ...before, patients: (before.patients as number) + 1, outbox: (before.outbox as number) + 1, idempotency_keys: (before.idempotency_keys as number) + 1 });
    const replay = await app.request('/v1/patients', post('k1'));
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('stores the answer with the record: a failure after the commit is answered again, never created twice', async () => {
    const service = fx.host.service;
    // The record commits, then the request dies before it can answer.
    const dying: V1Service = {
      ...service,
      create: async (c, i, ctx) => {
        await service.create(c, i, ctx);
        throw new Error('lost after the commit');
      },
    };
    const count = () => (fx.snapshot().patients as number);
    const before = count();
    expect((await appOver(dying).request('/v1/patients', post('k-commit'))).status).toBe(500);
    expect(count()).toBe(before + 1);
    now += 10_000; // past the time a claim with no answer is taken over, within the key's window
    const retry = await appOver(service).request('/v1/patients', post('k-commit'));
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(count()).toBe(before + 1);
  });

  it('forgets a key after its window, and takes over a claim whose request died', async () => {
    const app = appOver(fx.host.service);
    const first = (await (await app.request('/v1/patients', post('k2'))).json()) as { id: string };
    now += 61_000;
    const later = (await (await app.request('/v1/patients', post('k2'))).json()) as { id: string };
    expect(later.id).not.toBe(first.id);

    const store = createIdempotencyStore({ db: fx.host.database.db, clock, staleMs: 5_000 });
    expect((await store.begin('scope', 'dead', 'h')).kind).toBe('new');
    expect((await store.begin('scope', 'dead', 'h')).kind).toBe('in_progress');
    now += 6_000;
    expect((await store.begin('scope', 'dead', 'h')).kind).toBe('new');
  });

  it('hides unexpected errors behind a 500 with no message or stack, logging only the request id', async () => {
    const logged: string[] = [];
    const broken: V1Service = {
      ...fx.host.service,
      list: async () => {
        throw new Error('SQLITE_CORRUPT near "Lovelace"');
      },
    };
    const answer = await appOver(broken, { log: (m) => logged.push(m) }).request('/v1/patients', { headers: { authorization: 'Bearer k' } });
    expect(answer.status).toBe(500);
    const text = await answer.text();
    expect(text).not.toContain('Lovelace');
    expect(text).not.toContain('SQLITE');
    expect(JSON.parse(text).error).toMatchObject({ code: 'internal_error', type: 'api_error' });
    expect(logged).toEqual([`internal error in request ${answer.headers.get('request-id')}: Error`]);
  });

  it('passes Retry-After on from a service that asks the caller to wait', async () => {
    const busy: V1Service = {
      ...fx.host.service,
      get: async () => {
        throw new ServiceError('rate_limited', 'Slow down.', undefined, { retryAfterSeconds: 2.2 });
      },
    };
    const answer = await appOver(busy).request('/v1/patients/pat_x', { headers: { authorization: 'Bearer k' } });
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('3');
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });
});

type Envelope = { error: { type: string; code: string; message: string; request_id?: string } };

/** The envelope of a refusal, checked the way the conformance suite checks it. */
async function envelope(answer: Response, status: number, code: string): Promise<Envelope['error']> {
  const text = await answer.text();
  expect(answer.status, text).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  const { error } = JSON.parse(text) as Envelope;
  expect(error.code).toBe(code);
  expect(error.message.length).toBeGreaterThan(10);
  expect(error.request_id).toBe(answer.headers.get('request-id'));
  return error;
}

/** A chunked body (no Content-Length) of `total` bytes that counts how much was pulled. */
function streamed(total: number, chunk = 64 * 1024) {
  const seen = { bytes: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.bytes >= total) return controller.close();
      const size = Math.min(chunk, total - seen.bytes);
      seen.bytes += size;
      controller.enqueue(new Uint8Array(size).fill(0x20));
    },
  });
  return { body, seen };
}

/** Counts creates and uploads reaching the service: a refused request must reach none. */
function counting(service: V1Service) {
  const calls = { count: 0 };
  const wrapped: V1Service = {
    ...service,
    create: (c, i, ctx) => (calls.count++, service.create(c, i, ctx)),
    uploadPhoto: (input) => (calls.count++, service.uploadPhoto(input)),
  };
  return { wrapped, calls };
}

describe('refusals from middleware (HTTPException)', () => {
  it('answers a 4xx HTTPException in the one envelope with its own status, never a 500', async () => {
    const cases = [
      { status: 429, code: 'rate_limited', type: 'rate_limit_error', message: 'The queue is full: wait a moment.' },
      { status: 403, code: 'forbidden', type: 'permission_error', message: 'This caller may not do that.' },
      { status: 400, code: 'invalid_request', type: 'invalid_request_error', message: '' },
      { status: 418, code: 'invalid_request', type: 'invalid_request_error', message: 'Short and stout, this teapot.' },
    ] as const;
    for (const { status, code, type, message } of cases) {
      const logged: string[] = [];
      const refuse: MiddlewareHandler = () => {
        throw new HTTPException(status, message ? { message } : undefined);
      };
      const before = fx.snapshot();
      const answer = await appOver(fx.host.service, { before: [refuse], log: (m) => logged.push(m) }).request('/v1/patients', post('hx'));
      expect(answer.headers.get('cache-control')).toBe('no-store');
      const error = await envelope(answer, status, code);
      expect(error.type).toBe(type);
      expect(error.message).toBe(message || `The request was refused (HTTP ${status}).`);
      expect(logged).toEqual([]);
      expect(fx.snapshot()).toEqual(before);
    }
  });

  it('answers a 5xx HTTPException with its status but no message of its own, logging only the request id', async () => {
    const logged: string[] = [];
    const down: MiddlewareHandler = () => {
      throw new HTTPException(503, { message: 'upstream said no for Lovelace' });
    };
    const answer = await appOver(fx.host.service, { before: [down], log: (m) => logged.push(m) }).request('/v1/patients', { headers: { authorization: 'Bearer k' } });
    const error = await envelope(answer, 503, 'service_unavailable');
    expect(error.message).not.toContain('Lovelace');
    expect(logged).toEqual([`internal error in request ${answer.headers.get('request-id')}: Error`]);
  });
});

describe('body limits', () => {
  const json = { authorization: 'Bearer k', 'content-type': 'application/json' };

  it('refuses a JSON body over 1 MiB with 413, by its declared length or cut off when chunked, and writes nothing', async () => {
    const { wrapped, calls } = counting(fx.host.service);
    const app = appOver(wrapped);
    const before = fx.snapshot();
    const oversized = JSON.stringify({ ...patient, pad: 'x'.repeat(MAX_JSON_BYTES) });
    const declared = await app.request('/v1/patients', { method: 'POST', headers: { ...json, 'content-length': String(oversized.length) }, body: oversized });
    expect((await envelope(declared, 413, 'payload_too_large')).message).toBe('The body must be at most 1 MiB.');

    const chunked = streamed(4 * MAX_JSON_BYTES);
    const cut = await app.request('/v1/patients', { method: 'POST', headers: { ...json, 'idempotency-key': 'big' }, body: chunked.body, duplex: 'half' } as RequestInit);
    await envelope(cut, 413, 'payload_too_large');
    // Read up to the limit and a chunk past it, not the whole body.
    expect(chunked.seen.bytes).toBeLessThan(MAX_JSON_BYTES + 256 * 1024);
    expect(calls.count).toBe(0);
    expect(fx.snapshot()).toEqual(before);
    // The refused key was never claimed: the same key with a good body creates.
    expect((await app.request('/v1/patients', post('big'))).status).toBe(201);
  });

  it('accepts a chunked JSON body within the limit', async () => {
    const body = JSON.stringify({ ...patient, first_name: 'Chunked' });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(body);
        controller.enqueue(bytes.slice(0, 10));
        controller.enqueue(bytes.slice(10));
        controller.close();
      },
    });
    const answer = await appOver(fx.host.service).request('/v1/patients', { method: 'POST', headers: json, body: stream, duplex: 'half' } as RequestInit);
    expect(answer.status, await answer.clone().text()).toBe(201);
    expect(((await answer.json()) as { first_name: string }).first_name).toBe('Chunked');
  });

  it('refuses a photo over 10 MiB with 413 and writes nothing; checks the type before reading any of it', async () => {
    const { wrapped, calls } = counting(fx.host.service);
    const app = appOver(wrapped);
    const before = fx.snapshot();
    const big = streamed(MAX_PHOTO_BYTES + 3 * 1024 * 1024, 256 * 1024);
    const answer = await app.request('/v1/photos', { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'image/png' }, body: big.body, duplex: 'half' } as RequestInit);
    expect((await envelope(answer, 413, 'payload_too_large')).message).toBe('The body must be at most 10 MiB.');
    expect(big.seen.bytes).toBeLessThan(MAX_PHOTO_BYTES + 3 * 1024 * 1024);

    const gif = streamed(MAX_PHOTO_BYTES + 1);
    const wrongType = await app.request('/v1/photos', { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'image/gif' }, body: gif.body, duplex: 'half' } as RequestInit);
    await envelope(wrongType, 415, 'unsupported_media_type');
    expect(gif.seen.bytes).toBeLessThanOrEqual(64 * 1024); // at most what the stream primes, not the body
    expect(calls.count).toBe(0);
    expect(fx.snapshot()).toEqual(before);
  });
});

describe('bearer authentication', () => {
  it('refuses a missing, wrong or malformed key with the 401 envelope and a Bearer challenge, and writes nothing', async () => {
    const { wrapped, calls } = counting(fx.host.service);
    const app = appOver(wrapped);
    const before = fx.snapshot();
    const headers = ['', 'Bearer wrong', 'Bearer kk', 'Bearer K', 'Basic k', 'Bearer', 'Bearer k!', 'Bearer k extra', 'k'];
    for (const authorization of headers) {
      const answer = await app.request('/v1/patients', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify(patient),
      });
      const error = await envelope(answer, 401, 'unauthorized');
      expect(error.type, authorization).toBe('authentication_error');
      expect(error.message).toBe('Send a valid key as "Authorization: Bearer <key>".');
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
    expect(calls.count).toBe(0);
    expect(fx.snapshot()).toEqual(before);
    // The scheme is case-insensitive, as RFC 7235 has it.
    expect((await app.request('/v1/patients', { headers: { authorization: 'bearer k' } })).status).toBe(200);
  });

  it('reads the key per request: a new key works at once, the old one stops, and no key refuses everyone', async () => {
    let key: string | null = 'first';
    const app = appOver(fx.host.service, { apiKey: () => key });
    const get = (token: string) => app.request('/v1/patients', { headers: { authorization: `Bearer ${token}` } });
    expect((await get('first')).status).toBe(200);
    key = 'second';
    await envelope(await get('first'), 401, 'unauthorized');
    expect((await get('second')).status).toBe(200);
    key = null;
    await envelope(await get('second'), 401, 'unauthorized');
    await envelope(await get('null'), 401, 'unauthorized');
  });
});

describe('request ids', () => {
  it('puts a fresh req_ id and no-store on every answer, errors included, and never takes the caller\'s', async () => {
    const broken: V1Service = {
      ...fx.host.service,
      get: async () => {
        throw new Error('boom');
      },
    };
    const teapot: MiddlewareHandler = async (c, next) => {
      if (c.req.path === '/v1/teapot') throw new HTTPException(418, { message: 'Short and stout, this teapot.' });
      await next();
    };
    const app = appOver(broken, { before: [teapot] });
    const auth = { authorization: 'Bearer k', 'request-id': 'req_mine' };
    const answers: Array<[number, Response]> = [
      [200, await app.request('/v1/patients', { headers: auth })],
      [201, await app.request('/v1/patients', { ...post('rid'), headers: { ...post('rid').headers, 'request-id': 'req_mine' } })],
      [201, await app.request('/v1/patients', post('rid'))], // the replay
      [401, await app.request('/v1/patients', { headers: { 'request-id': 'req_mine' } })],
      [404, await app.request('/elsewhere', { headers: auth })],
      [404, await app.request('/v1/nothing', { headers: auth })],
      [405, await app.request('/v1/patients', { method: 'DELETE', headers: auth })],
      [413, await app.request('/v1/patients', { method: 'POST', headers: { ...auth, 'content-type': 'application/json', 'content-length': String(MAX_JSON_BYTES + 1) }, body: 'x'.repeat(MAX_JSON_BYTES + 1) })],
      [415, await app.request('/v1/patients', { method: 'POST', headers: { ...auth, 'content-type': 'text/plain' }, body: '{}' })],
      [418, await app.request('/v1/teapot', { headers: auth })],
      [422, await app.request('/v1/patients', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' })],
      [500, await app.request('/v1/patients/pat_x', { headers: auth })],
    ];
    const ids = new Set<string>();
    for (const [status, answer] of answers) {
      expect(answer.status).toBe(status);
      const id = answer.headers.get('request-id') ?? '';
      expect(id, `${status}`).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(answer.headers.get('cache-control'), `${status}`).toBe('no-store');
      if (status >= 400) expect(((await answer.json()) as Envelope).error.request_id).toBe(id);
      ids.add(id);
    }
    expect(ids.size).toBe(answers.length);
  });
});

describe('keyed creates sharing a group commit', () => {
  it('the same key sent several times at once creates once: one 201, the rest in progress, then replays', async () => {
    const app = appOver(fx.host.service);
    const before = fx.snapshot().patients as number;
    // Sent in one turn: the first claims the key, the others find it claimed.
    const answers = await Promise.all([...Array(5)].map(() => app.request('/v1/patients', post('burst'))));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(((await answer.json()) as Envelope).error.code).toBe('idempotency_request_in_progress');
    }
    const created = (await answers.find((a) => a.status === 201)!.json()) as { id: string };
    expect(fx.snapshot().patients).toBe(before + 1);
    const replay = await app.request('/v1/patients', post('burst'));
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(((await replay.json()) as { id: string }).id).toBe(created.id);
  });

  it('a create refused inside a group gives its key back and writes nothing; its neighbours commit', async () => {
    const app = appOver(fx.host.service);
    const before = fx.snapshot();
    const badCard = { patient_id: 'pat_01JD0000000000000000000000', insurance_carrier_ids: [] };
    const [refused, good] = await Promise.all([app.request('/v1/insurance_cards', post('card-key', badCard)), app.request('/v1/patients', post('neighbour'))]);
    const error = await envelope(refused, 422, 'validation_failed');
    expect(JSON.stringify(error)).toContain('patient_id');
    expect(good.status).toBe(201);
    expect(fx.snapshot()).toEqual({ ...before, patients: (before.patients as number) + 1, outbox: (before.outbox as number) + 1, idempotency_keys: (before.idempotency_keys as number) + 1 });
    // The key was released: the corrected request with the same key creates.
    const { id } = (await good.json()) as { id: string };
    const fixed = await app.request('/v1/insurance_cards', post('card-key', { patient_id: id, insurance_carrier_ids: [] }));
    expect(fixed.status, await fixed.clone().text()).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('tells listeners of a create only once it is committed', async () => {
    const sqlite = fx.host.database.sqlite;
    const seen: boolean[] = [];
    const off = fx.host.events.on('records.changed', () => seen.push(sqlite.inTransaction));
    const app = appOver(fx.host.service);
    const answers = await Promise.all([...Array(3)].map((_, i) => app.request('/v1/patients', post(`ev${i}`))));
    off();
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(seen).toEqual([false, false, false]);
  });
});
