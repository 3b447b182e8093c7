import { startSandbox, type Sandbox, type SandboxOptions } from '../../../../src/main/sandbox/start-sandbox';
import type { Clock } from '../../../../src/main/support/clock';
import { snapshotDatabase } from '../../../support/db-snapshot';
import { v1Caller } from '../../../support/http-request';

export const API_KEY = 'sandbox-test-key';

/** A clock that moves only when told: resolution delays become exact. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
}

export function manualClock(start = '2026-11-23T09:00:00.000Z'): ManualClock {
  let now = Date.parse(start);
  return { now: () => new Date(now), advance: (ms) => void (now += ms) };
}

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
