import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startSandbox, type Sandbox } from '@src/main/sandbox/start-sandbox';

/** A real upstream (the sandbox on its own port and database) that a test can stop and start again. */
export interface Upstream {
  url: string;
  apiKey: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/**
 * Down, the port stays ours: a listener that resets every connection (no answer, as an
 * unreachable service gives). A freed port could be handed to a server of a test running
 * beside this one, whose answers (a 401, a 404) would tell the desk the upstream is back.
 */
async function holdPort(port: number): Promise<net.Server> {
  const server = net.createServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}

/** The `upstream` fixture's body: the sandbox up for the test, closed and removed after it. */
export async function withUpstream(use: (upstream: Upstream) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coverdesk-upstream-'));
  const options = { dbFile: path.join(dir, 'upstream.sqlite'), apiKey: 'sk_e2e_upstream', delayMs: 300 };
  let sandbox: Sandbox | null = await startSandbox({ ...options, port: 0 });
  // Set by `stop`, in a closure TypeScript does not follow: declared wide.
  let holder = null as net.Server | null;
  const port = Number(new URL(sandbox.url).port);
  const upstream: Upstream = {
    url: sandbox.url,
    apiKey: options.apiKey,
    async stop() {
      await sandbox?.close();
      sandbox = null;
      holder ??= await holdPort(port);
    },
    async start() {
      await new Promise((resolve) => (holder ? holder.close(resolve) : resolve(undefined)));
      holder = null;
      sandbox ??= await startSandbox({ ...options, port });
    },
  };
  try {
    await use(upstream);
  } finally {
    holder?.close();
    await sandbox?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
