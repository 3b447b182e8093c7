import type { Db } from '../db/open-database';
import type { HostComponent } from '../support/host-component';
import { testConnection } from '../http/connection-test';
import { createHttpV1Client } from '../http/v1-client';
import type { SettingsStore } from '../settings/settings-store';
import type { Clock } from '../support/clock';
import type { EventHub } from '../support/event-hub';
import type { IdGenerator } from '../support/ids';
import type { ConnectionTest, DeskSettings, SyncStatus, WaitingRecords } from '../../shared/bridge/desk-contract';
import type { StoredPhoto } from '../../shared/contract';
import type { Random } from './backoff';
import type { EmbeddedSandbox } from './embedded-sandbox';
import { pruneSyncedEntries } from '../outbox/outbox-pruning';
import { stateCounts } from './outbox-queue';
import { createSyncEngine, type SyncEngine, type SyncLog, type SyncPolicy, type UpstreamTarget } from './sync-engine';

/** Tuning for tests and benchmarks; the defaults are the product's. */
export interface SyncHostOptions {
  policy?: Partial<SyncPolicy>;
  random?: Random;
  /** Per upstream request (the HTTP client's default: 15 s). */
  timeoutMs?: number;
  /** The connection test's wait for an answer (default 5 s). */
  connectionTestTimeoutMs?: number;
  /** The embedded sandbox's resolution delay. */
  sandboxDelayMs?: number;
  /** How often the pull side asks the practice for news when nothing else asks (default 2 s). */
  pullIntervalMs?: number;
  /** A folder of real 271 answers the embedded sandbox serves. */
  sandboxX12Dir?: string;
  log?: SyncLog;
}

export interface SyncComponentDeps {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  events: EventHub;
  settings: SettingsStore;
  sandbox: EmbeddedSandbox;
  readPhoto(objectKey: string): Promise<StoredPhoto>;
  /** From the command line (`--upstream URL --api-key KEY`): wins over saved settings until they change. */
  upstream?: { url: string; apiKey: string };
  options?: SyncHostOptions;
  /** The upstream answered a push (a record was stored or answered): the pull side looks for news. */
  onPushAnswered?(): void;
  /** Sync talks to another upstream now (or none). */
  onUpstreamChanged?(): void;
  /** Whether this computer's free space is under the margin (disk-space.ts): the status says `low`. */
  diskLow?(): boolean;
}

export interface SyncComponent extends HostComponent {
  engine: SyncEngine;
  status(): SyncStatus;
  /** The upstream part of the desk's settings: which mode, which URL, whether a key is set. */
  upstreamSettings(): Pick<DeskSettings, 'mode' | 'upstream_url' | 'api_key_set'>;
  /** Settings named the upstream or its key: talk to the one they say now (ends a 401 pause). */
  reconnect(): Promise<void>;
  /** Tries the service the settings name now, as sync would talk to it. */
  testConnection(): Promise<ConnectionTest>;
  /** Records not yet on the current service: what a switch would send to the new one. */
  waiting(): WaitingRecords;
  /** The upstream sync talks to now: where the pull side reads the practice's feed. */
  upstream(): UpstreamTarget | null;
}

const PRUNE_EVERY_MS = 60 * 60_000;

type Configured = { mode: 'upstream'; url: string; apiKey: string | null } | { mode: 'sandbox' };

/**
 * The sync worker as a host component: picks the upstream (command line, else settings,
 * else the embedded sandbox), runs the engine against it over HTTP, wakes it when the
 * desk creates something, and forwards its status and record changes to the bridge.
 */
