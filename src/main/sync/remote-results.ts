import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { preparedOnce } from '../records/statements';
import type { Db } from '../db/open-database';
import { checks, discoveries, extractions, insurance_cards, patients, photos, remote_ids } from '../db/schema';
import type { IdGenerator } from '../support/ids';
import { findRow, insertRecord } from '../records/record-store';
import { noteRemoteId, remoteIdAt } from './remote-ids';
import { COLLECTIONS, type Check, type Discovery, type Extraction, type InsuranceCard } from '../../shared/contract';

/**
 * Upstream results written into the desk's own records. Records keep their local id for
 * ever; the upstream's id goes in `remote_id`, and what the upstream decided (status,
 * benefits, plan status, spawned checks) is copied onto the local record.
 */

/** Collections whose records start pending and are polled until terminal. */
export type PolledCollection = 'extractions' | 'electronic_eligibility_discoveries' | 'electronic_eligibility_checks';
export const POLLED_COLLECTIONS: readonly PolledCollection[] = ['extractions', 'electronic_eligibility_discoveries', 'electronic_eligibility_checks'];

export function isPolledCollection(collection: string): collection is PolledCollection {
  return (POLLED_COLLECTIONS as readonly string[]).includes(collection);
}

const POLLED_TABLES = { extractions, electronic_eligibility_discoveries: discoveries, electronic_eligibility_checks: checks } as const;

const TABLE_WITH_REMOTE = {
  patients,
  insurance_cards,
  extractions,
  electronic_eligibility_discoveries: discoveries,
  electronic_eligibility_checks: checks,
} as const;

/** Records the id `upstream` gave the local record (or photo) an entry carried: under that service, and as the record's latest. */
export function setRemoteId(db: Db, upstream: string, collection: string, localId: string, remoteId: string): void {
  noteRemoteId(db, upstream, localId, remoteId);
  // Prepared once per table: a draining queue writes every entry's remote id through here.
  if (collection === 'photos') {
    preparedOnce(db, 'sync:remote-id:photos', () =>
      db.update(photos).set({ remote_id: sql`${sql.placeholder('remoteId')}` }).where(eq(photos.object_key, sql.placeholder('localId'))).prepare(),
    ).run({ localId, remoteId });
    return;
  }
  const table = TABLE_WITH_REMOTE[collection as keyof typeof TABLE_WITH_REMOTE];
  if (!table) throw new Error(`No local table for outbox collection ${collection}`);
  preparedOnce(db, `sync:remote-id:${collection}`, () =>
    db.update(table).set({ remote_id: sql`${sql.placeholder('remoteId')}` }).where(eq(table.id, sql.placeholder('localId'))).prepare(),
  ).run({ localId, remoteId });
}

const isTerminal = (status: string) => status === 'success' || status === 'failure';

/** What a terminal upstream record says, as the local row's columns. */
function terminalColumns(collection: PolledCollection, remote: Extraction | Discovery | Check): Record<string, unknown> {
  const base = { status: remote.status, finished_at: remote.finished_at ?? null };
  if (collection === 'electronic_eligibility_checks') {
    const check = remote as Check;
    return { ...base, failure_reason: check.failure_reason ?? null, clearinghouse_entity_errors: check.clearinghouse_entity_errors ?? null, benefits: check.benefits ?? null };
  }
  if (collection === 'extractions') {
    const extraction = remote as Extraction;
    return { ...base, engine: 'upstream', fields: extraction.fields ?? null, text: extraction.text ?? null, failure_reason: extraction.failure_reason ?? null };
  }
  return base;
}

/**
 * Copies a terminal upstream record onto its local twin. Terminal states never change
 * (docs/decisions.md, "Transitions"), so a local record already terminal is left as it
 * is: an extraction the device finished first keeps the device's reading. Returns whether
 * anything changed.
 */
export function applyTerminal(db: Db, collection: PolledCollection, localId: string, remote: Extraction | Discovery | Check): boolean {
  if (!isTerminal(remote.status)) return false;
  // One shape for the three tables: each has id, status and the columns terminalColumns names.
  const table = POLLED_TABLES[collection] as typeof checks;
  return db.update(table).set(terminalColumns(collection, remote)).where(and(eq(table.id, localId), eq(table.status, 'pending'))).run().changes > 0;
}

/**
 * What the upstream learnt about a card: plan status from a check, carriers and member id
 * from a discovery. The desk's own entries win where it has them (a member id typed from
 * the card is not replaced), the upstream's fill the gaps.
 */
