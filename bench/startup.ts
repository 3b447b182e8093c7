import Database from 'better-sqlite3-multiple-ciphers';
import path from 'node:path';
import { createHost, hostPaths } from '@src/main/host/create-host';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { applyDatabaseKey } from '@src/main/db/database-cipher';
import { newDatabaseKey } from '@src/main/db/database-key';
import { makeTempDir } from '@test/support/temp-dir';
import { median, timeEach, type Benchmark } from './harness';

/**
 * Fills a host database with `count` records (patients, cards, checks with benefits) as a
 * desk that has synced them holds them: each with its synced outbox entry and the id the
 * service gave it, noted per service (`remote_ids`).
 */
export function fill(file: string, count: number, key: Buffer): void {
  const db = new Database(file);
  applyDatabaseKey(db, key);
  db.pragma('journal_mode = WAL');
  const t = '2026-11-22T09:00:00.000Z';
  const benefits = JSON.stringify([
    { code: 'active_coverage', x12_code: '1', service_types: ['health_benefit_plan_coverage'], coverage_level: 'individual', in_network: 'yes', messages: [] },
    { code: 'co_payment', x12_code: 'B', service_types: ['professional_physician_visit_office'], amount: '25.00', in_network: 'yes', messages: [] },
  ]);
  const patient = db.prepare("INSERT INTO patients (id, first_name, last_name, date_of_birth, created_at, remote_id) VALUES (?, ?, ?, ?, ?, 'r' || ?)");
  const card = db.prepare("INSERT INTO insurance_cards (id, patient_id, source, member_id, insurance_carrier_ids, created_at, remote_id) VALUES (?, ?, 'dashboard', ?, '[]', ?, 'r' || ?)");
  const check = db.prepare(
    "INSERT INTO electronic_eligibility_checks (id, insurance_card_id, provider_id, clearinghouse_entity_id, provider_npi, patient_first_name, patient_last_name, patient_date_of_birth, service_type, status, source, benefits, created_at, finished_at, remote_id) VALUES (?, ?, ?, ?, ?, 'Pat', 'Ient', '1980-01-01', 'health_benefit_plan_coverage', 'success', 'dashboard', ?, ?, ?, 'r' || ?)",
  );
  const remote = db.prepare("INSERT INTO remote_ids (upstream, record_id, remote_id) VALUES ('http://127.0.0.1:4010', ?, 'r' || ?)");
  const outbox = db.prepare("INSERT INTO outbox (id, collection, record_id, payload, depends_on, state, attempts, created_at, updated_at) VALUES (?, ?, ?, '{}', '[]', 'synced', 1, ?, ?)");
  const quarter = Math.floor(count / 4);
  db.transaction(() => {
    for (let i = 0; i < quarter; i++) {
      const n = String(i).padStart(10, '0');
      patient.run(`pat_${n}`, `First${i}`, `Last${i}`, '1980-01-01', t, `pat_${n}`);
      card.run(`ic_${n}`, `pat_${n}`, `M${i}`, t, `ic_${n}`);
      check.run(`eec_${n}a`, `ic_${n}`, SEED_PROVIDERS[0].id, SEED_CLEARINGHOUSE_ENTITIES[0].id, SEED_PROVIDERS[0].npi, benefits, t, t, `eec_${n}a`);
      check.run(`eec_${n}b`, `ic_${n}`, SEED_PROVIDERS[0].id, SEED_CLEARINGHOUSE_ENTITIES[0].id, SEED_PROVIDERS[0].npi, benefits, t, t, `eec_${n}b`);
      for (const [collection, id] of [['patients', `pat_${n}`], ['insurance_cards', `ic_${n}`], ['electronic_eligibility_checks', `eec_${n}a`], ['electronic_eligibility_checks', `eec_${n}b`]]) {
        outbox.run(`obx_${id}`, collection, id, t, t);
        remote.run(id, id);
      }
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/**
 * Host ready (open, migrate, seed, services) on a database of 100,000 records, against
 * the raw limit: the SQLite cipher build opening the same encrypted file with the same key,
 * setting WAL and answering a query.
 */
export const startup: Benchmark = async ({ quick }) => {
  const temp = makeTempDir('coverdesk-bench-');
  const dataDir = path.join(temp.dir, 'host');
  try {
    const key = newDatabaseKey();
    await createHost({ dataDir, encryptionKey: key }).close();
    const file = hostPaths(dataDir).database;
    fill(file, 100_000, key);
    const runs = quick ? 5 : 15;
    const ours = await timeEach(runs, 2, async () => {
      const host = createHost({ dataDir, encryptionKey: key });
      await host.service.list('patients', { limit: 1 });
      await host.close();
    });
    const raw = await timeEach(runs, 2, () => {
      const db = new Database(file);
      applyDatabaseKey(db, key);
      db.pragma('journal_mode = WAL');
      db.prepare('SELECT * FROM patients ORDER BY id DESC LIMIT 1').get();
      db.close();
    });
    const value = median(ours);
    return [{ name: 'startup.host_ready_100k', value, unit: 'ms', baseline: median(raw), ratio: median(raw) / value, goal: '< 500 ms', met: value < 500 }];
  } finally {
    temp.cleanup();
  }
};
