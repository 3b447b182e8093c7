import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, APP_ORIGIN, createAppProtocolHandler, originOf } from '@src/main/shell/app-protocol';
import { CONTENT_SECURITY_POLICY } from '@src/main/shell/content-security-policy';
import { makeTempDir } from '@test/support/temp-dir';

const temp = makeTempDir('coverdesk-renderer-');
const rendererDir = path.join(temp.dir, 'renderer');
let handle: (request: Request) => Promise<Response>;
beforeAll(() => {
  fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Coverdesk</title>');
  fs.writeFileSync(path.join(rendererDir, 'assets', 'index-abc.js'), 'console.log(1)');
  fs.writeFileSync(path.join(temp.dir, 'secret.txt'), 'outside the renderer');
  handle = createAppProtocolHandler({ rendererDir });
});
afterAll(() => temp.cleanup());

const get = (url: string, init?: RequestInit) => handle(new Request(url, init));

describe('the app:// protocol', () => {
  it('serves the renderer with the CSP header on every answer', async () => {
    const page = await get(APP_ENTRY_URL);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<title>Coverdesk</title>');
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');

    const script = await get(`${APP_ORIGIN}/assets/index-abc.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    const missing = await get(`${APP_ORIGIN}/assets/nope.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });

  it('has a strict CSP: own scripts and WebAssembly only, nothing inline or eval, no remote connections', () => {
    const directives = Object.fromEntries(CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['base-uri']).toEqual(["'none'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/'unsafe-inline'|'unsafe-eval'|https?:|\*/);
  });

  it('answers routes of the single-page app with index.html', async () => {
    const route = await get(`${APP_ORIGIN}/patients/pat_123`);
    expect(route.status).toBe(200);
    expect(await route.text()).toContain('<title>Coverdesk</title>');
  });

  it('never serves a file outside the renderer folder', async () => {
    for (const url of [
      `${APP_ORIGIN}/../secret.txt`,
      `${APP_ORIGIN}/%2e%2e/secret.txt`,
      `${APP_ORIGIN}/assets/%2e%2e%2f%2e%2e%2fsecret.txt`,
      `${APP_ORIGIN}/..%5csecret.txt`,
      `${APP_ORIGIN}/%00index.html`,
    ]) {
      const response = await get(url);
      expect(await response.text(), url).not.toContain('outside the renderer');
    }
    expect((await get(`${APP_ORIGIN}/%2e%2e/secret.txt`)).status).toBe(404);
  });

  it('serves only its own host, and only GET and HEAD', async () => {
    expect((await get('app://elsewhere/index.html')).status).toBe(404);
    expect((await get(APP_ENTRY_URL, { method: 'POST', body: 'x' })).status).toBe(405);
    const head = await get(APP_ENTRY_URL, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('compares origins of custom schemes (URL.origin says "null" for them)', () => {
    expect(new URL(APP_ENTRY_URL).origin).toBe('null');
    expect(originOf(APP_ENTRY_URL)).toBe(APP_ORIGIN);
    expect(originOf('app://coverdesk.evil.example/x')).not.toBe(APP_ORIGIN);
    expect(originOf('http://localhost:5173/')).toBe('http://localhost:5173');
    expect(originOf('not a url')).toBeNull();
    expect(originOf('about:blank')).toBeNull();
  });
});
