import { randomBytes } from 'node:crypto';
import { keyFilePaths, readOrCreateKeyFile } from '@src/main/db/database-key';
import { hostPaths, type Host } from '@src/main/host/create-host';
import { createPhotoStore } from '@src/main/photos/photo-store';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A desk of `records` patients (each with its outbox entry) and `photos` sealed photo files:
 * one real patient through the service, then copies of its row and its outbox entry, so the
 * database has the pages a desk of that size has without creating each one (the backup bench
 * and the backup-while-working test).
 */
export async function fillDesk(host: Host, size: { records: number; photos: number }): Promise<{ key: Buffer }> {
  const seed = await host.bridge['patients.create']({ first_name: 'Bench', last_name: 'Patient', date_of_birth: '1980-01-01' });
  const sqlite = host.database.sqlite;
  const copyRows = (table: string, idColumn: string, where: string, extra: Record<string, string> = {}) => {
    const columns = (sqlite.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name);
    const select = columns.map((c) => (c === idColumn ? `"${c}" || '_' || n` : (extra[c] ?? `"${c}"`))).join(', ');
    sqlite
      .prepare(`WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?) INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) SELECT ${select} FROM seq, "${table}" WHERE ${where}`)
      .run(size.records - 1);
  };
  sqlite.transaction(() => {
    copyRows('patients', 'id', `id = '${seed.id}'`);
    copyRows('outbox', 'id', `record_id = '${seed.id}'`, { record_id: `record_id || '_' || n` });
  })();
  const key = readOrCreateKeyFile({ file: keyFilePaths(host.dataDir).plain, mayCreate: false });
  // Sealed photo files as the store writes them (60 KB each; the image check is not what is measured).
  const store = createPhotoStore(hostPaths(host.dataDir).photos, { key });
  for (let i = 0; i < size.photos; i++) store.put({ content_type: 'image/png', bytes: Buffer.concat([PNG, randomBytes(60_000)]) });
  return { key };
}
