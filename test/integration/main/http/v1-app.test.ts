import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIdempotencyStore } from '../../../../src/main/http/idempotency-store';
import { createV1App } from '../../../../src/main/http/v1-app';
import type { V1Service } from '../../../../src/shared/contract';
import { ServiceError } from '../../../../src/shared/service-error';
import { startTestHost, type HostFixture } from '../../../support/host-fixture';

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

function appOver(service: V1Service, log?: (m: string) => void) {
  return createV1App({
    service,
    source: 'api',
    authenticate: (token) => token === 'k',
    idempotency: createIdempotencyStore({ db: fx.host.database.db, clock, ttlMs: 60_000, staleMs: 5_000 }),
    ids: fx.host.ids,
    log,
  });
}

const patient = { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' };
const post = (key: string, body: unknown = patient) => ({
  method: 'POST',
  headers: { authorization: 'Bearer k', 'content-type': 'application/json', 'idempotency-key': key },
  body: JSON.stringify(body),
});

describe('the /v1 HTTP layer', () => {
  it('answers 409 idempotency_request_in_progress while the first request with a key runs', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const service = fx.host.service;
    const slow: V1Service = { ...service, create: async (c, i, ctx) => (await gate, service.create(c, i, ctx)) };
    const app = appOver(slow);
    const first = app.request('/v1/patients', post('k1'));
    await new Promise((r) => setTimeout(r, 20));
    const second = await app.request('/v1/patients', post('k1'));
    expect(second.status).toBe(409);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe('idempotency_request_in_progress');
    release();
    expect((await first).status).toBe(201);
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
    expect(store.begin('scope', 'dead', 'h').kind).toBe('new');
    expect(store.begin('scope', 'dead', 'h').kind).toBe('in_progress');
    now += 6_000;
    expect(store.begin('scope', 'dead', 'h').kind).toBe('new');
  });

  it('hides unexpected errors behind a 500 with no message or stack, logging only the request id', async () => {
    const logged: string[] = [];
    const broken: V1Service = {
      ...fx.host.service,
      list: async () => {
        throw new Error('SQLITE_CORRUPT near "Lovelace"');
      },
    };
    const answer = await appOver(broken, (m) => logged.push(m)).request('/v1/patients', { headers: { authorization: 'Bearer k' } });
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
