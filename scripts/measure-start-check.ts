/**
 * How long the start-up integrity check takes on a desk with 100,000 records: what is left on
 * the start path (opening the file) and SQLite's quick_check on its worker thread: `npx tsx scripts/measure-start-check.ts [--records N]`. The figure is in
 * docs/decisions.md (Storage).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHost, hostPaths } from '../src/main/host/create-host';
import { checkDatabaseAtStart } from '../src/main/db/start-check';
import { checkDatabaseOnWorker } from '../src/main/db/background-check';
import { readOrCreateKeyFile, keyFilePaths } from '../src/main/db/database-key';

const at = process.argv.indexOf('--records');
const records = at > 0 ? Number(process.argv[at + 1]) : 100_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coverdesk-start-check-'));
async function main(): Promise<void> {
  const host = createHost({ dataDir: dir, localApi: false, hotFolder: false });
  const sqlite = host.database.sqlite;
  const now = new Date().toISOString();
  const patient = sqlite.prepare('INSERT INTO patients (id, first_name, last_name, date_of_birth, created_at, remote_id) VALUES (?, ?, ?, ?, ?, ?)');
  const entry = sqlite.prepare(
    "INSERT INTO outbox (id, collection, record_id, payload, depends_on, state, attempts, created_at, updated_at) VALUES (?, 'patients', ?, ?, '[]', 'synced', 1, ?, ?)",
  );
  sqlite.transaction(() => {
    for (let i = 0; i < records; i += 1) {
      const id = `pat_${String(i).padStart(26, '0')}`;
      patient.run(id, `First${i}`, `Last${i}`, '1980-01-01', now, `pat_remote_${i}`);
      entry.run(`obx_${String(i).padStart(26, '0')}`, id, JSON.stringify({ first_name: `First${i}`, last_name: `Last${i}`, date_of_birth: '1980-01-01' }), now, now);
    }
  })();
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  void host.close();
  const file = hostPaths(dir).database;
  const key = readOrCreateKeyFile({ file: keyFilePaths(dir).plain, mayCreate: false });
  const onStartPath: number[] = [];
  const onWorker: number[] = [];
  for (let round = 0; round < 5; round += 1) {
    let started = performance.now();
    if (checkDatabaseAtStart({ file, key, now: new Date() }) !== null) throw new Error('the healthy file was found damaged');
    onStartPath.push(performance.now() - started);
    started = performance.now();
    const answer = await checkDatabaseOnWorker({ file, key });
    if (answer.state !== 'ok') throw new Error(`the healthy file's check answered ${answer.state}`);
    onWorker.push(performance.now() - started);
  }
  const sorted = (times: number[]) => [...times].sort((a, b) => a - b);
  const mb = fs.statSync(file).size / 1024 / 1024;
  console.log(
    JSON.stringify({
      records,
      rows: records * 2,
      file_mb: Math.round(mb * 10) / 10,
      start_path_ms_median: Math.round(sorted(onStartPath)[2]),
      start_path_ms_max: Math.round(sorted(onStartPath)[4]),
      worker_quick_check_ms_median: Math.round(sorted(onWorker)[2]),
      worker_quick_check_ms_max: Math.round(sorted(onWorker)[4]),
    }),
  );
}

main()
  .finally(() => fs.rmSync(dir, { recursive: true, force: true }))
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
