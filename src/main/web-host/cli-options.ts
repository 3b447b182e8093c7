import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { UpstreamUrl } from '../../shared/bridge/desk-contract';
import type { WebHostOptions } from './start-web-host';

export const USAGE =
  'Usage: npm run start:web -- [--port P] [--data-dir D] [--upstream URL --api-key KEY | --sandbox-x12 DIR] [--local-api-port P2] [--recovery-code CODE]';

/** A command line that cannot start: the message says what to change. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}

function portOption(flag: string, value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new CliUsageError(`${flag} must be a number from 0 to 65535.`);
  return port;
}

/**
 * `start:web`'s flags as host options. The API key is required with an upstream and
 * meaningless without one; it is never printed back.
 */
export function parseCliOptions(args: string[], homeDir = os.homedir()): WebHostOptions & { recoveryCode?: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      options: {
        port: { type: 'string', default: '0' },
        'data-dir': { type: 'string', default: path.join(homeDir, '.coverdesk') },
        upstream: { type: 'string' },
        'api-key': { type: 'string' },
        'local-api-port': { type: 'string' },
        'sandbox-x12': { type: 'string' },
        // Only for a data folder whose key file is gone (the recovery sheet's code opens it).
        'recovery-code': { type: 'string' },
      },
    }));
  } catch (error) {
    throw new CliUsageError(`${error instanceof Error ? error.message : 'Unknown option.'}\n${USAGE}`);
  }
  const options: WebHostOptions & { recoveryCode?: string } = { dataDir: path.resolve(values['data-dir']), port: portOption('--port', values.port) };
  if (values.upstream !== undefined || values['api-key'] !== undefined) {
    if (!values.upstream || !values['api-key']) throw new CliUsageError('--upstream and --api-key go together: give both, or neither for sandbox mode.');
    const url = UpstreamUrl.safeParse(values.upstream);
    // The address is never echoed: it may hold the very password it is refused for.
    if (!url.success) throw new CliUsageError(`--upstream ${url.error.issues[0].message} (for example https://eligibility.example.com).`);
    options.upstream = { url: values.upstream, apiKey: values['api-key'] };
  }
  if (values['sandbox-x12'] !== undefined) {
    if (options.upstream) throw new CliUsageError('--sandbox-x12 is for sandbox mode: leave out --upstream and --api-key.');
    options.sync = { ...options.sync, sandboxX12Dir: path.resolve(values['sandbox-x12']) };
  }
  if (values['recovery-code'] !== undefined) options.recoveryCode = values['recovery-code'];
  if (values['local-api-port'] !== undefined) options.localApi = { tcpPort: portOption('--local-api-port', values['local-api-port']) };
  return options;
}
