import { hkdfSync, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { HostComponent } from '../support/host-component';
import { startSandbox, type Sandbox } from '../sandbox/start-sandbox';
import { loadX12Roster } from '../x12/x12-roster';

export interface EmbeddedSandboxOptions {
  dataDir: string;
  /** Resolution delay of discoveries and checks (the sandbox's default: about a second). */
  delayMs?: number;
  /** The host's key: what the desk syncs in sandbox mode, real patients included, is stored here too. */
  encryptionKey?: Buffer;
  /** A folder of real 271 answers for the sandbox to serve; read (and refused) when the host is created. */
  x12Dir?: string;
}

/**
 * Sandbox mode (docs/architecture.md): with no upstream configured, the host runs the sandbox
 * in-process on a loopback port and syncs to it over real HTTP, exactly as it would to a
 * vendor. Its data lives in the data dir, so what was synced to it is still there after a
 * restart. Only this process ever talks to it. Its API key is derived from the host's key,
 * so it is the same after a restart: the sandbox scopes Idempotency-Keys by caller key, and
 * an entry a crash left `sending` must be replayed, not created again, when it is resent.
 */
export interface EmbeddedSandbox extends HostComponent {
  /** Starts it if it is not running; the address and key to sync with. */
  ensure(): Promise<{ url: string; apiKey: string }>;
  stop(): Promise<void>;
}

export function embeddedSandboxPath(dataDir: string): string {
  return path.join(dataDir, 'sandbox', 'sandbox.sqlite');
}

/** Stable for one data dir's key; random (one run only) without a key. */
function sandboxApiKey(encryptionKey: Buffer | undefined): string {
  if (!encryptionKey) return randomBytes(32).toString('hex');
  return Buffer.from(hkdfSync('sha256', encryptionKey, Buffer.alloc(0), 'coverdesk embedded sandbox api key v1', 32)).toString('hex');
}

export function createEmbeddedSandbox(options: EmbeddedSandboxOptions): EmbeddedSandbox {
  let running: Promise<Sandbox> | null = null;
  const apiKey = sandboxApiKey(options.encryptionKey);
  // Read now, not at the first sync: a bad 271 folder stops the host from starting, naming the file.
  const x12 = options.x12Dir ? loadX12Roster(options.x12Dir) : undefined;
  return {
    name: 'embedded-sandbox',
    ensure() {
      running ??= startSandbox({
        port: 0,
        dbFile: embeddedSandboxPath(options.dataDir),
        apiKey,
        delayMs: options.delayMs,
        encryptionKey: options.encryptionKey,
        x12,
      });
      const started = running;
      return started.then(
        (sandbox) => ({ url: sandbox.url, apiKey: sandbox.apiKey }),
        (error: unknown) => {
          if (running === started) running = null;
          throw error;
        },
      );
    },
    async stop() {
      const current = running;
      running = null;
      if (current) await (await current.catch(() => null))?.close();
    },
  };
}
