import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyFilePaths } from '@src/main/db/database-key';
import { createHost } from '@src/main/host/create-host';
import { startDeskKey, type RecoveryCodePrompt } from '@src/main/security/desk-key-start';
import { makeRecoveryCode, newRecoveryCode, recoveryStatus } from '@src/main/security/recovery-code';
import { closedAfterEach } from '@test/support/backup/closing';
import { osKeyStore } from '@test/support/security/os-key-store';
import { createVisit } from '@test/support/sync/visits';

/**
 * The desktop app's start (issue 28, item 5): `startDeskKey` is what `src/main/index.ts` runs
 * before the desk opens, with the OS key store as its seam and the recovery screen as its
 * question. Here the store forgets (a Windows password reset), the screen is a script of the
 * codes a person types, and the database is a real encrypted SQLite file.
 */
const FAST = { N: 2 ** 10, r: 8, p: 1 };
const clock = { now: () => new Date('2026-11-26T12:00:00.000Z') };
const { tempDir, keep } = closedAfterEach();

function filesOf(dataDir: string): Record<string, string> {
  const names = [keyFilePaths(dataDir).wrapped, keyFilePaths(dataDir).plain, path.join(dataDir, 'database.key.recovery'), path.join(dataDir, 'coverdesk.sqlite')];
  return Object.fromEntries(names.map((file) => [path.basename(file), fs.existsSync(file) ? createHash('sha256').update(fs.readFileSync(file)).digest('hex') : 'missing']));
}

/** A person at the screen typing `codes` in turn (null: closes it); every prompt is kept. */
function typist(codes: (string | null)[]) {
  const prompts: RecoveryCodePrompt[] = [];
  return {
    prompts,
    ask: async (prompt: RecoveryCodePrompt) => {
      prompts.push(prompt);
      if (codes.length === 0) throw new Error('asked once more than the script');
      return codes.shift()!;
    },
  };
}

/** A desk with three visits, a recovery code, and a key store that has since forgotten. */
async function deskWhoseStoreForgot() {
  const dataDir = tempDir('coverdesk-desk-start-');
  const store = osKeyStore();
  const first = await startDeskKey({ protector: store, platform: 'linux', clock, askRecoveryCode: typist([]).ask }, { dataDir });
  if (first === null || first.recovered) throw new Error('a new desk opens without asking');
  const host = createHost({ dataDir, encryptionKey: first.key, localApi: false, hotFolder: false });
  for (let n = 0; n < 3; n++) await createVisit(host, n);
  const patients = (await host.bridge['patients.list']({ limit: 100 })).data.map((p) => p.id).sort();
  const { code } = makeRecoveryCode({ clock, scrypt: FAST }, { dataDir, key: first.key });
  await host.close();
  store.forget();
  return { dataDir, store, key: first.key, patients, code };
}

describe('the desktop app’s start when the OS key store lost the key', () => {
  it('asks on one screen, shows each refusal (mistyped, wrong) for another try with nothing changed, then opens every record with the right code and keeps the key again', async () => {
    const { dataDir, store, key, patients, code } = await deskWhoseStoreForgot();
    const before = filesOf(dataDir);
    const typo = code.slice(0, -1) + (code.at(-1) === 'A' ? 'B' : 'A');
    const person = typist(['', typo, newRecoveryCode(), code]);
    const opened = await startDeskKey({ protector: store, platform: 'linux', clock, askRecoveryCode: person.ask }, { dataDir });

    expect(opened?.recovered).toBe(true);
    expect(opened?.key.equals(key)).toBe(true);
    expect(person.prompts.map((p) => p.error)).toEqual([
      null,
      expect.stringMatching(/^The recovery code must be the 24 letters and digits/),
      expect.stringMatching(/^The recovery code has a typo/),
      expect.stringMatching(/^That recovery code does not open this desk/),
    ]);
    expect(person.prompts[0]).toMatchObject({ error: null, message: expect.stringContaining('no longer in this computer’s key store') });
    for (const prompt of person.prompts.slice(1)) expect(prompt.error).toMatch(/Nothing was changed\.$/);
    // The code is spent; the key is wrapped for the OS again, so the next start asks nothing.
    expect(recoveryStatus(dataDir).used_at).toBe(clock.now().toISOString());
    expect(filesOf(dataDir)['database.key.safe']).not.toBe(before['database.key.safe']);
    const next = await startDeskKey({ protector: store, platform: 'linux', clock, askRecoveryCode: typist([]).ask }, { dataDir });
    expect(next?.recovered).toBe(false);
    expect(next?.key.equals(key)).toBe(true);

    const desk = keep(createHost({ dataDir, encryptionKey: opened!.key, localApi: false, hotFolder: false }));
    expect((await desk.bridge['patients.list']({ limit: 100 })).data.map((p) => p.id).sort()).toEqual(patients);
    const unsent = desk.database.sqlite.prepare("SELECT count(*) AS n FROM outbox WHERE state != 'synced'").get() as { n: number };
    expect(unsent.n).toBeGreaterThan(0);
  });

  it('a used code is refused with its reason, and closing the screen gives up with nothing changed', async () => {
    const { dataDir, store, code } = await deskWhoseStoreForgot();
    const opened = await startDeskKey({ protector: store, platform: 'linux', clock, askRecoveryCode: typist([code]).ask }, { dataDir });
    expect(opened?.recovered).toBe(true);

    store.forget();
    const before = filesOf(dataDir);
    const person = typist([code, null]);
    expect(await startDeskKey({ protector: store, platform: 'linux', clock, askRecoveryCode: person.ask }, { dataDir })).toBeNull();
    expect(person.prompts).toHaveLength(2);
    expect(person.prompts[1].error).toMatch(/already used .*Nothing was changed\./);
    expect(filesOf(dataDir)).toEqual(before);
  });

  it('a desk with no recovery code made is not asked for one: the key store’s error stands', async () => {
    const dataDir = tempDir('coverdesk-desk-start-none-');
    const store = osKeyStore();
    const first = await startDeskKey({ protector: store, platform: 'linux', clock, askRecoveryCode: typist([]).ask }, { dataDir });
    await keep(createHost({ dataDir, encryptionKey: first!.key, localApi: false, hotFolder: false })).close();
    store.forget();
    const person = typist([]);
    await expect(startDeskKey({ protector: store, platform: 'linux', clock, askRecoveryCode: person.ask }, { dataDir })).rejects.toThrow();
    expect(person.prompts).toHaveLength(0);
  });
});
