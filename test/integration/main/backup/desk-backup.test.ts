import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BackupError, createBackup, deskIdentity, listBackups, MANIFEST, type BackupDeps } from '@src/main/backup/desk-backup';
import { practiceOfFolder, restoreBackup, type RestoreDeps } from '@src/main/backup/desk-restore';
import { databaseFileState } from '@src/main/db/database-cipher';
import { keyFilePaths, readOrCreateKeyFile } from '@src/main/db/database-key';
import { createHost, hostPaths, type Host } from '@src/main/host/create-host';
import { snapshotDatabase } from '@test/support/db-snapshot';
import { createVisit } from '@test/support/sync/visits';
import { closedAfterEach } from '@test/support/backup/closing';

const { tempDir, keep } = closedAfterEach();

async function deskWithVisits(visits: number): Promise<Host> {
  const host = createHost({ dataDir: tempDir('coverdesk-desk-'), localApi: false, hotFolder: false });
  keep(host);
  for (let n = 0; n < visits; n++) await createVisit(host, n);
  return host;
}

let tick = 0;
function deps(host: Host, overrides: Partial<BackupDeps> = {}): BackupDeps {
  // Each backup its own second: the folder names sort by time.
  return { clock: { now: () => new Date(Date.UTC(2026, 10, 26, 12, 0, tick++)) }, key: keyOf(host.dataDir), version: '0.1.0', ...overrides };
}
const restoreDeps: RestoreDeps = { version: '0.1.0', now: () => new Date() };

function keyOf(dataDir: string): Buffer {
  return readOrCreateKeyFile({ file: keyFilePaths(dataDir).plain, mayCreate: false });
}

function backup(host: Host, to: string, overrides: Partial<BackupDeps> = {}, keep = 5) {
  const identity = deskIdentity(host.database.sqlite);
  return createBackup(deps(host, overrides), { files: hostPaths(host.dataDir), identity, to, keep });
}

function restoreInto(dataDir: string, from: string, key: Buffer) {
  const paths = hostPaths(dataDir);
  const ownKeyFile = keyFilePaths(dataDir).plain;
  const ownKey = fs.existsSync(ownKeyFile) ? keyOf(dataDir) : null;
  return restoreBackup(restoreDeps, { from, key, target: { ...paths, dataDir, keyFile: ownKeyFile }, targetPracticeId: practiceOfFolder(paths.database, ownKey) });
}

/** Every table's rows (ids), and the photo files: what "nothing lost" is measured on. */
function contents(host: Host) {
  const outboxIds = (host.database.sqlite.prepare('SELECT id FROM outbox ORDER BY id').all() as { id: string }[]).map((row) => row.id);
  return { ...snapshotDatabase(host.database.sqlite, hostPaths(host.dataDir).photos), outboxIds };
}

/** The folder's files; SQLite's own -wal/-shm, which merely opening a database to read it makes, aside. */
function filesOf(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => !/-(wal|shm)$/.test(f)).sort() : [];
}

