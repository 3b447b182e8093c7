import type { Db } from '../db/open-database';
import type { HostComponent } from '../support/host-component';
import { createIdempotencyStore } from '../http/idempotency-store';
import { listen, type Listening } from '../http/listen';
import { inFlightLimit } from '../http/in-flight-limit';
import { createV1App, type V1Routes } from '../http/v1-app';
import type { Clock } from '../support/clock';
import type { IdGenerator } from '../support/ids';
import type { LocalApiStatus } from '../../shared/bridge/desk-contract';
import type { V1Service } from '../../shared/contract';
import { isAddressInUse, newPipePath, prepareSocketPath, publishPipePath, WINDOWS_PIPE_PREFIX } from './endpoints';
import { tcpGuard } from './tcp-guard';
import type { IntegrationTokens } from './integration-tokens';
import { ensureToken, regenerateToken } from './token-file';

export interface LocalApiDeps {
  dataDir: string;
  db: Db;
  service: V1Service;
  clock: Clock;
  ids: IdGenerator;
  /** Off by default: loopback TCP for scanner software that cannot use a socket or pipe. */
  tcpPort?: number;
  platform?: NodeJS.Platform;
  /** Where pipe names are made (Windows: `\\.\pipe\`); tests use a folder. */
  pipePrefix?: string;
  /** Requests in progress at once before 429 (default `LOCAL_API_MAX_IN_FLIGHT`). */
  maxInFlight?: number;
  /** Random bytes for the pipe name; injected so tests can make a name collide. */
  random?: (bytes: number) => Buffer;
  log?(message: string): void;
  /** Desk-local routes the upstream contract does not have (appointments). */
  routes?: V1Routes;
  /** Named integrations' tokens, let in besides the token file's. */
  integrations?: IntegrationTokens;
  /** How the audit names a request made with an integration's token. */
  actorFor?(integrationName: string): string;
}

/**
 * Requests the local API works on at once; past it, 429 with Retry-After. Scanner software
 * sends a few at a time; 32 keeps every group commit full without letting a runaway client
 * queue work in front of the desk's own screens.
 */
export const LOCAL_API_MAX_IN_FLIGHT = 32;

/** Tries before giving up on a pipe name: a clash with 128 random bits means someone squats. */
const PIPE_NAME_TRIES = 3;

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
  // One limit for every transport: it protects the desk's one process, whichever way the flood comes.
  const limit = inFlightLimit(deps.maxInFlight ?? LOCAL_API_MAX_IN_FLIGHT);
  const app = (before: Parameters<typeof createV1App>[0]['before'] = []) =>
    createV1App({
      service: deps.service,
      source: 'api',
      apiKey: () => token,
      callerOf: (given) => {
        const integration = deps.integrations?.verify(given);
        return integration ? (deps.actorFor?.(integration.name) ?? integration.name) : null;
      },
      idempotency,
      ids: deps.ids,
      before: [limit, ...before],
      log: deps.log,
      routes: deps.routes,
    });

  function status(): LocalApiStatus {
    if (problem) return { state: 'unavailable', address: null, tcp_address: null, token, message: problem };
    if (listening.length === 0) return { state: 'stopped', address: null, tcp_address: null, token };
    const [local, tcp] = listening;
    return { state: 'running', address: local.address, tcp_address: tcp?.address ?? null, token };
  }

  /**
   * A fresh unguessable pipe, created first-instance-only (libuv refuses a name that exists,
   * so a pipe someone else made first is never joined), then published for integrators.
   */
  async function listenOnPipe(): Promise<Listening> {
    for (let attempt = 1; ; attempt++) {
      const target = newPipePath(deps.pipePrefix ?? WINDOWS_PIPE_PREFIX, deps.random);
      try {
        const served = await listen(app(), { path: target });
        try {
          publishPipePath(deps.dataDir, target);
        } catch (error) {
          // Not yet in `listening`: unclosed here, it would serve on, past stop(), unlisted.
          await served.close();
          throw error;
        }
        return served;
      } catch (error) {
        if (!isAddressInUse(error)) throw error;
        if (attempt >= PIPE_NAME_TRIES) {
          throw new Error(
            `The local API's pipe could not be created: ${PIPE_NAME_TRIES} random pipe names in a row were already taken, so another program on this computer may be waiting for scanner tokens. Restart Coverdesk; if this stays, ask IT to check this computer.`,
          );
        }
        deps.log?.('local API pipe name already taken; trying another');
      }
    }
  }

  return {
    name: 'local-api',
    async start() {
      problem = undefined;
      try {
        token = ensureToken(deps.dataDir);
        listening.push(platform === 'win32' ? await listenOnPipe() : await listen(app(), { path: await prepareSocketPath(deps.dataDir) }));
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
