import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A SMART Health Link server on 127.0.0.1 (plain http: reached only through the injected
 * test allowance): a manifest answering POST with `recipient` and, when set, a passcode
 * (401 with remainingAttempts, then 404 once locked), files by location, a direct file for
 * flag U, and knobs for the bad cases (slow, oversized). It records every path asked for.
 */
export interface ShlinkServer {
  origin: string;
  requests: { method: string; path: string; body: string }[];
  /** What the manifest path answers; `passcode` makes it a P link. */
  manifest: { files: { contentType: string; embedded?: string; location?: string }[]; passcode?: string; attempts?: number };
  files: Map<string, string>;
  /** ms before any answer. */
  delayMs: number;
  /** Extra bytes padded into the manifest. */
  padBytes: number;
  close(): Promise<void>;
}

export async function startShlinkServer(port = 0): Promise<ShlinkServer> {
  const state: Omit<ShlinkServer, 'origin' | 'close'> = { requests: [], manifest: { files: [] }, files: new Map(), delayMs: 0, padBytes: 0 };
  let remaining = 3;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://x');
      state.requests.push({ method: req.method ?? '', path: url.pathname, body });
      const answer = () => {
        if (url.pathname === '/manifest' && req.method === 'POST') {
          const asked = JSON.parse(body || '{}') as { passcode?: string };
          if (state.manifest.passcode !== undefined) {
            if (remaining <= 0) return void res.writeHead(404).end();
            if (asked.passcode !== state.manifest.passcode) {
              remaining -= 1;
              res.writeHead(401, { 'content-type': 'application/json' });
              return void res.end(JSON.stringify({ remainingAttempts: remaining }));
            }
          }
          res.writeHead(200, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify({ files: state.manifest.files, pad: 'x'.repeat(state.padBytes) }));
        }
        const file = state.files.get(url.pathname);
        if (file !== undefined && req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'application/jose' });
          return void res.end(file);
        }
        res.writeHead(404).end();
      };
      if (state.delayMs) setTimeout(answer, state.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
