import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MiddlewareHandler } from 'hono';
import { openDatabase, type OpenedDatabase } from '../db/open-database';
import { createIdempotencyStore, DEFAULT_IDEMPOTENCY_TTL_MS } from '../http/idempotency-store';
import { listen } from '../http/listen';
import { createV1App } from '../http/v1-app';
import type { HotFolderExtractor } from '../inbox/hot-folder';
import { createPhotoStore } from '../photos/photo-store';
import { systemClock, type Clock } from '../support/clock';
import { createIdGenerator, type IdGenerator } from '../support/ids';
import { faultInjection, latency, type FaultOptions } from './fault-injection';
import { createSandboxService, type SandboxService } from './sandbox-service';
import { loadX12Roster, type X12Roster } from '../x12/x12-roster';

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
  /** Off unless given (docs/sandbox.md, never by default). */
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
  /**
   * Real 271 answers: a folder to read (`--x12 DIR`), or one already read. A bad file or
   * two answers about one person refuse to start (`X12FileError`, naming the files).
   */
  x12?: string | X12Roster;
  /**
   * Told of each answer as it leaves, after latency and faults (a bench times what the desk
   * does from there); its errors are its own, the answer goes out regardless.
   */
  onResponse?(request: Request, response: Response): void;
}

export interface Sandbox {
  /** `http://127.0.0.1:P`; the /v1 routes are below it. */
  url: string;
  apiKey: string;
  service: SandboxService;
  database: OpenedDatabase;
  /** Where the photos are kept. */
  photosDir: string;
  /** The real 271 answers it serves, if it was given any. */
  x12?: X12Roster;
  close(): Promise<void>;
}

/**
 * The sandbox as a running server (docs/architecture.md): its own database, the simulated
 * clearinghouse ticking, and the one /v1 HTTP layer on 127.0.0.1 with the channel source
 * `api`. `npm run sandbox` and the host's embedded default upstream both start it here.
 */
export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  if (!options.apiKey) throw new Error('The sandbox needs an API key.');
  // Built first: bad fault options or 271 files refuse to start before anything is opened.
  const x12 = typeof options.x12 === 'string' ? loadX12Roster(options.x12) : options.x12;
  const before: MiddlewareHandler[] = [];
  const onResponse = options.onResponse;
  if (onResponse)
    before.push(async (c, next) => {
      await next();
      try {
        onResponse(c.req.raw, c.res);
      } catch {
        // A bench's hook never changes what the desk is answered.
      }
    });
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
      x12,
      log: options.log,
    });
  } catch (error) {
    database.close();
    throw error;
  }
  const app = createV1App({
    service,
    source: 'api',
    apiKey: () => options.apiKey,
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
    x12,
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
