import { RECOVERED_NOTICE, startDeskKey } from '../security/desk-key-start';
import { START_CHECK_DELAY_MS } from '../db/background-check';
import { systemClock } from '../support/clock';
import { CliUsageError, parseCliOptions } from './cli-options';
import { startWebHost } from './start-web-host';

/**
 * `npm run start:web -- [--port P] [--data-dir D] [--upstream URL --api-key KEY] [--local-api-port P2]`:
 * the host and the UI in a browser. Without an upstream the host embeds the sandbox. A data
 * folder whose key file is gone but whose recovery wrap is there starts only with
 * `--recovery-code CODE` (the recovery sheet's): the key is opened with it and kept again.
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
  const { recoveryCode, ...hostOptions } = options;
  // The command line is the browser host's one screen: the code given, or the message saying how to give it.
  let offered = false;
  const key = await startDeskKey(
    {
      platform: process.platform,
      clock: systemClock,
      askRecoveryCode: async ({ message, error }) => {
        if (error !== null) console.error(error);
        else if (recoveryCode === undefined) console.error(`${message}\nStart again with --recovery-code CODE.`);
        if (offered || recoveryCode === undefined) return null;
        offered = true;
        return recoveryCode;
      },
    },
    { dataDir: hostOptions.dataDir },
  );
  if (key === null) process.exit(1);
  if (key.recovered) console.error(RECOVERED_NOTICE);
  const web = await startWebHost({ ...hostOptions, startCheck: { delayMs: START_CHECK_DELAY_MS } });
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
