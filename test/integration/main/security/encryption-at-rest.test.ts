import Database from 'better-sqlite3-multiple-ciphers';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { groupCommitFor } from '@src/main/db/group-commit';
import { openDatabase } from '@src/main/db/open-database';
import { createHost, hostPaths, type Host } from '@src/main/host/create-host';
import { createLocalService } from '@src/main/operations/local-service';
import { createPhotoStore } from '@src/main/photos/photo-store';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { databaseFileState, rekeyDatabase, WrongDatabaseKeyError } from '@src/main/db/database-cipher';
import { DatabaseKeyError, keyFilePaths, newDatabaseKey } from '@src/main/db/database-key';
import { findPlaintext } from '@src/main/security/plaintext-scan';
import { systemClock } from '@src/main/support/clock';
import { createIdGenerator } from '@src/main/support/ids';
import type { CallContext, V1Service } from '@src/shared/contract';
import { CANARY_MEMBER_ID, CANARY_PATIENT, CANARY_STRINGS } from '@test/support/canary-phi';
import { makePng } from '@test/support/images';
import { FAST_POLICY, waitForDrained } from '@test/support/sync/sync-harness';
import { makeTempDir } from '@test/support/temp-dir';

const DESK: CallContext = { source: 'dashboard' };
const SQLITE_HEADER = 'SQLite format 3';
const open: Host[] = [];
const temps: { cleanup(): void }[] = [];

function tempDir(): string {
  const temp = makeTempDir('coverdesk-enc-');
  temps.push(temp);
  return temp.dir;
}
function host(dataDir: string, encryptionKey?: Buffer): Host {
  const h = createHost({ dataDir, encryptionKey, localApi: false, hotFolder: false });
  open.push(h);
  return h;
}
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
  temps.splice(0).forEach((t) => t.cleanup());
});

/** A canary patient with a card (front photo carrying the canary name), a discovery and a check. */
async function visit(service: V1Service, n = 0) {
  const patient = await service.create('patients', { ...CANARY_PATIENT, first_name: `${CANARY_PATIENT.first_name}${n || ''}` }, DESK);
  const photo = await service.uploadPhoto({ content_type: 'image/png', bytes: makePng(4, 4, [n % 256, 2, 3], { Comment: `${CANARY_PATIENT.last_name} ${CANARY_MEMBER_ID}` }) });
  const card = await service.create('insurance_cards', { patient_id: patient.id, member_id: CANARY_MEMBER_ID, front_photo_object_key: photo.object_key }, DESK);
  await service.create('electronic_eligibility_discoveries', { insurance_card_id: card.id, source: 'dashboard' }, DESK);
  await service.create(
    'electronic_eligibility_checks',
    { insurance_card_id: card.id, provider_id: SEED_PROVIDERS[0].id, clearinghouse_entity_id: SEED_CLEARINGHOUSE_ENTITIES[0].id, service_type: 'chiropractic' },
    DESK,
  );
  return { patient, photo, card };
}

/** Every row of every table, in a stable order: equal dumps mean every record survived. */
function dumpAll(sqlite: Database.Database): Record<string, unknown[]> {
  const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[];
  return Object.fromEntries(tables.map(({ name }) => [name, sqlite.prepare(`SELECT * FROM "${name}" ORDER BY 1`).all()]));
}

