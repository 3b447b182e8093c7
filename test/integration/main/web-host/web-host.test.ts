import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '@src/main/shell/content-security-policy';
import { OPEN_PAGE_PATH } from '@src/main/web-host/open-page';
import { startWebHost, type WebHost } from '@src/main/web-host/start-web-host';
import { makeTempDir } from '@test/support/temp-dir';

let web: WebHost;
let temp: { dir: string; cleanup(): void };
let secret: string;

beforeEach(async () => {
  temp = makeTempDir();
  web = await startWebHost({ dataDir: temp.dir, port: 0 });
  secret = new URL(web.url).hash.replace('#secret=', '');
});
afterEach(async () => {
  await web.close();
  temp.cleanup();
});

function call(method: string, body: unknown, headers: Record<string, string> = { 'x-coverdesk-secret': secret }) {
  return fetch(`${web.origin}/bridge/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('web host', () => {
  it('listens on loopback and prints a URL with a per-run secret in its fragment', () => {
    expect(web.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses bridge calls and the event stream without the secret, writing nothing', async () => {
    for (const headers of [{}, { 'x-coverdesk-secret': 'nope' }, { 'x-coverdesk-secret': `${secret}x` }] as Record<string, string>[]) {
      const response = await call('patients.create', { first_name: 'A', last_name: 'B', date_of_birth: '2000-01-01' }, headers);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    }
    expect((await fetch(`${web.origin}/bridge/events?secret=wrong`)).status).toBe(401);
    const list = (await (await call('patients.list', {})).json()) as { value: { data: unknown[] } };
    expect(list.value.data).toEqual([]);
  });

  it('answers calls with {ok, value} or {ok, error} and malformed JSON with a coded error', async () => {
    const created = await (await call('patients.create', { first_name: 'A', last_name: 'B', date_of_birth: '2000-01-01' })).json();
    expect(created).toMatchObject({ ok: true, value: { first_name: 'A', sync: { state: 'queued' } } });
    const invalid = await (await call('patients.create', { first_name: 'A' })).json();
    expect(invalid).toMatchObject({ ok: false, error: { code: 'validation_failed', status: 422 } });
    const malformed = await call('patients.create', '{"first_name":');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ ok: false, error: { code: 'malformed_json' } });
  });

  it('pushes records.changed over Server-Sent Events', async () => {
    const received = new Promise<string>((resolve, reject) => {
      const request = http.get(`${web.origin}/bridge/events?secret=${secret}`, (response) => {
        expect(response.headers['content-type']).toMatch(/text\/event-stream/);
        let buffer = '';
        response.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          if (buffer.includes('event: records.changed')) {
            request.destroy();
            resolve(buffer);
          }
        });
        // Create once the stream is open.
        void call('patients.create', { first_name: 'A', last_name: 'B', date_of_birth: '2000-01-01' });
      });
      request.on('error', reject);
    });
    const stream = await received;
    expect(stream).toMatch(/data: \{"collection":"patients","id":"pat_[0-9A-Z]{26}"\}/);
    // It opened with the count of events told so far (the sync's first status, perhaps), before any other.
    expect(stream).toMatch(/^event: stream\.opened\ndata: \{"told":\d+\}\n/);
  });

  it('answers carry the count of events told when the call began, so a page knows what its stream may not have carried', async () => {
    const told = async (response: Response) => Number(response.headers.get('x-coverdesk-events-told'));
    const first = await told(await call('patients.list', {}));
    expect(Number.isInteger(first)).toBe(true);
    await call('patients.create', { first_name: 'A', last_name: 'B', date_of_birth: '2000-01-01' });
    // The create told records.changed (and sync.status perhaps): counted from the next call on.
    expect(await told(await call('patients.list', {}))).toBeGreaterThan(first);
  });

  it('serves the renderer page', async () => {
    const page = await fetch(`${web.origin}/`);
    // The page exists once `electron-vite build` has run (npm test builds first).
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root"></div>');
  });

  it('sends the Content-Security-Policy as a header (frame-ancestors works only there), on the app and on refusals', async () => {
    for (const response of [await fetch(`${web.origin}/`), await call('patients.list', {}, {})]) {
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('serves one plain page saying how to open the desk, under a policy that allows its style only', async () => {
    const page = await fetch(`${web.origin}${OPEN_PAGE_PATH}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const policy = page.headers.get('content-security-policy')!;
    expect(policy).toMatch(/style-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toMatch(/unsafe-inline/);
    const html = await page.text();
    expect(html).toContain('Open Coverdesk from the address it printed');
    expect(html).toContain('#secret=');
    expect(html).not.toContain('<script');
    expect(html).not.toContain(secret);
  });

  it('answers the build\'s hashed assets as immutable and the page as revalidated, so a reload fetches only the page', async () => {
    // A renderer as the build lays it out: the page, and assets named by their content's hash.
    const renderer = path.join(temp.dir, 'renderer');
    fs.mkdirSync(path.join(renderer, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(renderer, 'assets', 'index-DJFUtet_.js'), 'export {};');
    const own = await startWebHost({ dataDir: path.join(temp.dir, 'own'), port: 0, rendererDir: renderer });
    try {
      const asset = await fetch(`${own.origin}/assets/index-DJFUtet_.js`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await asset.text()).toBe('export {};');
      // Kept in memory once read: its name is its content's hash, so the bytes cannot change.
      fs.rmSync(path.join(renderer, 'assets', 'index-DJFUtet_.js'));
      expect(await (await fetch(`${own.origin}/assets/index-DJFUtet_.js`)).text()).toBe('export {};');
      // Only a file name in the assets folder: never a path out of it.
      fs.writeFileSync(path.join(temp.dir, 'outside.txt'), 'not an asset');
      for (const escape of ['..%2F..%2Foutside.txt', '%2E%2E%2F..%2Foutside.txt', '.hidden']) {
        expect(await (await fetch(`${own.origin}/assets/${escape}`)).text()).not.toContain('not an asset');
      }
      for (const address of ['/', '/index.html', '/today']) {
        const page = await fetch(`${own.origin}${address}`);
        expect(page.status).toBe(200);
        expect(page.headers.get('cache-control')).toBe('no-cache');
      }
      // A missing asset is not cached as the page.
      expect((await fetch(`${own.origin}/assets/gone-123.js`)).headers.get('cache-control')).not.toContain('immutable');
    } finally {
      await own.close();
    }
  });
});
