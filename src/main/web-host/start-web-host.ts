import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createHost, type Host, type HostOptions } from '../host/create-host';
import { listen, type Listening } from '../http/listen';
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
  let server: Listening;
  try {
    server = await listen(app, { port: options.port ?? 0, hostname: '127.0.0.1' });
  } catch (error) {
    await host.close();
    throw (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
      ? new Error(`Port ${options.port} is already in use on 127.0.0.1: pick another with --port, or 0 for any free port.`)
      : error;
  }
  const origin = server.address;
  return {
    host,
    origin,
    url: `${origin}/#secret=${secret}`,
    async close() {
      // listen's close also ends the SSE streams that would hold it open.
      await server.close();
      await host.close();
    },
  };
}
