/**
 * The process the local API crash test kills: a real host serving its local API on the data
 * folder's socket, offline (its upstream a closed loopback port, so nothing is sent and the
 * outbox only grows). Prints `ready` once the local API listens; runs until killed.
 * CRASH_DATA_DIR: the data folder; CRASH_UPSTREAM_URL: the closed port.
 */
import { createHost } from '@src/main/host/create-host';

async function main(): Promise<void> {
  const host = createHost({
    dataDir: process.env.CRASH_DATA_DIR!,
    upstream: { url: process.env.CRASH_UPSTREAM_URL!, apiKey: 'crash-offline' },
    localApi: {},
    hotFolder: false,
    startCheck: false,
  });
  await host.start();
  process.stdout.write('ready\n');
  setInterval(() => {}, 60_000);
}

main().catch((error: unknown) => {
  process.stderr.write(`group-commit-crash-child: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