export function applyCardFacts(db: Db, localCardId: string, remote: InsuranceCard, local = findRow(db, 'insurance_cards', localCardId)): boolean {
  // `local`: the card's row as the caller has just read it (by the prepared lookup: the pull
  // asks for every card the feed brings back, the desk's own among them, and reads it itself).
  if (!local) return false;
  const update: Partial<typeof insurance_cards.$inferInsert> = {};
  if (remote.plan_status && remote.plan_status_fetched_at && remote.plan_status_fetched_at !== local.plan_status_fetched_at) {
    update.plan_status = remote.plan_status;
    update.plan_status_fetched_at = remote.plan_status_fetched_at;
  }
  if (!local.member_id && remote.member_id) update.member_id = remote.member_id;
  if (local.insurance_carrier_ids.length === 0 && remote.insurance_carrier_ids.length > 0) update.insurance_carrier_ids = remote.insurance_carrier_ids;
  if (Object.keys(update).length === 0) return false;
  db.update(insurance_cards).set(update).where(eq(insurance_cards.id, localCardId)).run();
  return true;
}

export interface SpawnedCheckOwner {
  localDiscoveryId: string;
  localCardId: string;
}

/**
 * Stores the checks a discovery spawned upstream as local records (new local ids, the
 * upstream's id in remote_id, no outbox entry: they came from the upstream). A check
 * already stored is skipped, so storing twice after a crash stores once.
 */
export function storeSpawnedChecks(db: Db, ids: IdGenerator, upstream: string, owner: SpawnedCheckOwner, remoteChecks: Check[]): { id: string; remote_id: string; pending: boolean }[] {
  const stored: { id: string; remote_id: string; pending: boolean }[] = [];
  for (const remote of remoteChecks) {
    const known = db.select({ id: checks.id }).from(checks).where(eq(checks.remote_id, remote.id)).get();
    if (known) continue;
    const id = ids.next(COLLECTIONS.electronic_eligibility_checks.prefix);
    insertRecord(db, 'electronic_eligibility_checks', {
      id,
      insurance_card_id: owner.localCardId,
      provider_id: remote.provider_id,
      clearinghouse_entity_id: remote.clearinghouse_entity_id,
      electronic_eligibility_discovery_id: owner.localDiscoveryId,
      provider_npi: remote.provider_npi,
      patient_first_name: remote.patient_first_name,
      patient_last_name: remote.patient_last_name,
      patient_date_of_birth: remote.patient_date_of_birth,
      insurance_card_member_id: remote.insurance_card_member_id ?? null,
      service_type: remote.service_type,
      status: remote.status,
      source: remote.source,
      failure_reason: remote.failure_reason ?? null,
      clearinghouse_entity_errors: remote.clearinghouse_entity_errors ?? null,
      benefits: remote.benefits ?? null,
      created_at: remote.created_at,
      finished_at: remote.finished_at ?? null,
      remote_id: remote.id,
    });
    noteRemoteId(db, upstream, id, remote.id);
    stored.push({ id, remote_id: remote.id, pending: !isTerminal(remote.status) });
  }
  return stored;
}

export interface PendingRemote {
  collection: PolledCollection;
  id: string;
  remote_id: string;
  insurance_card_id: string;
}

/**
 * Local records `upstream` has but has not finished: what to poll after a restart or a
 * switch, by the id that service gave them. Without `upstream`, by the latest id, whichever service.
 */
export function pendingRemoteRecords(db: Db, upstream?: string): PendingRemote[] {
  return POLLED_COLLECTIONS.flatMap((collection) => {
    const table = POLLED_TABLES[collection];
    const rows =
      upstream === undefined
        ? db
            .select({ id: table.id, remote_id: table.remote_id, insurance_card_id: table.insurance_card_id })
            .from(table)
            .where(and(eq(table.status, 'pending'), isNotNull(table.remote_id)))
            .all()
        : db
            .select({ id: table.id, remote_id: remote_ids.remote_id, insurance_card_id: table.insurance_card_id })
            .from(table)
            .innerJoin(remote_ids, and(eq(remote_ids.upstream, upstream), eq(remote_ids.record_id, table.id)))
            .where(eq(table.status, 'pending'))
            .all();
    return rows.map((row) => ({ collection, id: row.id, remote_id: row.remote_id as string, insurance_card_id: row.insurance_card_id }));
  });
}

/** What `upstream` calls a card; null if it has not received it. */
export function cardRemoteId(db: Db, upstream: string, localCardId: string): string | null {
  return remoteIdAt(db, upstream, localCardId);
}
