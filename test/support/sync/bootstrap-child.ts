/**
 * The process the bootstrap crash test kills: a new desk (a real host, its sync and pull
 * components started) joining the practice the test runs. Environment:
 * - BOOT_DATA_DIR, BOOT_UPSTREAM_URL, BOOT_API_KEY: the host and its upstream;
 * - BOOT_FINISH=1: print `caught-up` once the desk has read the whole feed, then exit.
 * Prints `ready` once started, and `received N` as the bootstrap goes.
 */
import { createHost } from '@src/main/host/create-host';

async function main(): Promise<void> {
  const env = process.env;
  const host = createHost({
    dataDir: env.BOOT_DATA_DIR!,
    upstream: { url: env.BOOT_UPSTREAM_URL!, apiKey: env.BOOT_API_KEY! },
    localApi: false,
    hotFolder: false,
    // Generous: on a loaded machine a slow answer must not read as "offline" (which pauses the pull until the probe).
    sync: { timeoutMs: 30_000, pullIntervalMs: 100 },
  });
  await host.start();
  process.stdout.write('ready\n');
  for (;;) {
    const view = await host.bridge['sync.practice']({});
    process.stdout.write(`received ${view.received}\n`);
    if (env.BOOT_FINISH && view.caught_up_at && !view.behind) {
      await host.close();
      process.stdout.write('caught-up\n');
      process.exit(0);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bootstrap-child: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
