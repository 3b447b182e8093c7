import { startSandbox, type Sandbox, type SandboxOptions } from '@src/main/sandbox/start-sandbox';
import { snapshotDatabase } from '@test/support/db-snapshot';
import { v1Caller } from '@test/support/http-request';

export const API_KEY = 'sandbox-test-key';

export interface SandboxFixture {
  sandbox: Sandbox;
  call: ReturnType<typeof v1Caller>;
  snapshot(): Record<string, number | string[]>;
  close(): Promise<void>;
}

/** The real sandbox on a loopback port, with a caller bound to its URL and key. */
export async function startTestSandbox(options: Partial<SandboxOptions> = {}): Promise<SandboxFixture> {
  const sandbox = await startSandbox({ apiKey: API_KEY, ...options });
  return {
    sandbox,
    call: v1Caller({ baseUrl: sandbox.url }, sandbox.apiKey),
    snapshot: () => snapshotDatabase(sandbox.database.sqlite, sandbox.photosDir),
    close: () => sandbox.close(),
  };
}
