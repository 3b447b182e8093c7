import { CliUsageError, parseCliOptions } from './cli-options';
import { startWebHost } from './start-web-host';

/**
 * `npm run start:web -- [--port P] [--data-dir D] [--upstream URL --api-key KEY] [--local-api-port P2]`:
 * the host and the UI in a browser. Without an upstream the host embeds the sandbox.
 */
async function main(): Promise<void> {
  let options;
  try {
    options = parseCliOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
  const web = await startWebHost(options);
  // Said before the URL: whoever started it sees that the desk began on a new database, and why.
  if (web.host.damaged) console.error(web.host.damaged.message);
  console.log(`Coverdesk is running in browser mode. Open:\n${web.url}`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void web.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : 'Coverdesk could not start.');
  process.exit(1);
});