describe('backups (issue 29, item 3)', () => {
  it('writes an encrypted, verified backup with a manifest, and a new data folder restored from it holds the same records and photos', async () => {
    const desk = await deskWithVisits(4);
    const to = tempDir('coverdesk-backups-');
    const made = await backup(desk, to);

    expect(path.basename(made.folder)).toMatch(/^coverdesk-backup-2026-11-26T12-00-\d\d-000Z$/);
    // The copy is encrypted with the desk's key (VACUUM INTO keeps the cipher), never plaintext.
    expect(databaseFileState(path.join(made.folder, 'coverdesk.sqlite'))).toBe('encrypted');
    const { manifest } = made;
    expect(manifest).toMatchObject({ format: 1, coverdesk_version: '0.1.0', practice_id: expect.stringMatching(/^prac_/), desk_id: expect.stringMatching(/^desk_/) });
    expect(manifest.schema.last).toMatch(/^\d{4}_/);
    expect(manifest.counts.patients).toBe(4);
    expect(manifest.counts.outbox).toBe((desk.database.sqlite.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n);
    const photoFiles = fs.readdirSync(hostPaths(desk.dataDir).photos);
    expect(Object.keys(manifest.files).filter((f) => f.startsWith('photos/'))).toHaveLength(photoFiles.length);
    expect(photoFiles.length).toBe(8);

    const before = contents(desk);
    const target = tempDir('coverdesk-new-computer-');
    await restoreInto(target, made.folder, keyOf(desk.dataDir));
    const restored = createHost({ dataDir: target, localApi: false, hotFolder: false });
    keep(restored);
    expect(contents(restored)).toEqual(before);
    // Records lost: 0. The photos open with the restored key.
    const card = restored.database.sqlite.prepare('SELECT front_photo_object_key AS key FROM insurance_cards LIMIT 1').get() as { key: string };
    await expect(restored.service.readPhoto(card.key)).resolves.toMatchObject({ content_type: 'image/png' });
  });

  it('keeps the last K backups and removes older ones only after a new one is verified', async () => {
    const desk = await deskWithVisits(1);
    const to = tempDir('coverdesk-backups-');
    const first = await backup(desk, to, {}, 2);
    const second = await backup(desk, to, {}, 2);
    const third = await backup(desk, to, {}, 2);
    expect(third.removed).toEqual([first.folder]);
    expect(listBackups(to)).toEqual([third.folder, second.folder]);
  });

  it('a backup folder that disappears mid-backup: a clear refusal, no backup left behind, nothing on the desk changed', async () => {
    const desk = await deskWithVisits(2);
    const parent = tempDir('coverdesk-usb-');
    const to = path.join(parent, 'usb-disk');
    fs.mkdirSync(to);
    deskIdentity(desk.database.sqlite);
    const before = contents(desk);
    const failing = backup(desk, to, { onStep: (step) => step === 'database' && fs.rmSync(to, { recursive: true, force: true }) });
    await expect(failing).rejects.toThrow(BackupError);
    await expect(failing).rejects.toMatchObject({ reason: 'folder_unavailable', message: expect.stringContaining(`The backup folder ${to} could not be written`) });
    expect(contents(desk)).toEqual(before);
    expect(fs.existsSync(to)).toBe(false);

    // The folder back: the next backup works, and no half backup from before counts as one.
    fs.mkdirSync(to);
    const again = await backup(desk, to);
    expect(listBackups(to)).toEqual([again.folder]);
  });

  it('a backup folder that fills mid-backup (a photo that does not fit): a refusal saying to free space there, no backup left behind, nothing on the desk changed', async () => {
    const desk = await deskWithVisits(2);
    const to = tempDir('coverdesk-usb-full-');
    deskIdentity(desk.database.sqlite);
    const before = contents(desk);
    expect(fs.readdirSync(hostPaths(desk.dataDir).photos).length).toBeGreaterThan(0);
    // As a full disk does: part of the file written, then ENOSPC.
    const full = async (from: string, target: string) => {
      fs.writeFileSync(target, fs.readFileSync(from).subarray(0, 100));
      throw Object.assign(new Error('ENOSPC: no space left on device, copyfile'), { code: 'ENOSPC' });
    };
    const failing = backup(desk, to, { copyFile: full });
    await expect(failing).rejects.toMatchObject({
      reason: 'folder_unavailable',
      message: expect.stringMatching(new RegExp(`^The backup folder ${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is full \\(ENOSPC\\).*free some space there`)),
    });
    expect(contents(desk)).toEqual(before);
    // Nothing of the attempt stays: no partial folder taking the space, no backup listed.
    expect(fs.readdirSync(to)).toEqual([]);
    expect((await backup(desk, to)).folder).toBe(listBackups(to)[0]);
  });

  it('refuses a tampered backup (a changed photo, a changed manifest) and leaves the folder it would restore into as it was', async () => {
    const desk = await deskWithVisits(2);
    const to = tempDir('coverdesk-backups-');
    const made = await backup(desk, to);
    const key = keyOf(desk.dataDir);
    const target = tempDir('coverdesk-target-');

    const photo = Object.keys(made.manifest.files).find((f) => f.startsWith('photos/'))!;
    const photoFile = path.join(made.folder, photo);
    const original = fs.readFileSync(photoFile);
    const changed = Buffer.from(original);
    changed[changed.length - 1] ^= 0xff;
    fs.writeFileSync(photoFile, changed);
    await expect(restoreInto(target, made.folder, key)).rejects.toMatchObject({ reason: 'tampered', message: expect.stringContaining(`${photo} does not match its hash`) });
    expect(filesOf(target)).toEqual([]);
    fs.writeFileSync(photoFile, original);

    const manifestFile = path.join(made.folder, MANIFEST);
    const sealed = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { manifest: { counts: Record<string, number> } };
    sealed.manifest.counts.patients = 99;
    fs.writeFileSync(manifestFile, JSON.stringify(sealed));
    await expect(restoreInto(target, made.folder, key)).rejects.toMatchObject({ reason: 'wrong_key' });
    expect(filesOf(target)).toEqual([]);
  });

  it('refuses a backup from another practice over this desk, and one from a newer Coverdesk, naming both versions; the desk is untouched', async () => {
    const other = await deskWithVisits(1);
    const to = tempDir('coverdesk-backups-');
    const fromOther = await backup(other, to);

    const desk = await deskWithVisits(2);
    deskIdentity(desk.database.sqlite);
    const before = contents(desk);
    await desk.close();
    const filesBefore = filesOf(desk.dataDir);
    await expect(restoreInto(desk.dataDir, fromOther.folder, keyOf(other.dataDir))).rejects.toMatchObject({
      reason: 'other_practice',
      message: expect.stringContaining('This backup is from another practice'),
    });
    expect(filesOf(desk.dataDir)).toEqual(filesBefore);

    const reopened = createHost({ dataDir: desk.dataDir, localApi: false, hotFolder: false });
    keep(reopened);
    const newer = await backup(reopened, to, { version: '9.2.0' });
    await reopened.close();
    await expect(restoreInto(desk.dataDir, newer.folder, keyOf(desk.dataDir))).rejects.toMatchObject({
      reason: 'newer_version',
      message: expect.stringMatching(/newer Coverdesk \(9\.2\.0, schema \d{4}_\w+\); this is Coverdesk 0\.1\.0/),
    });
    expect(filesOf(desk.dataDir)).toEqual(filesBefore);
    const again = createHost({ dataDir: desk.dataDir, localApi: false, hotFolder: false });
    keep(again);
    expect(contents(again)).toEqual(before);
  });

  it("restoring this practice's backup over its own desk keeps the desk's files aside", async () => {
    const desk = await deskWithVisits(1);
    const to = tempDir('coverdesk-backups-');
    const made = await backup(desk, to);
    const atBackup = contents(desk);
    await createVisit(desk, 7);
    await desk.close();
    const { previous } = await restoreInto(desk.dataDir, made.folder, keyOf(desk.dataDir));
    expect(previous).toMatch(/\.restore-previous-/);
    expect(fs.existsSync(path.join(previous!, 'coverdesk.sqlite'))).toBe(true);
    const restored = createHost({ dataDir: desk.dataDir, localApi: false, hotFolder: false });
    keep(restored);
    expect(contents(restored)).toEqual(atBackup);
  });
});
