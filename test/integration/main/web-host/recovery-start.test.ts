import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyFilePaths, readOrCreateKeyFile } from '@src/main/db/database-key';
import { createHost } from '@src/main/host/create-host';
import { makeRecoveryCode, newRecoveryCode, recoveryStatus } from '@src/main/security/recovery-code';
import { closedAfterEach } from '@test/support/backup/closing';
import { createVisit } from '@test/support/sync/visits';

/**
 * Browser mode's side of "a desk whose key is lost opens with the recovery code" (issue 28,
 * item 5): `npm run start:web` on a data folder whose `database.key` is gone refuses to start
 * without the code, and with it opens the same database, the key kept again.
 */
const root = path.resolve(__dirname, '../../../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const cli = path.join(root, 'src/main/web-host/cli.ts');
const { tempDir, keep } = closedAfterEach();

function startOnce(dataDir: string, ...args: string[]) {
  const run = spawnSync(tsx, [cli, '--port', '0', '--data-dir', dataDir, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

/** Starts the CLI until it prints its address, then stops it: what it said meanwhile. */
function startUntilOpen(dataDir: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, [cli, '--port', '0', '--data-dir', dataDir, ...args], { cwd: root });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      if (/Open:\n/.test(out)) child.kill('SIGTERM');
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('error', reject);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

describe('npm run start:web on a data folder whose key file is gone', () => {
  it('asks for the recovery code, refuses a wrong or mistyped one changing nothing, and opens the same records with the right one', async () => {
    const dataDir = tempDir('coverdesk-lost-key-');
    const desk = createHost({ dataDir, localApi: false, hotFolder: false });
    for (let n = 0; n < 2; n++) await createVisit(desk, n);
    const patients = (await desk.bridge['patients.list']({ limit: 100 })).data.map((p) => p.id).sort();
    const key = readOrCreateKeyFile({ file: keyFilePaths(dataDir).plain, mayCreate: false });
    const { code } = makeRecoveryCode({ clock: { now: () => new Date() }, scrypt: { N: 2 ** 10, r: 8, p: 1 } }, { dataDir, key });
    await desk.close();
    fs.rmSync(keyFilePaths(dataDir).plain);
    const files = () => fs.readdirSync(dataDir).sort();
    const before = files();

    const asked = startOnce(dataDir);
    expect(asked.status).toBe(1);
    expect(asked.out).toMatch(/no longer in this computer’s key store.*\n.*--recovery-code CODE/);
    const wrong = startOnce(dataDir, '--recovery-code', newRecoveryCode());
    expect(wrong.status).toBe(1);
    expect(wrong.out).toMatch(/not the one on this desk’s current recovery sheet/);
    const typo = startOnce(dataDir, '--recovery-code', code.slice(0, -1) + (code.at(-1) === 'A' ? 'B' : 'A'));
    expect(typo.status).toBe(1);
    expect(typo.out).toMatch(/typo/);
    expect(files()).toEqual(before);
    expect(recoveryStatus(dataDir).used_at).toBeNull();

    const opened = await startUntilOpen(dataDir, '--recovery-code', code);
    expect(opened).toMatch(/opened with the recovery code and kept again/);
    expect(opened).toMatch(/Coverdesk is running in browser mode/);
    expect(readOrCreateKeyFile({ file: keyFilePaths(dataDir).plain, mayCreate: false }).equals(key)).toBe(true);
    expect(recoveryStatus(dataDir).used_at).not.toBeNull();
    const again = keep(createHost({ dataDir, localApi: false, hotFolder: false }));
    expect((await again.bridge['patients.list']({ limit: 100 })).data.map((p) => p.id).sort()).toEqual(patients);
  }, 180_000);
});