describe('encryption at rest', () => {
  it('keeps the database, its WAL and the photos free of plaintext while open and after closing', async () => {
    const dir = tempDir();
    const h = host(dir);
    const { photo } = await visit(h.service);
    const files = hostPaths(dir);
    const wal = `${files.database}-wal`;

    // While open, the records are in the WAL: it must be there, and as opaque as the file.
    expect(fs.statSync(wal).size).toBeGreaterThan(0);
    for (const file of [files.database, wal]) {
      expect(fs.readFileSync(file).subarray(0, 16).toString('latin1')).not.toContain(SQLITE_HEADER);
    }
    expect(findPlaintext([files.database, wal, files.photos], [SQLITE_HEADER, ...CANARY_STRINGS])).toEqual([]);
    const photoFile = path.join(files.photos, photo.object_key);
    expect(Buffer.from(fs.readFileSync(photoFile)).subarray(0, 8)).not.toEqual(Buffer.from(makePng().subarray(0, 8)));

    // The host still reads it all back.
    expect((await h.service.list('patients', {})).data[0].last_name).toBe(CANARY_PATIENT.last_name);
    expect(Buffer.from((await h.service.readPhoto(photo.object_key)).bytes).toString('latin1')).toContain(CANARY_MEMBER_ID);

    await h.close();
    // Nothing anywhere in the data folder, the key file and the token included.
    expect(findPlaintext([dir], [SQLITE_HEADER, ...CANARY_STRINGS])).toEqual([]);
    expect(databaseFileState(files.database)).toBe('encrypted');
  });

  it('keeps the whole data folder free of plaintext after syncing to the embedded sandbox', async () => {
    const dir = tempDir();
    const h = createHost({ dataDir: dir, localApi: false, hotFolder: false, sync: { policy: FAST_POLICY, timeoutMs: 2_000, sandboxDelayMs: 30 } });
    open.push(h);
    await h.start();
    await visit(h.service);
    await waitForDrained({ host: h });
    // In sandbox mode the desk's records, real patients included, are stored twice here.
    expect(fs.readdirSync(path.join(dir, 'sandbox')).length).toBeGreaterThan(0);
    await h.close();
    expect(findPlaintext([dir], [SQLITE_HEADER, ...CANARY_STRINGS])).toEqual([]);
  });

  // Linux shows a process's open files, deleted ones included, under /proc/self/fd.
  it.runIf(process.platform === 'linux')('writes no temp file while a group commits: the savepoint journal holds rows unencrypted', async () => {
    const dir = tempDir();
    const { db, sqlite, close } = openDatabase({ file: path.join(dir, 'db.sqlite'), key: newDatabaseKey() });
    try {
      const insert = sqlite.prepare('INSERT INTO patients (id, first_name, last_name, date_of_birth, created_at) VALUES (?, ?, ?, ?, ?)');
      sqlite.transaction(() => {
        for (let i = 0; i < 2000; i++) insert.run(`pat_${String(i).padStart(5, '0')}`, CANARY_PATIENT.first_name, CANARY_PATIENT.last_name, CANARY_PATIENT.date_of_birth, 'x');
      })();
      const openFile = (fd: string) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`);
        } catch {
          return ''; // closed since the listing (the listing's own descriptor)
        }
      };
      // SQLite names its temp files etilqs_* and unlinks them at once: only a descriptor shows one.
      const tempFiles = () => fs.readdirSync('/proc/self/fd').map(openFile).filter((target) => target.includes('etilqs_'));
      let seenInGroup: string[] | undefined;
      // A write in a group runs in a savepoint, which keeps each page it changes as it was
      // (here: every page of the canary rows); past 64 KiB SQLite moves that to a temp file
      // on disk (/var/tmp, %TEMP%), which SQLite3 Multiple Ciphers does not encrypt.
      await Promise.all([
        groupCommitFor(db).run(() => sqlite.prepare("UPDATE patients SET created_at = 'y'").run()),
        groupCommitFor(db).run(() => {
          seenInGroup = tempFiles();
        }),
      ]);
      expect(seenInGroup).toEqual([]);
      expect(sqlite.prepare("SELECT count(*) AS n FROM patients WHERE created_at = 'y'").get()).toEqual({ n: 2000 });
    } finally {
      close();
    }
  });

  it('stores the same photo once: the object key is still the SHA-256 of the plaintext', async () => {
    const dir = tempDir();
    const h = host(dir);
    const bytes = makePng(4, 4, [9, 9, 9]);
    const first = await h.service.uploadPhoto({ content_type: 'image/png', bytes });
    const second = await h.service.uploadPhoto({ content_type: 'image/png', bytes });
    const { createHash } = await import('node:crypto');
    expect(first.object_key).toBe(`${createHash('sha256').update(bytes).digest('hex')}.png`);
    expect(second.object_key).toBe(first.object_key);
    expect(fs.readdirSync(hostPaths(dir).photos)).toEqual([first.object_key]);
    expect(Buffer.from((await h.service.readPhoto(first.object_key)).bytes).equals(Buffer.from(bytes))).toBe(true);
  });

  it('refuses a photo file that was tampered with or renamed to another photo', async () => {
    const dir = tempDir();
    const h = host(dir);
    const a = await h.service.uploadPhoto({ content_type: 'image/png', bytes: makePng(4, 4, [1, 1, 1]) });
    const b = await h.service.uploadPhoto({ content_type: 'image/png', bytes: makePng(4, 4, [2, 2, 2]) });
    const photos = hostPaths(dir).photos;
    fs.copyFileSync(path.join(photos, a.object_key), path.join(photos, b.object_key));
    await expect(h.service.readPhoto(b.object_key)).rejects.toThrow(/could not be decrypted/);
    const bytes = fs.readFileSync(path.join(photos, a.object_key));
    bytes[bytes.length - 20] ^= 0xff;
    fs.writeFileSync(path.join(photos, a.object_key), bytes);
    await expect(h.service.readPhoto(a.object_key)).rejects.toThrow(/could not be decrypted/);
  });

  it('refuses the wrong key with a clear error and leaves the file untouched', async () => {
    const dir = tempDir();
    const right = newDatabaseKey();
    const h = host(dir, right);
    await visit(h.service);
    await h.close();
    const file = hostPaths(dir).database;
    const before = fs.readFileSync(file);

    expect(() => host(dir, newDatabaseKey())).toThrow(WrongDatabaseKeyError);
    expect(() => host(dir, newDatabaseKey())).toThrow(/could not unlock its database \(coverdesk\.sqlite\): the encryption key does not match this file\. It was not opened or changed/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    // The right key still opens it.
    expect((await host(dir, right).service.list('patients', {})).data).toHaveLength(1);
  });

  it('refuses to start with a new key file when the encrypted database lost its key', async () => {
    const dir = tempDir();
    await host(dir).close();
    const keyFile = keyFilePaths(dir).plain;
    fs.rmSync(keyFile);
    expect(() => host(dir)).toThrow(DatabaseKeyError);
    expect(() => host(dir)).toThrow(/database is encrypted, but its key \(database\.key\) is missing/);
    expect(fs.existsSync(keyFile)).toBe(false);
  });

  it('keeps the web host key in a file only this user can read, and refuses a loose or damaged one', async () => {
    const dir = tempDir();
    await host(dir).close();
    const keyFile = keyFilePaths(dir).plain;
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(keyFile, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);

    fs.chmodSync(keyFile, 0o644);
    expect(() => host(dir)).toThrow(/other users on this computer .*chmod 600 .*will not open its database/);
    fs.chmodSync(keyFile, 0o600);
    const good = fs.readFileSync(keyFile, 'utf8');
    fs.writeFileSync(keyFile, 'not a key\n');
    expect(() => host(dir)).toThrow(/key file .* is damaged/);
    fs.writeFileSync(keyFile, good);
    await host(dir).close();
  });

  it('encrypts a plaintext database and photos from before, keeping every record, including those still in the WAL', async () => {
    // The previous version's data folder: a plaintext database and plaintext photos, left
    // by a crash with records still in the WAL (copied while open).
    const before = tempDir();
    const plainFiles = hostPaths(before);
    const plain = openDatabase({ file: plainFiles.database });
    const ids = createIdGenerator(systemClock);
    const service = createLocalService({ db: plain.db, clock: systemClock, ids, photos: createPhotoStore(plainFiles.photos), photoUrl: (k) => k });
    const { seedReferenceData } = await import('@src/main/reference/seed-reference-data');
    seedReferenceData(plain.db);
    const photoKeys: string[] = [];
    for (let n = 0; n < 25; n++) photoKeys.push((await visit(service, n)).photo.object_key);
    const expected = dumpAll(plain.sqlite);
    const expectedPhotos = Object.fromEntries(photoKeys.map((k) => [k, fs.readFileSync(path.join(plainFiles.photos, k))]));

    const dir = tempDir();
    const files = hostPaths(dir);
    fs.cpSync(before, dir, { recursive: true });
    plain.close();
    expect(fs.statSync(`${files.database}-wal`).size).toBeGreaterThan(0);
    expect(findPlaintext([dir], CANARY_STRINGS).length).toBeGreaterThan(0);

    const h = host(dir);
    expect(dumpAll(h.database.sqlite)).toEqual(expected);
    for (const [key, bytes] of Object.entries(expectedPhotos)) {
      expect(Buffer.from((await h.service.readPhoto(key)).bytes).equals(bytes)).toBe(true);
    }
    expect(h.database.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    await h.close();
    expect(findPlaintext([dir], [SQLITE_HEADER, ...CANARY_STRINGS])).toEqual([]);
  });

  it('rekeys by the safe path: the new key opens every record, the old one no longer does', async () => {
    const dir = tempDir();
    const oldKey = newDatabaseKey();
    const h = host(dir, oldKey);
    for (let n = 0; n < 5; n++) await visit(h.service, n);
    const expected = dumpAll(h.database.sqlite);
    await h.close();

    const newKey = newDatabaseKey();
    const file = hostPaths(dir).database;
    rekeyDatabase(file, oldKey, newKey);
    expect(() => rekeyDatabase(file, oldKey, newKey)).toThrow(WrongDatabaseKeyError);
    expect(() => openDatabase({ file, key: oldKey })).toThrow(WrongDatabaseKeyError);
    const reopened = openDatabase({ file, key: newKey });
    expect(dumpAll(reopened.sqlite)).toEqual(expected);
    expect(reopened.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    reopened.close();
  });
});
