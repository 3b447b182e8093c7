import type { CustomScheme } from 'electron';
import fs from 'node:fs/promises';
import path from 'node:path';
import { CONTENT_SECURITY_POLICY } from './content-security-policy';

/**
 * The renderer is served from `app://coverdesk/`, not `file://`: a file: page may read any
 * file the user can, and every file: page shares one origin. A standard, secure scheme
 * gives the app an origin of its own that CSP's 'self', the permission policy and the IPC
 * sender check can name.
 */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://coverdesk`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

export const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
};

/**
 * `scheme://host[:port]` of a URL. (WHATWG `URL.origin` is "null" for schemes it does not
 * know, such as app:, so it cannot be compared.) Null when the string is not a URL.
 */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.host ? `${parsed.protocol}//${parsed.host}` : null;
  } catch {
    return null;
  }
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.traineddata': 'application/octet-stream',
  '.gz': 'application/gzip',
};

/** The type a built renderer file is answered with, by its extension. */
export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function plain(status: number, text: string): Response {
  return new Response(text, { status, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' } });
}

/**
 * The app:// handler (`protocol.handle`): files from the built renderer only, GET only,
 * never a path outside that folder, every answer with the CSP header. Unknown paths
 * without an extension get index.html, so a reload on a screen's route still works.
 */
export function createAppProtocolHandler(deps: { rendererDir: string }): (request: Request) => Promise<Response> {
  const root = path.resolve(deps.rendererDir);
  return async (request) => {
    const url = new URL(request.url);
    if (originOf(request.url) !== APP_ORIGIN) return plain(404, 'Not found');
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed');
    let relative: string;
    try {
      relative = decodeURIComponent(url.pathname);
    } catch {
      return plain(400, 'Bad path');
    }
    if (relative.includes('\0')) return plain(400, 'Bad path');
    const file = path.resolve(root, `.${path.posix.normalize(relative === '/' ? '/index.html' : relative)}`);
    if (file !== root && !file.startsWith(root + path.sep)) return plain(404, 'Not found');

    let target = file;
    let body: Buffer;
    try {
      body = await fs.readFile(target);
    } catch {
      if (path.extname(relative) !== '') return plain(404, 'Not found');
      target = path.join(root, 'index.html');
      body = await fs.readFile(target);
    }
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
      status: 200,
      headers: { ...SECURITY_HEADERS, 'Content-Type': contentTypeOf(target) },
    });
  };
}
