import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyFilePaths } from '@src/main/db/database-key';
import { createHost } from '@src/main/host/create-host';
import { openDeskKey, recoverDeskKey } from '@src/main/security/desk-key-recovery';
import { makeRecoveryCode, newRecoveryCode, RecoveryCodeError, recoveryFilePath } from '@src/main/security/recovery-code';
import { closedAfterEach } from '@test/support/backup/closing';
import { osKeyStore } from '@test/support/security/os-key-store';
import { createVisit } from '@test/support/sync/visits';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const clock = { now: () => new Date('2026-11-26T12:00:00.000Z') };
const { tempDir, keep } = closedAfterEach();

function filesOf(dataDir: string): Record<string, string> {
  const names = [keyFilePaths(dataDir).wrapped, keyFilePaths(dataDir).plain, recoveryFilePath(dataDir), path.join(dataDir, 'coverdesk.sqlite')];
  return Object.fromEntries(names.map((file) => [path.basename(file), fs.existsSync(file) ? createHash('sha256').update(fs.readFileSync(file)).digest('hex') : 'missing']));
}

async function reason(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(RecoveryCodeError);
    return `${(error as RecoveryCodeError).reason}: ${(error as Error).message}`;
  }
  throw new Error('not refused');
}

describe('A desk whose OS key store lost its key', () => {
  it('asks for the recovery code, opens with it, keeps the key in the store again, and every record made before is there', async () => {
    const dataDir = tempDir('coverdesk-recovery-');
    const store = osKeyStore();
    const first = await openDeskKey({ protector: store, platform: 'linux' }, { dataDir });
    if (first.state !== 'open') throw new Error('a new desk opens');
    const host = createHost({ dataDir, encryptionKey: first.key, localApi: false, hotFolder: false });
    for (let n = 0; n < 3; n++) await createVisit(host, n);
    const before = (await host.bridge['patients.list']({ limit: 100 })).data.map((p) => p.id).sort();
    const { code } = makeRecoveryCode({ clock, scrypt: FAST }, { dataDir, key: first.key });
    await host.close();

    store.forget();
    const lost = await openDeskKey({ protector: store, platform: 'linux' }, { dataDir });
    expect(lost.state).toBe('needs_recovery_code');

    // Refused, each with its own words, and nothing in the folder changed.
    const untouched = filesOf(dataDir);
    const deps = { protector: store, platform: 'linux' as const, clock };
    expect(await reason(() => recoverDeskKey(deps, { dataDir, code: newRecoveryCode() }))).toMatch(/^wrong: .*not the one on this desk/);
    const typo = code.slice(0, -1) + (code.at(-1) === 'A' ? 'B' : 'A');
    expect(await reason(() => recoverDeskKey(deps, { dataDir, code: typo }))).toMatch(/^mistyped: .*typo/);
    expect(filesOf(dataDir)).toEqual(untouched);

    const key = await recoverDeskKey(deps, { dataDir, code: code.toLowerCase().replace(/-/g, ' ') });
    expect(key.equals(first.key)).toBe(true);
    // Re-wrapped for the OS: the next start opens without the code.
    const reopened = await openDeskKey({ protector: store, platform: 'linux' }, { dataDir });
    expect(reopened.state === 'open' && reopened.key.equals(first.key)).toBe(true);
    const after = keep(createHost({ dataDir, encryptionKey: key, localApi: false, hotFolder: false }));
    expect((await after.bridge['patients.list']({ limit: 100 })).data.map((p) => p.id).sort()).toEqual(before);
    const unsent = after.database.sqlite.prepare("SELECT count(*) AS n FROM outbox WHERE state != 'synced'").get() as { n: number };
    expect(unsent.n).toBeGreaterThan(0);

    // The code was used: lost again, it is refused, and nothing changes.
    store.forget();
    const usedUntouched = filesOf(dataDir);
    expect(await reason(() => recoverDeskKey(deps, { dataDir, code }))).toMatch(/^used: .*already used/);
    expect(filesOf(dataDir)).toEqual(usedUntouched);
  });

  it('a wrapped key file that is gone asks for the code too; with no recovery wrap it stays the error it was', async () => {
    const dataDir = tempDir('coverdesk-recovery-gone-');
    const store = osKeyStore();
    const first = await openDeskKey({ protector: store, platform: 'linux' }, { dataDir });
    if (first.state !== 'open') throw new Error('a new desk opens');
    await keep(createHost({ dataDir, encryptionKey: first.key, localApi: false, hotFolder: false })).close();
    fs.rmSync(keyFilePaths(dataDir).wrapped);
    await expect(openDeskKey({ protector: store, platform: 'linux' }, { dataDir })).rejects.toThrow(/its key \(database.key.safe\) is missing/);
    makeRecoveryCode({ clock, scrypt: FAST }, { dataDir, key: first.key });
    expect((await openDeskKey({ protector: store, platform: 'linux' }, { dataDir })).state).toBe('needs_recovery_code');
  });
});
