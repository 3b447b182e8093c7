import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { BridgeMethod } from '../../shared/bridge/contract';
import type { BridgeHandlers } from '../bridge/handlers';
import { ServiceError } from '../../shared/service-error';
import { createHost, type Host, type HostOptions, type HostRestartReason } from '../host/create-host';
import { listen, type Listening } from '../http/listen';
import { forwardBridgeEvents } from '../shell/ipc-bridge';
import { createEventHub } from '../support/event-hub';
import { createWebHostApp } from './web-host-app';

export interface WebHostOptions extends HostOptions {
  port?: number;
  rendererDir?: string;
}

export interface WebHost {
  /** The host now serving: a new one after a restart (damage found, a backup restored). */
  readonly host: Host;
  /** Settles when the restart under way (if any) is done. */
  restarted(): Promise<void>;
  /** The address to open, with the per-run secret in its fragment. */
  url: string;
  origin: string;
  close(): Promise<void>;
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  // The page keeps its address and its event stream across a restart: calls go to whichever
  // host is current, its events are forwarded to the one hub the streams listen on.
  const events = createEventHub();
  let restarting: Promise<void> = Promise.resolve();
  const open = async (): Promise<{ host: Host; unforward: () => void }> => {
    const made = createHost({ ...options, onRestartNeeded: (reason) => void restart(reason) });
    try {
      // Background parts (sync worker, local API, hot folder, embedded sandbox) run as in the desktop app.
      await made.start();
    } catch (error) {
      await made.close();
      throw error;
    }
    return { host: made, unforward: forwardBridgeEvents(made.events, (name, payload) => events.emit(name, payload as never)) };
  };
  let current = await open();
  let closed = false;
  // A host that could not be made again (its database refused): every call says so, none reaches the closed one.
  let failed: ServiceError | null = null;
  function restart(reason: HostRestartReason): Promise<void> {
    restarting = restarting.then(async () => {
      if (closed || failed) return;
      current.unforward();
      await current.host.close();
      try {
        current = await open();
      } catch (error) {
        const why = error instanceof Error ? error.message : 'its data could not be opened';
        console.error(`Coverdesk could not start again: ${why}`);
        failed = new ServiceError('service_unavailable', `Coverdesk could not start again: ${why} Close it and start it again.`);
        return;
      }
      if (current.host.damaged) console.error(current.host.damaged.message);
      events.emit('host.restarted', { reason });
    });
    return restarting;
  }
  // One forwarding handler per method (the contract's full set, as the host's): typed by the map, not by each entry.
  const bridge = Object.fromEntries(
    (Object.keys(current.host.bridge) as BridgeMethod[]).map((method) => [
      method,
      async (input: never) => {
        await restarting;
        if (failed) throw failed;
        return (current.host.bridge[method] as (input: never) => Promise<unknown>)(input);
      },
    ]),
  ) as unknown as BridgeHandlers;
  const secret = randomBytes(32).toString('base64url');
  const app = createWebHostApp({
    bridge,
    events,
    secret,
    rendererDir: options.rendererDir ?? findRendererDir(),
  });
  let server: Listening;
  try {
    server = await listen(app, { port: options.port ?? 0, hostname: '127.0.0.1' });
  } catch (error) {
    await current.host.close();
    throw (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
      ? new Error(`Port ${options.port} is already in use on 127.0.0.1: pick another with --port, or 0 for any free port.`)
      : error;
  }
  const origin = server.address;
  return {
    get host() {
      return current.host;
    },
    restarted: () => restarting,
    origin,
    url: `${origin}/#secret=${secret}`,
    async close() {
      // listen's close also ends the SSE streams that would hold it open.
      await server.close();
      await restarting;
      closed = true;
      if (failed) return;
      current.unforward();
      await current.host.close();
    },
  };
}
/**
 * The built renderer, `out/renderer`, found by walking up from this module: the same code
 * runs from src/ (tsx, the tests) and bundled in out/main (`npm run start:web`).
 */
export function findRendererDir(start = __dirname): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'out', 'renderer');
    if (fs.existsSync(path.join(candidate, 'index.html'))) return candidate;
    if (path.dirname(dir) === dir) return path.resolve(start, '../../../out/renderer');
  }
}

