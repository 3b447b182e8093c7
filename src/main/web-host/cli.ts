import { openDeskKey, recoverDeskKey } from '../security/desk-key-recovery';
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
  const store = { platform: process.platform };
  const key = await openDeskKey(store, { dataDir: hostOptions.dataDir });
  if (key.state === 'needs_recovery_code') {
    if (recoveryCode === undefined) {
      console.error(`${key.message}\nStart again with --recovery-code CODE.`);
      process.exit(1);
    }
    await recoverDeskKey({ ...store, clock: systemClock }, { dataDir: hostOptions.dataDir, code: recoveryCode });
    console.error('The desk’s key was opened with the recovery code and kept again. The code is now used: print a new recovery sheet in Settings → Recovery sheet.');
  }
  const web = await startWebHost(hostOptions);
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
