import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBackup, deskIdentity } from '@src/main/backup/desk-backup';
import { keyFilePaths, readOrCreateKeyFile } from '@src/main/db/database-key';
import { createHost, hostPaths } from '@src/main/host/create-host';
import { makeRecoveryCode, newRecoveryCode, recoveryStatus } from '@src/main/security/recovery-code';
import { closedAfterEach } from '@test/support/backup/closing';
import { createVisit } from '@test/support/sync/visits';

/**
 * "Move this desk" with the recovery code (issue 28, item 5; issue 29): the new computer has
 * no key file, only the backup and the recovery sheet. The backup carries the key wrapped by
 * the code; `npm run restore -- --recovery-code CODE` opens it.
 */
const root = path.resolve(__dirname, '../../../..');
const { tempDir, keep } = closedAfterEach();

function restoreCli(...args: string[]) {
  const run = spawnSync(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'scripts/restore.ts'), ...args], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

const listing = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

describe('npm run restore -- --recovery-code', () => {
  it('restores a real backup on an empty folder with the code alone; a wrong or mistyped code restores nothing; the code is then used', async () => {
    const oldDir = tempDir('coverdesk-old-desk-');
    const old = createHost({ dataDir: oldDir, localApi: false, hotFolder: false });
    for (let n = 0; n < 3; n++) await createVisit(old, n);
    const patients = (await old.bridge['patients.list']({ limit: 100 })).data.map((p) => p.id).sort();
    const key = readOrCreateKeyFile({ file: keyFilePaths(oldDir).plain, mayCreate: false });
    const { code } = makeRecoveryCode({ clock: { now: () => new Date() }, scrypt: { N: 2 ** 10, r: 8, p: 1 } }, { dataDir: oldDir, key });
    const share = tempDir('coverdesk-share-');
    await createBackup({ clock: { now: () => new Date() }, key, version: '0.1.0' }, { files: hostPaths(oldDir), identity: deskIdentity(old.database.sqlite), to: share, keep: 3 });
    await old.close();

    const newDir = path.join(tempDir('coverdesk-new-computer-'), 'data');
    const wrong = restoreCli('--from', share, '--data-dir', newDir, '--recovery-code', newRecoveryCode());
    expect(wrong.status).toBe(1);
    expect(wrong.out).toMatch(/not the one on this desk’s current recovery sheet.*Nothing was restored\./);
    const typo = restoreCli('--from', share, '--data-dir', newDir, '--recovery-code', code.slice(0, -1) + (code.at(-1) === 'A' ? 'B' : 'A'));
    expect(typo.status).toBe(1);
    expect(typo.out).toMatch(/typo/);
    expect(listing(newDir)).toEqual([]);

    const restored = restoreCli('--from', share, '--data-dir', newDir, '--recovery-code', code);
    expect(restored.out).toMatch(/Restored coverdesk-backup-/);
    expect(restored.status).toBe(0);
    expect(restored.out).toMatch(/recovery code is now used/);
    expect(recoveryStatus(newDir).used_at).not.toBeNull();
    const moved = keep(createHost({ dataDir: newDir, localApi: false, hotFolder: false }));
    expect((await moved.bridge['patients.list']({ limit: 100 })).data.map((p) => p.id).sort()).toEqual(patients);
  }, 180_000);
});
