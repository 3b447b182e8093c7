import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as schema from '@src/main/db/schema';
import { enqueue } from '@src/main/outbox/outbox-store';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { getEntry, markStopped, markSynced, reconcileBlocked } from '@src/main/sync/outbox-queue';
import { setRemoteId } from '@src/main/sync/remote-results';
import { adoptUnkeyedRemoteIds, remoteIdAt } from '@src/main/sync/remote-ids';
import { readinessFor, sendOwedAnswersAgain } from '@src/main/sync/send-again';
import { discardEntry, listSyncItems } from '@src/main/sync/sync-actions';
import { SYNC_MESSAGES } from '@src/main/sync/sync-messages';
import { makePng } from '@test/support/images';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';

/**
 * Issue 26, item 4, at the level of the store: what a service that has not received a
 * record gets first, built from the record as stored, each once, and how the Sync screen
 * shows and discards it. A real SQLite file; no worker running (the switch test drives one).
 */

const OLD = 'sandbox';
const NEW = 'https://live.example.com';

let fx: HostFixture;
beforeEach(() => {
  fx = startTestHost({ localApi: false, hotFolder: false });
});
afterEach(async () => {
  await fx.cleanup();
});

const db = () => fx.host.database.db;
const deps = () => ({ db: db(), clock: fx.host.clock, ids: fx.host.ids });
const entries = () => db().select().from(schema.outbox).all();