export function createSyncComponent(deps: SyncComponentDeps): SyncComponent {
  const { events, options = {} } = deps;
  // The engine knows a write failed (`full`); the disk monitor knows space is short (`low`).
  const withDisk = (status: SyncStatus): SyncStatus =>
    status.storage === 'ok' && deps.diskLow?.() ? { ...status, storage: 'low' } : status;
  let useCommandLine = deps.upstream !== undefined;
  let started = false;
  let forwarding = false;
  let unsubscribe: (() => void) | undefined;
  let pruneTimer: ReturnType<typeof setInterval> | undefined;

  /** Synced entries past the history go in small batches, yielding to the desk between them. */
  async function prune(): Promise<void> {
    try {
      const pruned = await pruneSyncedEntries({ db: deps.db, clock: deps.clock }, { between: () => new Promise((resolve) => setImmediate(resolve)) });
      if (pruned > 0) options.log?.('sync.pruned', { entries: pruned });
    } catch (error) {
      // Housekeeping only: a failed prune is tried again in an hour.
      options.log?.('sync.prune_failed', { error: error instanceof Error ? error.name : 'unknown' });
    }
  }

  const engine = createSyncEngine({
    db: deps.db,
    clock: deps.clock,
    ids: deps.ids,
    random: options.random,
    policy: options.policy,
    readPhoto: deps.readPhoto,
    log: options.log,
    onStatus: (status) => events.emit('sync.status', withDisk(status)),
    onRecordChanged: (change) => {
      // The worker's own changes are news for the desk, not new work for the worker.
      forwarding = true;
      try {
        events.emit('records.changed', change);
      } finally {
        forwarding = false;
      }
      deps.onPushAnswered?.();
    },
  });

  let current: UpstreamTarget | null = null;
  function use(next: UpstreamTarget | null): void {
    current = next;
    engine.setUpstream(next);
    deps.onUpstreamChanged?.();
  }

  /**
   * The saved key, or none when its file cannot be trusted: the worker then pauses on the
   * upstream's 401 instead of the host refusing to start, and Settings says what to fix.
   */
  function readableApiKey(): string | null {
    try {
      return deps.settings.apiKey();
    } catch {
      options.log?.('sync.secrets_unreadable', {});
      return null;
    }
  }

  function configured(): Configured {
    if (useCommandLine && deps.upstream) return { mode: 'upstream', url: deps.upstream.url, apiKey: deps.upstream.apiKey };
    const saved = deps.settings.read();
    return saved.upstream_url ? { mode: 'upstream', url: saved.upstream_url, apiKey: readableApiKey() } : { mode: 'sandbox' };
  }

  async function target(): Promise<UpstreamTarget> {
    const config = configured();
    const client = (baseUrl: string, apiKey: string) => createHttpV1Client({ baseUrl, apiKey, timeoutMs: options.timeoutMs });
    if (config.mode === 'sandbox') {
      const sandbox = await deps.sandbox.ensure();
      return { mode: 'sandbox', url: sandbox.url, service: client(sandbox.url, sandbox.apiKey) };
    }
    await deps.sandbox.stop();
    // No key yet: the upstream answers 401 and the worker pauses until one is saved.
    return { mode: 'upstream', url: config.url, service: client(config.url, config.apiKey ?? '') };
  }

  return {
    name: 'sync',
    engine,
    async start() {
      try {
        use(await target());
      } catch (error) {
        // The embedded sandbox could not start (a damaged file, no port): the desk keeps
        // working locally and everything stays queued; the host must not fail for it.
        options.log?.('sync.no_upstream', { error: error instanceof Error ? error.name : 'unknown' });
        use(null);
      }
      unsubscribe = events.on('records.changed', () => {
        if (!forwarding) engine.kick();
      });
      engine.start();
      started = true;
      void prune();
      pruneTimer = setInterval(() => void prune(), PRUNE_EVERY_MS);
      pruneTimer.unref();
    },
    async stop() {
      started = false;
      clearInterval(pruneTimer);
      unsubscribe?.();
      await engine.stop();
    },
    status() {
      const status = withDisk(engine.status());
      if (started) return status;
      const config = configured();
      return { ...status, mode: config.mode, upstream_url: config.mode === 'upstream' ? config.url : null };
    },
    upstreamSettings() {
      const config = configured();
      return config.mode === 'upstream'
        ? { mode: 'upstream', upstream_url: config.url, api_key_set: config.apiKey !== null && config.apiKey !== '' }
        : { mode: 'sandbox', upstream_url: null, api_key_set: readableApiKey() !== null };
    },
    async reconnect() {
      useCommandLine = false;
      if (started) use(await target());
    },
    async testConnection() {
      const config = configured();
      const probe = { clock: deps.clock, timeoutMs: options.connectionTestTimeoutMs };
      if (config.mode === 'upstream') {
        return testConnection(probe, { mode: 'upstream', baseUrl: config.url, apiKey: config.apiKey ?? '', shownUrl: config.url });
      }
      const sandbox = await deps.sandbox.ensure();
      return testConnection(probe, { mode: 'sandbox', baseUrl: sandbox.url, apiKey: sandbox.apiKey, shownUrl: null });
    },
    upstream: () => current,
    waiting() {
      const counts = stateCounts(deps.db);
      const count = Object.entries(counts).reduce((sum, [state, n]) => (state === 'synced' ? sum : sum + n), 0);
      const config = configured();
      return { count, mode: config.mode, upstream_url: config.mode === 'upstream' ? config.url : null };
    },
  };
}
