/**
 * The process the batch crash test kills: a real host with its sync worker and batch runner,
 * talking to the sandbox the test runs. Told what to do by environment variables:
 * - CRASH_DATA_DIR, CRASH_UPSTREAM_URL, CRASH_API_KEY: the host and its upstream;
 * - CRASH_DATE: the day whose batch it runs;
 * - CRASH_DRAIN=1: print `drained` once the batch is answered and nothing is left to send, then exit.
 * Prints `ready` once the host is started.
 */
import { createHost } from '@src/main/host/create-host';
import { seededRandom } from '@src/main/sandbox/fault-injection';
import { FAST_POLICY } from '../sync/visits';

async function main(): Promise<void> {
  const env = process.env;
  const host = createHost({
    dataDir: env.CRASH_DATA_DIR!,
    upstream: { url: env.CRASH_UPSTREAM_URL!, apiKey: env.CRASH_API_KEY! },
    localApi: false,
    hotFolder: false,
    batchIntervalMs: 10,
    sync: { policy: FAST_POLICY, timeoutMs: 1_000, random: seededRandom(Number(env.CRASH_SEED ?? 1)) },
  });
  await host.start();
  process.stdout.write('ready\n');
  if (env.CRASH_DRAIN) {
    for (;;) {
      const progress = await host.bridge['appointments.progress']({ date: env.CRASH_DATE! });
      const { counts } = await host.bridge['sync.status']({});
      if (progress.state === 'finished' && progress.done === progress.total && counts.queued + counts.sending + counts.blocked === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await host.close();
    process.stdout.write('drained\n');
    process.exit(0);
  }
  setInterval(() => {}, 60_000);
}

main().catch((error: unknown) => {
  process.stderr.write(`batch-crash-child: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
