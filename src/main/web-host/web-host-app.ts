import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { streamSSE } from 'hono/streaming';
import { timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { BRIDGE_EVENT_NAMES } from '../../shared/bridge/contract';
import { EVENT_STREAM_OPENED, EVENTS_TOLD_HEADER } from '../../shared/bridge/web-paths';
import { MAX_PHOTO_BYTES } from '../../shared/contract';
import { ServiceError } from '../../shared/service-error';
import { dispatchBridgeCall, toBridgeError } from '../bridge/dispatch';
import type { BridgeHandlers } from '../bridge/handlers';
import { contentTypeOf } from '../shell/app-protocol';
import { CONTENT_SECURITY_POLICY } from '../shell/content-security-policy';
import type { EventHub } from '../support/event-hub';
import { hashedAssets } from './hashed-assets';
import { OPEN_PAGE_CSP, OPEN_PAGE_HTML, OPEN_PAGE_PATH } from './open-page';

export interface WebHostAppDeps {
  bridge: BridgeHandlers;
  events: EventHub;
  /** Per-run secret: every bridge call and the event stream must present it. */
  secret: string;
  /** The built renderer (out/renderer). */
  rendererDir: string;
}

function secretMatches(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The bridge over HTTP + Server-Sent Events, and the built renderer: how the UI runs in a
 * plain browser and how Playwright drives the real UI against the real host.
 */
export function createWebHostApp(deps: WebHostAppDeps): Hono {
  const app = new Hono();
  // Events told so far. A page's first answers can come before its event stream listens (the
  // page's first reads go out before its main script opens the stream): an event told in
  // between (a card from the local API, a restart on a recovered file) never reached it, and the
  // screen stayed stale. Answers and the stream's first message carry the count, so the page
  // knows when to read again (events-gap.ts). Counted before any stream's listener runs.
  let told = 0;
  for (const event of BRIDGE_EVENT_NAMES) deps.events.on(event, () => void told++);
  const forbidden = () =>
    ({ ok: false, error: { ...new ServiceError('unauthorized', 'Open Coverdesk from the address it printed at start.').toBody(), status: 401 } }) as const;

  // The policy travels as a header on every answer, as app:// does in the desktop app:
  // `frame-ancestors` only works there (a <meta> policy ignores it and says so in the console).
  app.use('*', async (c, next) => {
    await next();
    if (!c.res.headers.has('Content-Security-Policy')) c.res.headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    c.res.headers.set('Referrer-Policy', 'no-referrer');
  });

  app.get(OPEN_PAGE_PATH, (c) => {
    c.header('Content-Security-Policy', OPEN_PAGE_CSP);
    c.header('Cache-Control', 'no-store');
    return c.html(OPEN_PAGE_HTML);
  });

  app.post(
    '/bridge/:method',
    // A photo travels as base64 inside JSON: 4/3 of its size, plus the envelope.
    bodyLimit({ maxSize: Math.ceil((MAX_PHOTO_BYTES * 4) / 3) + 64 * 1024, onError: (c) => c.json({ ok: false, error: { ...new ServiceError('payload_too_large', 'That is too large to send.').toBody(), status: 413 } }, 413) }),
    async (c) => {
      if (!secretMatches(deps.secret, c.req.header('x-coverdesk-secret'))) return c.json(forbidden(), 401);
      let input: unknown;
      try {
        input = await c.req.json();
      } catch {
        return c.json({ ok: false, error: toBridgeError(new ServiceError('malformed_json', 'The request body is not valid JSON.')) }, 400);
      }
      const toldBefore = told;
      const result = await dispatchBridgeCall(deps.bridge, c.req.param('method'), input);
      c.header(EVENTS_TOLD_HEADER, String(toldBefore));
      // Bridge errors travel in the body with their code; the HTTP status stays 200 so the
      // client has one shape to read, as over IPC.
      return c.json(result);
    },
  );

  app.get('/bridge/events', (c) => {
    if (!secretMatches(deps.secret, c.req.query('secret'))) return c.json(forbidden(), 401);
    return streamSSE(c, async (stream) => {
      const unsubscribe = BRIDGE_EVENT_NAMES.map((event) =>
        deps.events.on(event, (payload) => void stream.writeSSE({ event, data: JSON.stringify(payload) })),
      );
      void stream.writeSSE({ event: EVENT_STREAM_OPENED, data: JSON.stringify({ told }) });
      const keepAlive = setInterval(() => void stream.writeSSE({ event: 'ping', data: '' }), 15_000);
      await new Promise<void>((resolve) => stream.onAbort(resolve));
      clearInterval(keepAlive);
      unsubscribe.forEach((off) => off());
    });
  });

  const root = path.relative(process.cwd(), deps.rendererDir) || '.';
  // The build names every asset by its content's hash: a desk reloading the page (each start,
  // each sign-in of the browser mode) takes them from its cache without asking. The page itself
  // is asked for again each time, so a new build's page names its new assets.
  const asset = hashedAssets(path.join(deps.rendererDir, 'assets'));
  app.get('/assets/:name', async (c, next) => {
    const name = c.req.param('name');
    const bytes = await asset(name);
    if (!bytes) return next();
    return c.body(bytes, 200, { 'Content-Type': contentTypeOf(name), 'Cache-Control': 'public, max-age=31536000, immutable' });
  });
  const askAgain = (_path: string, c: Context) => void c.header('Cache-Control', 'no-cache');
  app.use('/*', serveStatic({ root, onFound: askAgain }));
  app.get('/*', serveStatic({ root, path: 'index.html', onFound: askAgain }));
  return app;
}
