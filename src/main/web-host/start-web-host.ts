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
  try {
    // Background parts (sync worker, local API, hot folder, embedded sandbox) run as in the desktop app.
    await host.start();
  } catch (error) {
    await host.close();
    throw error;
  }
  const secret = randomBytes(32).toString('base64url');
  const app = createWebHostApp({
    bridge: host.bridge,
    events: host.events,
    secret,
    rendererDir: options.rendererDir ?? path.resolve(__dirname, '../../../out/renderer'),
  });
  let server: ServerType;
  try {
    server = await new Promise((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: '127.0.0.1' }, () => resolve(s));
      s.once('error', reject);
    });
  } catch (error) {
    await host.close();
    throw (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
      ? new Error(`Port ${options.port} is already in use on 127.0.0.1: pick another with --port, or 0 for any free port.`)
      : error;
  }
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
