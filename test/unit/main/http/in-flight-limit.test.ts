import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { inFlightLimit } from '@src/main/http/in-flight-limit';
import { isServiceError } from '@src/shared/service-error';

/** An app whose handler waits until the test lets it go, so "in progress" is in the test's hands. */
function appWithGate(max: number) {
  const app = new Hono();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let handled = 0;
  app.onError((error, c) => (isServiceError(error) ? c.json({ code: error.code }, 429, { 'Retry-After': String(error.retryAfterSeconds) }) : c.text('boom', 500)));
  app.use('*', inFlightLimit(max));
  app.post('/work', async (c) => {
    handled++;
    await gate;
    return c.json({ ok: true }, 201);
  });
  return { app, release, handled: () => handled };
}

describe('inFlightLimit', () => {
  it('lets `max` requests work at once and answers the next 429 with Retry-After without running it', async () => {
    const { app, release, handled } = appWithGate(2);
    const first = app.request('/work', { method: 'POST' });
    const second = app.request('/work', { method: 'POST' });
    await new Promise((resolve) => setImmediate(resolve));
    const third = await app.request('/work', { method: 'POST' });
    expect(third.status).toBe(429);
    expect(third.headers.get('Retry-After')).toBe('1');
    expect(await third.json()).toEqual({ code: 'rate_limited' });
    expect(handled()).toBe(2);
    release();
    expect((await first).status).toBe(201);
    expect((await second).status).toBe(201);
    // Finished requests free their places, failures included.
    expect((await app.request('/work', { method: 'POST' })).status).toBe(201);
  });
});
