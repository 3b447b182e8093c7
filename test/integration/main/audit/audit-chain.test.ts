import Database from 'better-sqlite3-multiple-ciphers';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import { verifyDatabaseFile } from '@src/main/audit/verify-database-file';
import { applyDatabaseKey } from '@src/main/db/database-cipher';
import { keyFilePaths, readOrCreateKeyFile } from '@src/main/db/database-key';
import { hostPaths } from '@src/main/host/create-host';
import type { AuditVerification } from '@src/shared/bridge/security-contract';
import { CANARY_MEMBER_ID, CANARY_PATIENT, CANARY_STRINGS } from '@test/support/canary-phi';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';

let fx: HostFixture;
beforeEach(() => {
  fx = startTestHost({ actor: 'frontdesk1', localApi: false, hotFolder: false });
});
afterEach(async () => {
  await fx.cleanup();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each bridge method answers its own shape; the tests assert the fields they read
async function ok(method: string, input: unknown): Promise<any> {
  const result = await dispatchBridgeCall(fx.host.bridge, method, input);
  if (!result.ok) throw new Error(`${method}: ${JSON.stringify(result.error)}`);
  return result.value;
}
const verify = (): Promise<AuditVerification> => ok('audit.verify', {});
const fromOutside = () => {
  const keys = keyFilePaths(fx.dataDir);
  return verifyDatabaseFile({ database: hostPaths(fx.dataDir).database, keyFile: keys.plain, wrappedKeyFile: keys.wrapped });
};

/** Five creates and two views through the desk's bridge: entries #1 to #7. */
async function aRealRun(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const patient = await ok('patients.create', { ...CANARY_PATIENT, first_name: `${CANARY_PATIENT.first_name}${'abc'[i]}` });
    await ok('patients.get', { id: patient.id });
    if (i < 2) await ok('cards.create', { patient_id: patient.id, member_id: CANARY_MEMBER_ID });
  }
}

/**
 * Tampering as someone with the key and a SQLite tool would: a second connection opened with
 * the data folder's key, the append-only triggers dropped (they are the first line; the
 * chain is what catches whoever gets past them).
 */
function tamper(sql: string, ...params: unknown[]): void {
  const raw = new Database(hostPaths(fx.dataDir).database);
  try {
    applyDatabaseKey(raw, readOrCreateKeyFile({ file: keyFilePaths(fx.dataDir).plain, mayCreate: false }));
    raw.exec('DROP TRIGGER IF EXISTS audit_log_no_update; DROP TRIGGER IF EXISTS audit_log_no_delete;');
    raw.prepare(sql).run(...params);
  } finally {
    raw.close();
  }
}

describe('the audit chain', () => {
  it('reports intact, with the count, after a real run of creates through the host, in the app and from the data folder', async () => {
    await aRealRun();
    const count = (fx.host.database.sqlite.prepare('SELECT count(*) AS n FROM audit_log').get() as { n: number }).n;
    expect(count).toBe(8);
    expect(await verify()).toEqual({ intact: true, count: 8, message: 'Intact: all 8 entries match their seals, in order, none missing.' });
    expect(fromOutside()).toMatchObject({ intact: true, count: 8 });
    // Every entry carries its own seal, and no two are alike.
    const hashes = fx.host.database.sqlite.prepare('SELECT hash FROM audit_log').pluck().all() as string[];
    expect(new Set(hashes).size).toBe(8);
    expect(hashes.every((h) => /^[0-9a-f]{64}$/.test(h))).toBe(true);
  });

  it('names an entry changed after it was written, by number and position, and says the ones before are intact', async () => {
    await aRealRun();
    tamper("UPDATE audit_log SET actor = 'someone else' WHERE seq = 3");
    const found = await verify();
    expect(found).toMatchObject({ intact: false, problem: 'changed', seq: 3, position: 3, count: 2 });
    expect(found.message).toBe('Not intact: entry #3 (position 3 in the log) was changed after it was written: it no longer matches its seal. The 2 entries before it are intact.');
    expect(fromOutside()).toEqual(found);
  });

  it('names an entry removed from the middle, and the newest entry removed', async () => {
    await aRealRun();
    tamper('DELETE FROM audit_log WHERE seq = 5');
    expect(await verify()).toMatchObject({ intact: false, problem: 'removed', seq: 5, position: 5, count: 4 });
    expect((await verify()).message).toMatch(/^Not intact: entry #5 was removed \(position 5 in the log, just before entry #6\)/);
    await fx.cleanup();

    fx = startTestHost({ actor: 'frontdesk1', localApi: false, hotFolder: false });
    await aRealRun();
    tamper('DELETE FROM audit_log WHERE seq >= 7');
    const tail = await verify();
    expect(tail).toMatchObject({ intact: false, problem: 'removed', seq: 7, position: 7, count: 6 });
    expect(tail.message).toMatch(/^Not intact: the newest entries \(#7 to #8\) were removed/);
    // Writing on does not hide it: the next entry takes #9, never a removed number.
    await ok('patients.create', CANARY_PATIENT);
    expect(await verify()).toMatchObject({ intact: false, problem: 'removed', seq: 7, position: 7 });
  });

  it('names an entry inserted outside Coverdesk: at the end with no seal, or in the middle with the rest renumbered', async () => {
    await aRealRun();
    tamper("INSERT INTO audit_log (at, actor, action, record_id) VALUES ('2026-01-01T00:00:00.000Z', 'frontdesk1', 'view', 'pat_01JAAAAAAAAAAAAAAAAAAAAAAA')");
    expect(await verify()).toMatchObject({ intact: false, problem: 'inserted', seq: 9, position: 9, count: 8 });
    await fx.cleanup();

    fx = startTestHost({ actor: 'frontdesk1', localApi: false, hotFolder: false });
    await aRealRun();
    // Make room at #4 (from the top down, so no number is taken twice), then slip one in with a seal copied from another entry.
    for (let seq = 8; seq >= 4; seq--) tamper('UPDATE audit_log SET seq = seq + 1 WHERE seq = ?', seq);
    tamper("INSERT INTO audit_log (seq, at, actor, action, record_id, hash) SELECT 4, at, actor, 'view', record_id, hash FROM audit_log WHERE seq = 3");
    const found = await verify();
    expect(found).toMatchObject({ intact: false, problem: 'inserted', seq: 4, position: 4, count: 3 });
    expect(found.message).toBe('Not intact: entry #4 (position 4 in the log) was inserted: the entries around it were chained without it.');
  });

  it('seals the entries from before the chain once at start (the checkpoint) and covers them from then on', async () => {
    // A log as an older Coverdesk left it: entries without seals.
    for (let i = 0; i < 3; i++) {
      fx.host.database.sqlite.prepare("INSERT INTO audit_log (at, actor, action, record_id) VALUES (?, 'frontdesk1', 'view', 'pat_01JAAAAAAAAAAAAAAAAAAAAAAA')").run(`2026-01-0${i + 1}T00:00:00.000Z`);
    }
    expect((await verify()).intact).toBe(false);
    fx.reopen();
    expect(await verify()).toMatchObject({ intact: true, count: 3 });
    await ok('patients.create', CANARY_PATIENT);
    expect(await verify()).toMatchObject({ intact: true, count: 4 });
    tamper("UPDATE audit_log SET at = '2026-02-01T00:00:00.000Z' WHERE seq = 2");
    expect(await verify()).toMatchObject({ intact: false, problem: 'changed', seq: 2 });
    // A bare entry written around Coverdesk after the chain began is never sealed by a restart.
    fx.reopen();
    expect(await verify()).toMatchObject({ intact: false, problem: 'changed', seq: 2 });
  });

  it('the database still refuses UPDATE and DELETE; the one update it allows is sealing an unsealed entry, its content untouched', async () => {
    await aRealRun();
    const sqlite = fx.host.database.sqlite;
    expect(() => sqlite.prepare('UPDATE audit_log SET hash = NULL WHERE seq = 1').run()).toThrow(/append-only/);
    expect(() => sqlite.prepare("UPDATE audit_log SET hash = 'x' WHERE seq = 1").run()).toThrow(/append-only/);
    expect(() => sqlite.prepare("UPDATE audit_log SET actor = 'someone else' WHERE seq = 1").run()).toThrow(/append-only/);
    expect(() => sqlite.prepare('DELETE FROM audit_log WHERE seq = 8').run()).toThrow(/append-only/);
    // An unsealed entry (as from before the chain) may be sealed, but not rewritten while at it.
    sqlite.prepare("INSERT INTO audit_log (at, actor, action, record_id) VALUES ('2026-01-01T00:00:00.000Z', 'frontdesk1', 'view', 'pat_01JAAAAAAAAAAAAAAAAAAAAAAA')").run();
    expect(() => sqlite.prepare("UPDATE audit_log SET hash = 'x', actor = 'someone else' WHERE seq = 9").run()).toThrow(/append-only/);
    expect(() => sqlite.prepare("UPDATE audit_log SET hash = 'x', at = '2026-02-01T00:00:00.000Z' WHERE seq = 9").run()).toThrow(/append-only/);
    expect(await verify()).toMatchObject({ intact: false, problem: 'inserted', seq: 9 });
  });

  it('keeps PHI out of what it says', async () => {
    await aRealRun();
    tamper("UPDATE audit_log SET actor = 'x' WHERE seq = 1");
    const text = JSON.stringify(await verify());
    for (const phi of CANARY_STRINGS) expect(text).not.toContain(phi);
  });

  it('npm run audit:verify prints intact (exit 0), the broken entry (exit 1), or why it could not check (exit 2)', async () => {
    await aRealRun();
    const script = path.resolve('scripts/audit-verify.ts');
    const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { encoding: 'utf8' });
    const intact = run('--data-dir', fx.dataDir);
    expect([intact.status, intact.stdout.trim()]).toEqual([0, 'Intact: all 8 entries match their seals, in order, none missing.']);
    tamper('DELETE FROM audit_log WHERE seq = 2');
    const broken = run('--data-dir', fx.dataDir);
    expect(broken.status).toBe(1);
    expect(broken.stderr).toMatch(/^Not intact: entry #2 was removed/);
    const nowhere = run('--data-dir', path.join(fx.dataDir, 'nothing-here'));
    expect(nowhere.status).toBe(2);
    expect(nowhere.stderr).toMatch(/There is no Coverdesk database at/);
    expect(run().status).toBe(2);
  });
});
