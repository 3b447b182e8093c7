import { createAdaptorServer } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ListenTarget = { port: number; hostname?: string } | { path: string };

export interface Listening {
  /** `http://127.0.0.1:P` on TCP; on a socket or pipe, its path. */
  address: string;
  port?: number;
  server: Server;
  close(): Promise<void>;
}

/** Serves a fetch-style app (Hono) on loopback TCP, a Unix socket or a Windows named pipe. */
export async function listen(app: { fetch: (request: Request, env: never) => Response | Promise<Response> }, target: ListenTarget): Promise<Listening> {
  const server = createAdaptorServer({ fetch: app.fetch as never }) as Server;
  await new Promise<void>((resolve, reject) => {
    const listening = () => {
      // Only failures to listen reject; later server errors must not vanish into it.
      server.off('error', reject);
      resolve();
    };
    server.once('error', reject);
    if ('path' in target) server.listen(target.path, listening);
    else server.listen(target.port, target.hostname ?? '127.0.0.1', listening);
  });
  const info = server.address();
  const port = typeof info === 'object' && info ? (info as AddressInfo).port : undefined;
  return {
    address: 'path' in target ? target.path : `http://${target.hostname ?? '127.0.0.1'}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive and streaming connections would hold close() open.
        server.closeAllConnections();
      }),
  };
}
