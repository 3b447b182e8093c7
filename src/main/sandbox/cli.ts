import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { parseFaultSpec, type FaultOptions } from './fault-injection';
import { startSandbox } from './start-sandbox';

const USAGE = 'npm run sandbox -- [--port P] [--db FILE] [--api-key KEY] [--delay MS] [--latency MS] [--faults SPEC] [--x12 DIR]';

class UsageError extends Error {}

function wholeNumber(name: string, value: string | undefined, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > max) throw new UsageError(`--${name} must be a whole number from 0 to ${max}.`);
  return n;
}

function readArgs() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: '0' },
        db: { type: 'string' },
        'api-key': { type: 'string' },
        delay: { type: 'string' },
        latency: { type: 'string' },
        faults: { type: 'string' },
        x12: { type: 'string' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * `npm run sandbox`: the reference /v1 service on 127.0.0.1 for integrators, tests and
 * training. The first line printed is the base URL alone, so scripts can read it.
 */
async function main(): Promise<void> {
  const values = readArgs();
  if (values.help) {
    console.log(`${USAGE}\nSee docs/sandbox.md.`);
    return;
  }
  const port = wholeNumber('port', values.port, 65535)!;
  const delayMs = wholeNumber('delay', values.delay);
  const latencyMs = wholeNumber('latency', values.latency);
  let faults: FaultOptions | undefined;
  try {
    faults = values.faults ? parseFaultSpec(values.faults) : undefined;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const generated = values['api-key'] === undefined;
  const apiKey = values['api-key'] ?? randomBytes(24).toString('hex');
  if (apiKey.length === 0) throw new UsageError('--api-key must not be empty.');

  const sandbox = await startSandbox({
    port,
    dbFile: values.db,
    apiKey,
    delayMs,
    latencyMs,
    faults: faults && { ...faults, onFault: (kind, request) => console.error(`fault ${kind}: ${request.method} ${request.path}`) },
    log: (message) => console.error(message),
    x12: values.x12,
  });
  console.log(sandbox.url);
  console.error(
    [
      `Coverdesk sandbox: /v1 at ${sandbox.url}`,
      generated ? `API key (generated for this run): ${apiKey}` : 'API key: as given with --api-key',
      `Data: ${values.db ?? 'a temporary file, removed on exit'}`,
      faults ? `Fault injection: ${values.faults}` : 'Fault injection: off',
      sandbox.x12 ? `271 answers: ${sandbox.x12.people.length} people from ${sandbox.x12.files.length} files${sandbox.x12.ignored.length ? ` (not read: ${sandbox.x12.ignored.join(', ')})` : ''}` : '271 answers: generated',
    ].join('\n'),
  );
  const stop = () => void sandbox.close().finally(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : 'The sandbox could not start.');
  if (error instanceof UsageError) console.error(`Usage: ${USAGE}`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
