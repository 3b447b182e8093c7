import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { makePng } from '@test/support/images';

let fx: HostFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
});

it.runIf(process.platform !== 'win32')('the example scanner client runs a whole visit over the real socket', async () => {
  fx = startTestHost({ localApi: {}, hotFolder: false });
  await fx.host.start();
  const front = path.join(fx.dataDir, 'front.png');
  fs.writeFileSync(front, makePng(12, 8, [0, 90, 200]));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'examples/scanner-client.ts', '--data-dir', fx.dataDir, '--front', front, '--wait', '0'],
    { cwd: path.resolve(__dirname, '../../..') },
  );
  expect(stdout).toMatch(/card ic_\w+, check eec_\w+: pending/);
  const cards = await fx.host.service.list('insurance_cards');
  expect(cards.data).toHaveLength(1);
  expect(cards.data[0]).toMatchObject({ source: 'api', member_id: 'XGH123456789' });
});
