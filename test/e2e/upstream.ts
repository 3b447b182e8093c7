import fs from 'node:fs';
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

/** The `upstream` fixture's body: the sandbox up for the test, closed and removed after it. */
export async function withUpstream(use: (upstream: Upstream) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coverdesk-upstream-'));
  const options = { dbFile: path.join(dir, 'upstream.sqlite'), apiKey: 'sk_e2e_upstream', delayMs: 300 };
  let sandbox: Sandbox | null = await startSandbox({ ...options, port: 0 });
  const port = Number(new URL(sandbox.url).port);
  const upstream: Upstream = {
    url: sandbox.url,
    apiKey: options.apiKey,
    async stop() {
      await sandbox?.close();
      sandbox = null;
    },
    async start() {
      sandbox = await startSandbox({ ...options, port });
    },
  };
  try {
    await use(upstream);
  } finally {
    await sandbox?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
