/**
 * The process the crash test kills: a real host with its sync worker, talking to the
 * sandbox the test runs. Told what to do by environment variables:
 * - CRASH_DATA_DIR, CRASH_UPSTREAM_URL, CRASH_API_KEY: the host and its upstream;
 * - CRASH_CREATE=N: make N visits itself once started (so kills also land mid-create);
 * - CRASH_DRAIN=1: print `drained` once nothing is left to send or poll, then exit.
 * Prints `ready` once the host is started. Logs (ids only) go to stderr with CRASH_DEBUG=1.
 */
import { createHost } from '@src/main/host/create-host';
import { seededRandom } from '@src/main/sandbox/fault-injection';
import { createVisit, FAST_POLICY } from './visits';

async function main(): Promise<void> {
  const env = process.env;
  const seed = Number(env.CRASH_SEED ?? 1);
  const host = createHost({
    dataDir: env.CRASH_DATA_DIR!,
    upstream: { url: env.CRASH_UPSTREAM_URL!, apiKey: env.CRASH_API_KEY! },
    localApi: false,
    hotFolder: false,
    sync: {
      policy: FAST_POLICY,
      timeoutMs: 1_000,
      random: seededRandom(seed),
      log: env.CRASH_DEBUG ? (event, fields) => process.stderr.write(`${event} ${JSON.stringify(fields)}\n`) : undefined,
    },
  });
  await host.start();
  process.stdout.write('ready\n');

  const create = Number(env.CRASH_CREATE ?? 0);
  for (let i = 0; i < create; i++) await createVisit(host, seed * 10 + i, { discovery: i % 2 === 0 });

  if (env.CRASH_DRAIN) {
    for (;;) {
      const { counts } = await host.bridge['sync.status']({});
      const pending = host.database.sqlite
        .prepare(
          "SELECT (SELECT count(*) FROM electronic_eligibility_checks WHERE status = 'pending') + (SELECT count(*) FROM electronic_eligibility_discoveries WHERE status = 'pending') + (SELECT count(*) FROM extractions WHERE status = 'pending') AS n",
        )
        .get() as { n: number };
      if (counts.queued + counts.sending + counts.blocked + counts.failed + counts.needs_review === 0 && pending.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await host.close();
    process.stdout.write('drained\n');
    process.exit(0);
  }
  // Otherwise run until killed: the worker's timers are unref'd, so hold the process open.
  setInterval(() => {}, 60_000);
}

main().catch((error: unknown) => {
  process.stderr.write(`crash-child: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
