import type { Db } from '../db/open-database';
import type { HostComponent } from '../host/create-host';
import { createIdempotencyStore } from '../http/idempotency-store';
import { listen, type Listening } from '../http/listen';
import { createV1App } from '../http/v1-app';
import type { Clock } from '../support/clock';
import type { IdGenerator } from '../support/ids';
import type { LocalApiStatus } from '../../shared/bridge/desk-contract';
import type { V1Service } from '../../shared/contract';
import { pipePath, prepareSocketPath } from './endpoints';
import { tcpGuard } from './tcp-guard';
import { ensureToken, regenerateToken, tokenMatches } from './token-file';

export interface LocalApiDeps {
  dataDir: string;
  db: Db;
  service: V1Service;
  clock: Clock;
  ids: IdGenerator;
  /** Off by default: loopback TCP for scanner software that cannot use a socket or pipe. */
  tcpPort?: number;
  platform?: NodeJS.Platform;
  log?(message: string): void;
}

export interface LocalApi extends HostComponent {
  status(): LocalApiStatus;
  /** A new token; the old one stops working at once. */
  regenerateToken(): LocalApiStatus;
}

/**
 * The /v1 contract for scanner software on this computer: the same HTTP app as the
 * sandbox, over the host's service with `source: api`, on a user-only Unix socket (a
 * per-user named pipe on Windows) and, when asked, loopback TCP behind the Origin/Host guard.
 */
export function createLocalApi(deps: LocalApiDeps): LocalApi {
  const platform = deps.platform ?? process.platform;
  let token: string | null = null;
  let listening: Listening[] = [];
  let problem: string | undefined;
  const idempotency = createIdempotencyStore({ db: deps.db, clock: deps.clock });
  const app = (before: Parameters<typeof createV1App>[0]['before'] = []) =>
    createV1App({
      service: deps.service,
      source: 'api',
      authenticate: (given) => token !== null && tokenMatches(token, given),
      idempotency,
      ids: deps.ids,
      before,
      log: deps.log,
    });

  function status(): LocalApiStatus {
    if (problem) return { state: 'unavailable', address: null, tcp_address: null, token, message: problem };
    if (listening.length === 0) return { state: 'stopped', address: null, tcp_address: null, token };
    const [local, tcp] = listening;
    return { state: 'running', address: local.address, tcp_address: tcp?.address ?? null, token };
  }

  return {
    name: 'local-api',
    async start() {
      problem = undefined;
      try {
        token = ensureToken(deps.dataDir);
        const target = platform === 'win32' ? pipePath() : await prepareSocketPath(deps.dataDir);
        listening.push(await listen(app(), { path: target }));
        if (deps.tcpPort !== undefined) {
          let port = deps.tcpPort;
          const tcp = await listen(app([tcpGuard(() => port)]), { port: deps.tcpPort, hostname: '127.0.0.1' });
          port = tcp.port ?? port;
          listening.push(tcp);
        }
        deps.log?.(`local API listening (${listening.length} transport(s))`);
      } catch (error) {
        // The desk keeps working without the local API; Settings says why it is off.
        problem = error instanceof Error ? error.message : 'The local API could not start.';
        await Promise.all(listening.map((l) => l.close()));
        listening = [];
        deps.log?.('local API unavailable');
      }
    },
    async stop() {
      await Promise.all(listening.map((l) => l.close()));
      listening = [];
    },
    status,
    regenerateToken() {
      token = regenerateToken(deps.dataDir);
      return status();
    },
  };
}
