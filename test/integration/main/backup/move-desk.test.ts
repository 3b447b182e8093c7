import { describe, expect, it } from 'vitest';
import { createBackup, deskIdentity } from '@src/main/backup/desk-backup';
import { practiceOfFolder, restoreBackup } from '@src/main/backup/desk-restore';
import { keyFilePaths, readOrCreateKeyFile } from '@src/main/db/database-key';
import { createHost, hostPaths } from '@src/main/host/create-host';
import type { Sandbox } from '@src/main/sandbox/start-sandbox';
import { closeAfterEach, createVisit, SANDBOX_KEY, startSyncHost, startUpstream, waitFor, waitForDrained, type SyncHostFixture } from '@test/support/sync/sync-harness';
import { makeTempDir } from '@test/support/temp-dir';

/**
 * "Move this desk" (issue 29, item 4): the old desk's newest backup restored on a new data
 * folder; the new desk sends what the old one had not (same Idempotency-Keys: the outbox
 * entry ids) and pulls what the practice made since. The old desk coming back and sending
 * the same entries too makes no second record upstream.
 */
let upstream: Sandbox | undefined;
let fixtures: SyncHostFixture[] = [];
const temps: { cleanup(): void }[] = [];
closeAfterEach(
  () => fixtures,
  () => upstream,
  () => ({ close: () => temps.splice(0).forEach((t) => t.cleanup()) }),
);

function tempDir(prefix: string): string {
  const temp = makeTempDir(prefix);
  temps.push(temp);
  return temp.dir;
}

const count = (sqlite: { prepare(sql: string): { get(): unknown } }, table: string) => (sqlite.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;

describe('Move this desk', () => {
  it('restores the newest backup on a new folder: unsent records sent once (0 duplicates, even when the old desk sends them too), and what the practice made since is pulled', async () => {
    fixtures = [];
    upstream = await startUpstream(0, { delayMs: 20 });
    const oldDir = tempDir('coverdesk-old-desk-');
    // The old desk: two visits sent, then three made offline (its host not started: nothing sent).
    const online = await startSyncHost(upstream.url, { dataDir: oldDir });
    for (let n = 0; n < 2; n++) await createVisit(online.host, n);
    await waitForDrained(online);
    await online.close();
    const offline = createHost({ dataDir: oldDir, upstream: { url: upstream.url, apiKey: SANDBOX_KEY }, localApi: false, hotFolder: false });
    for (let n = 2; n < 5; n++) await createVisit(offline, n);
    const unsent = (offline.database.sqlite.prepare("SELECT count(*) AS n FROM outbox WHERE state != 'synced'").get() as { n: number }).n;
    expect(unsent).toBeGreaterThan(0);
    const backups = tempDir('coverdesk-share-');
    const key = readOrCreateKeyFile({ file: keyFilePaths(oldDir).plain, mayCreate: false });
    const made = await createBackup(
      { clock: { now: () => new Date() }, key, version: '0.1.0' },
      { files: hostPaths(oldDir), identity: deskIdentity(offline.database.sqlite), to: backups, keep: 3 },
    );
    await offline.close();

    // Meanwhile another desk of the practice registers a patient.
    const other = await startSyncHost(upstream.url);
    fixtures.push(other);
    await createVisit(other.host, 40, { memberId: 'MOVED0040' });
    await waitForDrained(other);

    // The new computer: an empty data folder, the backup and the old desk's key.
    const newDir = tempDir('coverdesk-new-desk-');
    await restoreBackup(
      { version: '0.1.0', now: () => new Date() },
      { from: made.folder, key, target: { ...hostPaths(newDir), dataDir: newDir, keyFile: keyFilePaths(newDir).plain }, targetPracticeId: practiceOfFolder(hostPaths(newDir).database, null) },
    );
    const moved = await startSyncHost(upstream.url, { dataDir: newDir, sync: { pullIntervalMs: 300 } });
    fixtures.push(moved);
    await waitForDrained(moved);
    await waitFor('the practice pull to bring the other desk’s card', async () => (await moved.host.bridge['cards.list']({ limit: 100 })).data.some((c) => c.member_id === 'MOVED0040'));

    // The old desk comes back once and sends its unsent entries too: the upstream replays, no second record.
    const oldBack = await startSyncHost(upstream.url, { dataDir: oldDir });
    fixtures.push(oldBack);
    await waitForDrained(oldBack);

    const upstreamDb = upstream.database.sqlite;
    const figures = {
      patients: count(upstreamDb, 'patients'),
      cards: count(upstreamDb, 'insurance_cards'),
      checks: count(upstreamDb, 'electronic_eligibility_checks'),
    };
    // 5 visits of the moved desk and 1 of the other desk: one patient, one card and one check each.
    expect(figures).toEqual({ patients: 6, cards: 6, checks: 6 });
    // The old desk and the moved one name the same upstream records for the same entries.
    const sent = (sqlite: typeof upstreamDb) => sqlite.prepare("SELECT id, remote_id FROM patients WHERE id IN (SELECT record_id FROM outbox) ORDER BY id").all();
    expect(sent(oldBack.host.database.sqlite)).toEqual(sent(moved.host.database.sqlite));
    console.log(`move desk: ${JSON.stringify({ unsentAtBackup: unsent, upstream: figures, recordsLost: 0, recordsDuplicated: figures.patients - 6 })}`);
  }, 120_000);
});
