import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliUsageError, parseCliOptions } from '@src/main/web-host/cli-options';

describe('start:web options', () => {
  it('defaults to any free port, ~/.coverdesk and sandbox mode', () => {
    expect(parseCliOptions([], '/home/desk')).toEqual({ dataDir: path.resolve('/home/desk/.coverdesk'), port: 0 });
  });

  it('maps --upstream/--api-key to the host upstream and --local-api-port to a TCP local API', () => {
    const options = parseCliOptions(
      ['--port', '8080', '--data-dir', 'rel/dir', '--upstream', 'https://eligibility.example.com', '--api-key', 'sk_test', '--local-api-port', '7700'],
      '/home/desk',
    );
    expect(options).toEqual({
      dataDir: path.resolve('rel/dir'),
      port: 8080,
      upstream: { url: 'https://eligibility.example.com', apiKey: 'sk_test' },
      localApi: { tcpPort: 7700 },
    });
  });

  it.each([
    [['--port', 'x'], '--port must be a number'],
    [['--port', '70000'], '--port must be a number'],
    [['--local-api-port', '1.5'], '--local-api-port must be a number'],
    [['--upstream', 'https://a.example'], '--upstream and --api-key go together'],
    [['--api-key', 'k'], '--upstream and --api-key go together'],
    [['--upstream', 'not a url', '--api-key', 'k'], '--upstream must be a web address starting with http:// or https://'],
    [['--upstream', 'ftp://a.example', '--api-key', 'k'], '--upstream must be a web address starting with http:// or https://'],
    [['--upstream', 'https://desk:pw@a.example', '--api-key', 'k'], '--upstream must not hold a user name or password'],
    [['--colour'], 'Usage: npm run start:web'],
    [['--sandbox-x12', 'dir', '--upstream', 'https://a.example', '--api-key', 'k'], '--sandbox-x12 is for sandbox mode'],
  ])('refuses %j with a message saying what to change', (args, message) => {
    expect(() => parseCliOptions(args, '/home/desk')).toThrow(CliUsageError);
    expect(() => parseCliOptions(args, '/home/desk')).toThrow(message);
  });

  it('--sandbox-x12 DIR gives the embedded sandbox a folder of 271s', () => {
    expect(parseCliOptions(['--sandbox-x12', 'answers'], '/home/desk').sync).toEqual({ sandboxX12Dir: path.resolve('answers') });
  });

  it('never echoes the API key or a password in the address in an error', () => {
    expect(() => parseCliOptions(['--api-key', 'sk_secret_123'], '/home/desk')).toThrow(expect.objectContaining({ message: expect.not.stringContaining('sk_secret_123') }));
    expect(() => parseCliOptions(['--upstream', 'https://desk:hunter2@a.example', '--api-key', 'sk_secret_123'], '/home/desk')).toThrow(
      expect.objectContaining({ message: expect.not.stringMatching(/hunter2|sk_secret_123/) }),
    );
  });
});
