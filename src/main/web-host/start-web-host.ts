import { serve, type ServerType } from '@hono/node-server';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createHost, type Host, type HostOptions } from '../host/create-host';
import { createWebHostApp } from './web-host-app';

export interface WebHostOptions extends HostOptions {
  port?: number;
  rendererDir?: string;
}

export interface WebHost {
  host: Host;
  /** The address to open, with the per-run secret in its fragment. */
  url: string;
  origin: string;
  close(): Promise<void>;
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const host = createHost(options);
  const secret = randomBytes(32).toString('base64url');
  const app = createWebHostApp({
    bridge: host.bridge,
    events: host.events,
    secret,
    rendererDir: options.rendererDir ?? path.resolve(__dirname, '../../../out/renderer'),
  });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    host,
    origin,
    url: `${origin}/#secret=${secret}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // SSE streams hold connections open; end them so close() returns.
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await host.close();
    },
  };
}
