import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startWebHost } from './start-web-host';

/** `npm run start:web -- [--port P] [--data-dir D]`: the host and the UI in a browser. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'data-dir': { type: 'string', default: path.join(os.homedir(), '.coverdesk') },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a number from 0 to 65535.`);
    process.exit(2);
  }
  const web = await startWebHost({ dataDir: path.resolve(values['data-dir']), port });
  console.log(`Coverdesk is running in browser mode. Open:\n${web.url}`);
  const stop = () => void web.close().finally(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : 'Coverdesk could not start.');
  process.exit(1);
});
