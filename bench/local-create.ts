import Database from 'better-sqlite3-multiple-ciphers';
import path from 'node:path';
import { createHost } from '@src/main/host/create-host';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { applyDatabaseKey } from '@src/main/db/database-cipher';
import { configureConnection } from '@src/main/db/open-database';
import { newDatabaseKey } from '@src/main/db/database-key';
import type { CallContext } from '@src/shared/contract';
import { makeTempDir } from '@test/support/temp-dir';
import { makePng } from '@test/support/images';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import { systemClock } from '@src/main/support/clock';
import { createIdGenerator } from '@src/main/support/ids';
import { percentile, timeEach, type BenchResult, type Benchmark } from './harness';

const DESK: CallContext = { source: 'dashboard' };

/**
 * Each of the four operations through the desk's bridge (the contract's parse, validation,
 * reference checks, record + outbox entry + audit entry in one transaction), against bare inserts of the same three rows in
 * one transaction with the same pragmas and the same encryption (the SQLite cipher build,
 * the same key): the limit SQLite itself sets.
 */
export const localCreate: Benchmark = async ({ quick }) => {
  const iterations = quick ? 300 : 2000;
  const warmup = quick ? 30 : 200;
  const temp = makeTempDir('coverdesk-bench-');
  const key = newDatabaseKey();
  const host = createHost({ dataDir: path.join(temp.dir, 'host'), encryptionKey: key });
  try {
    const { service } = host;
    const patient = await service.create('patients', { first_name: 'Bench', last_name: 'Mark', date_of_birth: '1980-01-01' }, DESK);
    const photo = await service.uploadPhoto({ content_type: 'image/png', bytes: makePng() });
    const card = await service.create('insurance_cards', { patient_id: patient.id, member_id: 'XGH1', front_photo_object_key: photo.object_key }, DESK);

    // Through the desk's bridge as a click makes them: the contract's parse, the workstation
    // lock, the handler, the create with its audit entry, the {ok, value} answer.
    const viaBridge = (method: string, input: unknown) => async () => {
      const result = await dispatchBridgeCall(host.bridge, method, input);
      if (!result.ok) throw new Error(`${method}: ${result.error.code}`);
    };
    const ops = {
      insurance_card: viaBridge('cards.create', { patient_id: patient.id, member_id: 'XGH123456789', group_number: 'G1', front_photo_object_key: photo.object_key }),
      extraction: viaBridge('extractions.create', { insurance_card_id: card.id }),
      discovery: viaBridge('discoveries.create', { insurance_card_id: card.id }),
      check: viaBridge('checks.create', {
        insurance_card_id: card.id,
        provider_id: SEED_PROVIDERS[0].id,
        clearinghouse_entity_id: SEED_CLEARINGHOUSE_ENTITIES[0].id,
        service_type: 'chiropractic',
      }),
    };

    // The raw limit: the same schema, pragmas and encryption (the cipher build, the same
    // key), prepared statements, no validation.
    const raw = new Database(host.database.sqlite.name);
    applyDatabaseKey(raw, key);
    configureConnection(raw);
    const outbox = raw.prepare(
      "INSERT INTO outbox (id, collection, record_id, payload, depends_on, state, attempts, next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, '[]', 'queued', 0, ?, ?, ?)",
    );
    const audit = raw.prepare("INSERT INTO audit_log (at, actor, action, record_id) VALUES (?, 'bench', 'create', ?)");
    const insertCard = raw.prepare("INSERT INTO insurance_cards (id, patient_id, source, member_id, group_number, front_photo_object_key, insurance_carrier_ids, created_at) VALUES (?, ?, 'dashboard', 'XGH123456789', 'G1', ?, '[]', ?)");
    const insertExtraction = raw.prepare("INSERT INTO extractions (id, insurance_card_id, status, engine, created_at) VALUES (?, ?, 'pending', 'on_device', ?)");
    const insertDiscovery = raw.prepare("INSERT INTO electronic_eligibility_discoveries (id, insurance_card_id, patient_first_name, patient_last_name, patient_date_of_birth, insurance_card_member_id, source, status, created_at) VALUES (?, ?, 'Bench', 'Mark', '1980-01-01', 'XGH1', 'dashboard', 'pending', ?)");
    const insertCheck = raw.prepare("INSERT INTO electronic_eligibility_checks (id, insurance_card_id, provider_id, clearinghouse_entity_id, provider_npi, patient_first_name, patient_last_name, patient_date_of_birth, insurance_card_member_id, service_type, status, source, created_at) VALUES (?, ?, ?, ?, '1234567893', 'Bench', 'Mark', '1980-01-01', 'XGH1', 'chiropractic', 'pending', 'dashboard', ?)");
    // Ids shaped as ours (time-ordered ULIDs): others would sort into the middle of the id
    // indexes and split pages under our own next creates.
    const ids = createIdGenerator(systemClock);
    const now = () => new Date().toISOString();
    const rawInserts: Record<keyof typeof ops, () => void> = {
      insurance_card: raw.transaction(() => {
        const id = ids.next('ic');
        const t = now();
        insertCard.run(id, patient.id, photo.object_key, t);
        outbox.run(ids.next('obx'), 'insurance_cards', id, '{"patient_id":"x"}', t, t, t);
        audit.run(t, id);
      }),
      extraction: raw.transaction(() => {
        const id = ids.next('ext');
        const t = now();
        insertExtraction.run(id, card.id, t);
        outbox.run(ids.next('obx'), 'extractions', id, '{"insurance_card_id":"x"}', t, t, t);
        audit.run(t, id);
      }),
      discovery: raw.transaction(() => {
        const id = ids.next('eed');
        const t = now();
        insertDiscovery.run(id, card.id, t);
        outbox.run(ids.next('obx'), 'electronic_eligibility_discoveries', id, '{"insurance_card_id":"x"}', t, t, t);
        audit.run(t, id);
      }),
      check: raw.transaction(() => {
        const id = ids.next('eec');
        const t = now();
        insertCheck.run(id, card.id, SEED_PROVIDERS[0].id, SEED_CLEARINGHOUSE_ENTITIES[0].id, t);
        outbox.run(ids.next('obx'), 'electronic_eligibility_checks', id, '{"insurance_card_id":"x"}', t, t, t);
        audit.run(t, id);
      }),
    };

    const results: BenchResult[] = [];
    for (const op of Object.keys(ops) as (keyof typeof ops)[]) {
      // Interleave ours and raw in halves so disk and CPU noise hit both alike.
      const half = Math.floor(iterations / 2);
      const ours = [...(await timeEach(half, warmup, ops[op])), ...(await timeEach(iterations - half, 0, ops[op]))];
      const base = [...(await timeEach(half, warmup, rawInserts[op])), ...(await timeEach(iterations - half, 0, rawInserts[op]))];
      const opsPerSec = (samples: number[]) => (samples.length * 1000) / samples.reduce((a, b) => a + b, 0);
      const p99 = percentile(ours, 99);
      results.push(
        { name: `local_create.${op}.throughput`, value: opsPerSec(ours), unit: 'ops/s', baseline: opsPerSec(base), ratio: opsPerSec(ours) / opsPerSec(base), goal: 'ratio ≥ 0.5', met: opsPerSec(ours) / opsPerSec(base) >= 0.5 },
        { name: `local_create.${op}.p50`, value: percentile(ours, 50), unit: 'ms', baseline: percentile(base, 50), ratio: percentile(base, 50) / percentile(ours, 50) },
        { name: `local_create.${op}.p99`, value: p99, unit: 'ms', baseline: percentile(base, 99), ratio: percentile(base, 99) / p99, goal: '< 5 ms', met: p99 < 5 },
      );
    }
    raw.close();
    return results;
  } finally {
    await host.close();
    temp.cleanup();
  }
};
