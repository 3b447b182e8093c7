import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MiddlewareHandler } from 'hono';
import { openDatabase, type OpenedDatabase } from '../db/open-database';
import { createIdempotencyStore, DEFAULT_IDEMPOTENCY_TTL_MS } from '../http/idempotency-store';
import { listen } from '../http/listen';
import { createV1App } from '../http/v1-app';
import type { HotFolderExtractor } from '../inbox/hot-folder';
import { tokenMatches } from '../local-api/token-file';
import { createPhotoStore } from '../photos/photo-store';
import { systemClock, type Clock } from '../support/clock';
import { createIdGenerator, type IdGenerator } from '../support/ids';
import { faultInjection, latency, type FaultOptions } from './fault-injection';
import { createSandboxService, type SandboxService } from './sandbox-service';

export interface SandboxOptions {
  /** Loopback TCP port; 0 or absent picks a free one. */
  port?: number;
  /** The sandbox's SQLite file (photos beside it in `<file>.photos/`); absent: a temporary folder, removed on close. */
  dbFile?: string;
  apiKey: string;
  /** How long discoveries, checks and extractions stay pending (default 1000 ms). */
  delayMs?: number;
  /** How long `PENDING…` member ids keep a check pending (default 1 hour). */
  longPendingMs?: number;
  /** Added to every answer. */
  latencyMs?: number;
  /** Off unless given (DESIGN.md §4: never by default). */
  faults?: FaultOptions;
  /** How long an Idempotency-Key's first answer is replayed (default 7 days). */
  idempotencyTtlMs?: number;
  clock?: Clock;
  ids?: IdGenerator;
  extractor?: HotFolderExtractor;
  log?(message: string): void;
  /**
   * Encrypts its database and photos (as the host's). The embedded sandbox needs it: in
   * sandbox mode whatever the desk syncs, real patients included, is stored here.
   */
  encryptionKey?: Buffer;
}

export interface Sandbox {
  /** `http://127.0.0.1:P`; the /v1 routes are below it. */
  url: string;
  apiKey: string;
  service: SandboxService;
  database: OpenedDatabase;
  /** Where the photos are kept. */
  photosDir: string;
  close(): Promise<void>;
}

/**
 * The sandbox as a running server (DESIGN.md §1): its own database, the simulated
 * clearinghouse ticking, and the one /v1 HTTP layer on 127.0.0.1 with the channel source
 * `api`. `npm run sandbox` and the host's embedded default upstream both start it here.
 */
export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  if (!options.apiKey) throw new Error('The sandbox needs an API key.');
  // Built first: bad fault options refuse to start before anything is opened.
  const before: MiddlewareHandler[] = [];
  if (options.latencyMs) before.push(latency(options.latencyMs));
  if (options.faults) before.push(faultInjection(options.faults));
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? createIdGenerator(clock);
  const temp = options.dbFile ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'coverdesk-sandbox-'));
  const dbFile = options.dbFile ? path.resolve(options.dbFile) : path.join(temp!, 'sandbox.sqlite');
  const photosDir = `${dbFile}.photos`;
  fs.mkdirSync(path.dirname(dbFile), { recursive: true });

  const database = openDatabase({ file: dbFile, key: options.encryptionKey });
  let url = '';
  let service: ReturnType<typeof createSandboxService>;
  try {
    service = createSandboxService({
      db: database.db,
      clock,
      ids,
      photos: createPhotoStore(photosDir, { key: options.encryptionKey }),
      // Absolute, as a vendor's would be: the sandbox has one address. Fetch with the same key.
      photoUrl: (key) => `${url}/v1/photos/${key}`,
      delayMs: options.delayMs,
      longPendingMs: options.longPendingMs,
      extractor: options.extractor,
      log: options.log,
    });
  } catch (error) {
    database.close();
    throw error;
  }
  const app = createV1App({
    service,
    source: 'api',
    authenticate: (given) => tokenMatches(options.apiKey, given),
    idempotency: createIdempotencyStore({ db: database.db, clock, ttlMs: options.idempotencyTtlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS }),
    ids,
    before,
    log: options.log,
  });

  let listening;
  try {
    listening = await listen(app, { port: options.port ?? 0, hostname: '127.0.0.1' });
  } catch (error) {
    database.close();
    if (temp) fs.rmSync(temp, { recursive: true, force: true });
    throw error;
  }
  url = listening.address;
  await service.clearinghouse.start();

  let closed = false;
  return {
    url,
    apiKey: options.apiKey,
    service,
    database,
    photosDir,
    async close() {
      if (closed) return;
      closed = true;
      await listening.close();
      await service.clearinghouse.stop();
      database.close();
      if (temp) fs.rmSync(temp, { recursive: true, force: true });
    },
  };
}
