import type { Db } from '../db/open-database';
import type { HostComponent } from '../host/create-host';
import { createHttpV1Client } from '../http/v1-client';
import type { SettingsStore } from '../settings/settings-store';
import type { Clock } from '../support/clock';
import type { EventHub } from '../support/event-hub';
import type { IdGenerator } from '../support/ids';
import type { DeskSettings, SyncStatus } from '../../shared/bridge/desk-contract';
import type { StoredPhoto } from '../../shared/contract';
import type { Random } from './backoff';
import type { EmbeddedSandbox } from './embedded-sandbox';
import { createSyncEngine, type SyncEngine, type SyncLog, type SyncPolicy, type UpstreamTarget } from './sync-engine';

/** Tuning for tests and benchmarks; the defaults are the product's. */
export interface SyncHostOptions {
  policy?: Partial<SyncPolicy>;
  random?: Random;
  /** Per upstream request (the HTTP client's default: 15 s). */
  timeoutMs?: number;
  /** The embedded sandbox's resolution delay. */
  sandboxDelayMs?: number;
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
}

export interface SyncComponent extends HostComponent {
  engine: SyncEngine;
  status(): SyncStatus;
  /** The upstream part of the desk's settings: which mode, which URL, whether a key is set. */
  upstreamSettings(): Pick<DeskSettings, 'mode' | 'upstream_url' | 'api_key_set'>;
  /** Settings named the upstream or its key: talk to the one they say now (ends a 401 pause). */
  reconnect(): Promise<void>;
}

type Configured = { mode: 'upstream'; url: string; apiKey: string | null } | { mode: 'sandbox' };

/**
 * The sync worker as a host component: picks the upstream (command line, else settings,
 * else the embedded sandbox), runs the engine against it over HTTP, wakes it when the
 * desk creates something, and forwards its status and record changes to the bridge.
 */
export function createSyncComponent(deps: SyncComponentDeps): SyncComponent {
  const { events, options = {} } = deps;
  let useCommandLine = deps.upstream !== undefined;
  let started = false;
  let forwarding = false;
  let unsubscribe: (() => void) | undefined;

  const engine = createSyncEngine({
    db: deps.db,
    clock: deps.clock,
    ids: deps.ids,
    random: options.random,
    policy: options.policy,
    readPhoto: deps.readPhoto,
    log: options.log,
    onStatus: (status) => events.emit('sync.status', status),
    onRecordChanged: (change) => {
      // The worker's own changes are news for the desk, not new work for the worker.
      forwarding = true;
      try {
        events.emit('records.changed', change);
      } finally {
        forwarding = false;
      }
    },
  });

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
        engine.setUpstream(await target());
      } catch (error) {
        // The embedded sandbox could not start (a damaged file, no port): the desk keeps
        // working locally and everything stays queued; the host must not fail for it.
        options.log?.('sync.no_upstream', { error: error instanceof Error ? error.name : 'unknown' });
        engine.setUpstream(null);
      }
      unsubscribe = events.on('records.changed', () => {
        if (!forwarding) engine.kick();
      });
      engine.start();
      started = true;
    },
    async stop() {
      started = false;
      unsubscribe?.();
      await engine.stop();
    },
    status() {
      const status = engine.status();
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
      if (started) engine.setUpstream(await target());
    },
  };
}
