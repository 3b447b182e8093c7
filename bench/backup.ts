/**
 * Backup and restore of a desk (issue 29): `tsx bench/backup.ts [--records N] [--photos M] [--full]`.
 * Default 10,000 records and 200 photos (a minute or so); `--full` is the goal's size: 100,000
 * records and 2,000 photos (goals: backup < 30 s, restore < 60 s). Prints the figures and one
 * JSON line; it does not touch README's table.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createBackup, deskIdentity } from '../src/main/backup/desk-backup';
import { restoreBackup } from '../src/main/backup/desk-restore';
import { keyFilePaths, readOrCreateKeyFile } from '../src/main/db/database-key';
import { createHost, hostPaths } from '../src/main/host/create-host';
import { createPhotoStore } from '../src/main/photos/photo-store';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { records: { type: 'string' }, photos: { type: 'string' }, full: { type: 'boolean', default: false } } });
  const records = Number(values.records ?? (values.full ? 100_000 : 10_000));
  const photos = Number(values.photos ?? (values.full ? 2_000 : 200));
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'coverdesk-bench-backup-'));
  try {
    const dataDir = path.join(root, 'desk');
    const host = createHost({ dataDir, localApi: false, hotFolder: false });
    // One real patient through the service, then copies of its row and its outbox entry: the same pages a desk of that size has.
    const seed = await host.bridge['patients.create']({ first_name: 'Bench', last_name: 'Patient', date_of_birth: '1980-01-01' });
    const sqlite = host.database.sqlite;
    const copyRows = (table: string, idColumn: string, where: string, extra: Record<string, string> = {}) => {
      const columns = (sqlite.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name);
      const select = columns.map((c) => (c === idColumn ? `"${c}" || '_' || n` : (extra[c] ?? `"${c}"`))).join(', ');
      sqlite.prepare(`WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?) INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) SELECT ${select} FROM seq, "${table}" WHERE ${where}`).run(records - 1);
    };
    sqlite.transaction(() => {
      copyRows('patients', 'id', `id = '${seed.id}'`);
      copyRows('outbox', 'id', `record_id = '${seed.id}'`, { record_id: `record_id || '_' || n` });
    })();
    const key = readOrCreateKeyFile({ file: keyFilePaths(dataDir).plain, mayCreate: false });
    // Sealed photo files as the store writes them (60 KB each; the image check is not what is measured).
    const store = createPhotoStore(hostPaths(dataDir).photos, { key });
    for (let i = 0; i < photos; i++) store.put({ content_type: 'image/png', bytes: Buffer.concat([PNG, randomBytes(60_000)]) });
    const to = path.join(root, 'backups');
    fs.mkdirSync(to);
    const started = performance.now();
    const made = await createBackup({ clock: { now: () => new Date() }, key, version: '0.1.0' }, { sqlite, files: hostPaths(dataDir), identity: deskIdentity(sqlite), to, keep: 2 });
    const backupMs = performance.now() - started;
    await host.close();
    const target = path.join(root, 'new-computer');
    const restoreStarted = performance.now();
    await restoreBackup({ version: '0.1.0', now: () => new Date() }, { from: made.folder, key, target: { ...hostPaths(target), dataDir: target, keyFile: keyFilePaths(target).plain }, targetPracticeId: null });
    const restoreMs = performance.now() - restoreStarted;
    const bytes = Object.values(made.manifest.files).reduce((sum, f) => sum + f.bytes, 0);
    console.log(`Backup of ${made.manifest.counts.patients} patients (${made.manifest.counts.outbox} outbox entries) and ${photos} photos, ${(bytes / 1e6).toFixed(1)} MB: ${(backupMs / 1000).toFixed(2)} s (goal < 30 s); restore ${(restoreMs / 1000).toFixed(2)} s (goal < 60 s)`);
    console.log(JSON.stringify({ bench: 'backup_restore', records: made.manifest.counts.patients, photos, bytes, backup_ms: Math.round(backupMs), restore_ms: Math.round(restoreMs) }));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main();
