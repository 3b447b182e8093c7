import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '@src/main/sandbox/start-sandbox';
import type { ConnectionTest } from '@src/shared/bridge/desk-contract';
import { bridgeCalls } from '@test/support/bridge-calls';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';

/**
 * Saving the service's address and key tries it, against real servers on loopback: the
 * sandbox with the right key and a wrong one, a closed port, and web servers that are not
 * a /v1 service.
 */
const API_KEY = 'sk_connection_test';
let sandbox: Sandbox;
let plain: http.Server;
let plainUrl: string;
let closedUrl: string;
let failing: http.Server;
let failingUrl: string;

function serve(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}
const close = (server: http.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: API_KEY, port: 0 });
  // A web server that answers everything with a page: something is there, but not /v1.
  ({ server: plain, url: plainUrl } = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>It works</title><p>It works!</p>');
  }));
  // A /v1 service that is up but failing: the error envelope with a 503.
  ({ server: failing, url: failingUrl } = await serve((_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { type: 'api_error', code: 'service_unavailable', message: 'Down for maintenance.' } }));
  }));
  // A port that was just free: nothing listens there.
  const { server, url } = await serve(() => undefined);
  await close(server);
  closedUrl = url;
});
afterAll(async () => {
  await sandbox.close();
  await close(plain);
  await close(failing);
});

let fx: HostFixture;
const { call, ok } = bridgeCalls(() => fx.host.bridge);
afterEach(async () => {
  await fx.cleanup();
});

async function saveUpstream(url: string, apiKey: string): Promise<ConnectionTest> {
  const saved = await ok('settings.update', { upstream_url: url, api_key: apiKey });
  expect(saved).toMatchObject({ mode: 'upstream', upstream_url: url, api_key_set: true });
  return saved.connection;
}

describe('connection test on saving the eligibility service', () => {
  it('tells apart connected, wrong key, not reachable and not a /v1 service', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    await fx.host.start();

    const good = await saveUpstream(sandbox.url, API_KEY);
    expect(good).toMatchObject({ state: 'connected', http_status: 200, mode: 'upstream', upstream_url: sandbox.url });

    // A key the service refuses is tried before it is saved (issue 26): refused, nothing saved, the working key kept.
    const wrong = await call('settings.update', { upstream_url: sandbox.url, api_key: 'sk_not_the_key' });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'api_key_refused', status: 422, errors: [{ path: 'api_key' }] } });
    if (wrong.ok) throw new Error('unreachable');
    expect(wrong.error.message).toMatch(/^Wrong API key: the service at .* refused it \(HTTP 401\)\. Nothing was saved; the desk keeps using the key saved before\./);
    expect(wrong.error.message).not.toContain('sk_not_the_key');
    expect(await ok('settings.testConnection', {})).toMatchObject({ state: 'connected', upstream_url: sandbox.url });

    const closed = await saveUpstream(closedUrl, API_KEY);
    expect(closed).toMatchObject({ state: 'unreachable', http_status: null });
    expect(closed.message).toMatch(/did not answer/);

    const notV1 = await saveUpstream(plainUrl, API_KEY);
    expect(notV1).toMatchObject({ state: 'not_compatible', http_status: 200 });
    expect(notV1.message).toMatch(/not as a Coverdesk-compatible \/v1 service/);

    // The /v1 paths are added by Coverdesk: an address that already ends in /v1 is told so.
    const doubled = await saveUpstream(`${sandbox.url}/v1`, API_KEY);
    expect(doubled).toMatchObject({ state: 'not_compatible', http_status: 404 });
    expect(doubled.message).toMatch(/Leave "\/v1" off/);

    const down = await saveUpstream(failingUrl, API_KEY);
    expect(down).toMatchObject({ state: 'service_error', http_status: 503 });

    // Testing again without saving tries what is saved now.
    expect(await ok('settings.testConnection', {})).toMatchObject({ state: 'service_error', upstream_url: failingUrl });
    // Settings other than the service's do not test it.
    expect((await ok('settings.update', { hot_folder: null })).connection).toBeNull();
  });

  it('the sandbox is tested too when the desk switches back to it', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    await fx.host.start();
    await saveUpstream(sandbox.url, API_KEY);
    const back = await ok('settings.update', { upstream_url: null });
    expect(back).toMatchObject({ mode: 'sandbox', upstream_url: null, connection: { state: 'connected', mode: 'sandbox', upstream_url: null } });
  });
});

describe('switching services while records wait', () => {
  it('refuses, saying how many wait and where they would go, and writes nothing until confirmed', async () => {
    // Not started: no worker sends the queued patient while the test looks at it.
    fx = startTestHost({ localApi: false, hotFolder: false });
    await ok('patients.create', { first_name: 'Wanda', last_name: 'Waiting', date_of_birth: '1980-03-14' });
    const before = await ok('settings.get', {});
    expect(before.waiting).toEqual({ count: 1, mode: 'sandbox', upstream_url: null });

    const snapshot = fx.snapshot();
    const refused = await call('settings.update', { upstream_url: closedUrl, api_key: API_KEY });
    expect(refused).toMatchObject({ ok: false, error: { code: 'upstream_switch_unconfirmed', status: 409, errors: [{ path: 'send_waiting_to_new_service' }] } });
    if (refused.ok) throw new Error('unreachable');
    expect(refused.error.message).toBe(
      `1 record is still waiting to be sent to the sandbox. If you switch now, it will be sent to ${closedUrl} instead. Switch only if that is what you want, or wait until Sync shows nothing waiting.`,
    );
    // The patient's name is the desk's business, not an error message's.
    expect(refused.error.message).not.toMatch(/Wanda|Waiting Wanda/);
    expect(fx.snapshot()).toEqual(snapshot);
    expect(await ok('settings.get', {})).toMatchObject({ mode: 'sandbox', upstream_url: null, api_key_set: false });

    // The key alone, or saving the same address again, is not a switch.
    expect((await ok('settings.update', { api_key: API_KEY })).mode).toBe('sandbox');

    const confirmed = await ok('settings.update', { upstream_url: closedUrl, api_key: API_KEY, send_waiting_to_new_service: true });
    expect(confirmed).toMatchObject({ mode: 'upstream', upstream_url: closedUrl, waiting: { count: 1, mode: 'upstream', upstream_url: closedUrl }, connection: { state: 'unreachable' } });
    expect((await ok('settings.update', { upstream_url: `${closedUrl}/` })).mode).toBe('upstream');

    // And back to the sandbox: the same question, naming the service they wait for now.
    const back = await call('settings.update', { upstream_url: null });
    expect(back).toMatchObject({ ok: false, error: { code: 'upstream_switch_unconfirmed' } });
    if (back.ok) throw new Error('unreachable');
    expect(back.error.message).toContain(`waiting to be sent to ${closedUrl}/. If you switch now, it will be sent to the sandbox instead.`);
  });
});