/** A patient with a two-photo card, every entry synced to the old service as the worker would leave it. */
async function syncedVisit() {
  const { bridge } = fx.host;
  const patient = await bridge['patients.create']({ first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' });
  const photo = (shade: number) => bridge['photos.upload']({ content_type: 'image/png', data_base64: Buffer.from(makePng(4, 4, [1, 2, shade])).toString('base64') });
  const front = await photo(1);
  const back = await photo(2);
  const card = await bridge['cards.create']({ patient_id: patient.id, member_id: 'XGH123456789', group_number: 'G-77', front_photo_object_key: front.object_key, back_photo_object_key: back.object_key });
  for (const entry of entries()) {
    const remote = entry.collection === 'photos' ? entry.record_id : `old_${entry.record_id}`;
    setRemoteId(db(), OLD, entry.collection, entry.record_id, remote);
    markSynced(db(), entry.id, remote, new Date().toISOString());
  }
  return { patient, front, back, card };
}

async function newCheck(cardId: string) {
  const check = await fx.host.bridge['checks.create']({
    insurance_card_id: cardId,
    provider_id: SEED_PROVIDERS[0].id,
    clearinghouse_entity_id: SEED_CLEARINGHOUSE_ENTITIES[0].id,
    service_type: 'health_benefit_plan_coverage',
  });
  return entries().find((e) => e.record_id === check.id)!;
}

describe('sending again what the current service has not received', () => {
  it('queues the patient, the photos and the card (built from the stored card, in dependency order) before the check, once', async () => {
    const visit = await syncedVisit();
    const check = await newCheck(visit.card.id);
    expect(readinessFor(deps(), OLD, check)).toEqual({ kind: 'ready' });

    const first = readinessFor(deps(), NEW, check);
    expect(first.kind).toBe('waits');
    const open = entries().filter((e) => e.state === 'queued' && e.id !== check.id);
    expect(open.map((e) => e.collection).sort()).toEqual(['insurance_cards', 'patients', 'photos', 'photos']);
    const byRecord = new Map(open.map((e) => [e.record_id, e]));
    const card = byRecord.get(visit.card.id)!;
    // The card waits for the new entries of its patient and photos; the check for the card's.
    for (const ref of [visit.patient.id, visit.front.object_key, visit.back.object_key]) expect(card.depends_on).toContain(byRecord.get(ref)!.id);
    expect(getEntry(db(), check.id)!.depends_on).toContain(card.id);
    expect(card.payload).toEqual({
      patient_id: visit.patient.id,
      member_id: 'XGH123456789',
      group_number: 'G-77',
      insurance_carrier_ids: [],
      front_photo_object_key: visit.front.object_key,
      back_photo_object_key: visit.back.object_key,
    });
    // Its own Idempotency-Key: a new entry, never the old one's.
    expect(card.id).not.toBe(entries().find((e) => e.record_id === visit.card.id && e.state === 'synced')!.id);

    // Asked again (another check for the same card, the next round): nothing more is queued.
    const second = await newCheck(visit.card.id);
    expect(readinessFor(deps(), NEW, second)).toEqual({ kind: 'waits', on: [card.id] });
    expect(entries().filter((e) => e.state === 'queued').length).toBe(open.length + 2);

    // Once the new service has them all, the check may go.
    for (const entry of open) setRemoteId(db(), NEW, entry.collection, entry.record_id, `new_${entry.record_id}`);
    expect(readinessFor(deps(), NEW, getEntry(db(), check.id)!)).toEqual({ kind: 'ready' });
    expect(remoteIdAt(db(), OLD, visit.card.id)).toBe(`old_${visit.card.id}`);
  });

  it('says on the Sync screen why a record goes again, and discarding it keeps the record', async () => {
    const visit = await syncedVisit();
    const check = await newCheck(visit.card.id);
    readinessFor(deps(), NEW, check);
    const items = listSyncItems(db());
    const patientItem = items.find((i) => i.record_id === visit.patient.id)!;
    expect(patientItem.reason).toBe(SYNC_MESSAGES.reasonSentAgain);
    expect(items.find((i) => i.record_id === check.record_id)!.reason).toBe(SYNC_MESSAGES.reasonQueued);

    // The new service refuses the patient: the desk discards the chain, newest first.
    const now = new Date().toISOString();
    markStopped(db(), patientItem.id, 'failed', now, { status: 422, code: 'invalid', message: 'Refused.' });
    reconcileBlocked(db(), now);
    const actions = { db: db(), clock: fx.host.clock, kick: () => {} };
    discardEntry(actions, check.id);
    discardEntry(actions, entries().find((e) => e.record_id === visit.card.id && e.state === 'blocked')!.id);
    discardEntry(actions, patientItem.id);
    // The check was never anywhere: it goes. The card and the patient the old service holds stay.
    expect(db().select().from(schema.checks).all()).toEqual([]);
    expect(db().select().from(schema.patients).where(eq(schema.patients.id, visit.patient.id)).all().length).toBe(1);
    expect(db().select().from(schema.insurance_cards).where(eq(schema.insurance_cards.id, visit.card.id)).all().length).toBe(1);
  });

  it('fails an entry naming a record that is not on this desk, naming the field', () => {
    const id = enqueue(deps(), { collection: 'electronic_eligibility_checks', record_id: 'eec_gone', payload: { insurance_card_id: 'ic_01JD0000000000000000000000' }, refs: [] });
    expect(readinessFor(deps(), NEW, getEntry(db(), id)!)).toEqual({ kind: 'missing', field: 'insurance_card_id' });
  });

  it('sends a check still pending at the old service to the new one, once', async () => {
    const visit = await syncedVisit();
    const check = await newCheck(visit.card.id);
    setRemoteId(db(), OLD, check.collection, check.record_id, 'old_check');
    markSynced(db(), check.id, 'old_check', new Date().toISOString());
    expect(sendOwedAnswersAgain(deps(), OLD)).toBe(0);
    expect(sendOwedAnswersAgain(deps(), NEW)).toBe(1);
    expect(sendOwedAnswersAgain(deps(), NEW)).toBe(0);
    const again = entries().filter((e) => e.record_id === check.record_id && e.state === 'queued');
    expect(again.length).toBe(1);
    expect(again[0].payload).toEqual({
      insurance_card_id: visit.card.id,
      provider_id: SEED_PROVIDERS[0].id,
      clearinghouse_entity_id: SEED_CLEARINGHOUSE_ENTITIES[0].id,
      service_type: 'health_benefit_plan_coverage',
    });
  });

  it("takes the remote ids of a database from before they were kept per service as the first service's, once", async () => {
    const patient = await fx.host.bridge['patients.create']({ first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' });
    db().update(schema.patients).set({ remote_id: 'pat_upstream' }).where(eq(schema.patients.id, patient.id)).run();
    expect(adoptUnkeyedRemoteIds(db(), OLD)).toBe(1);
    expect(remoteIdAt(db(), OLD, patient.id)).toBe('pat_upstream');
    expect(adoptUnkeyedRemoteIds(db(), NEW)).toBe(0);
    expect(remoteIdAt(db(), NEW, patient.id)).toBeNull();
  });
});
