import { afterEach, beforeEach, expect, it } from 'vitest';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import { decideJob } from '@src/main/batch/batch-plan';
import { appointmentsOn } from '@src/main/appointments/appointment-store';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import type { DeskPatientRow } from '@src/shared/bridge/desk-contract';
import type { WorklistRow } from '@src/shared/bridge/appointment-contract';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';

let fx: HostFixture;
beforeEach(() => {
  fx = startTestHost();
});
afterEach(async () => {
  await fx.cleanup();
});

const DESK = { source: 'dashboard' } as const;

async function call<T>(method: string, input: unknown): Promise<T> {
  const result = await dispatchBridgeCall(fx.host.bridge, method, input);
  if (!result.ok) throw new Error(`${method}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}

// Issue 26, item 3: Today, the batch and the worklist pick the same card, the newest (src/shared/current-card.ts).
it("Today, the batch and the worklist agree on the patient's current card (the newest, even when a later id is an older card) and on its answer", async () => {
  const patient = await fx.host.service.create('patients', { first_name: 'Rosa', last_name: 'Quiroga', date_of_birth: '1975-05-06' }, DESK);
  const card = (memberId: string) =>
    fx.host.service.create('insurance_cards', { patient_id: patient.id, member_id: memberId, insurance_carrier_ids: [SEED_CLEARINGHOUSE_ENTITIES[0].id] }, DESK);
  const newest = await card('NEW-001');
  const older = await card('OLD-001');
  // A card pulled from another desk gets its id here, now, but keeps the day it was made there.
  fx.host.database.sqlite.prepare('UPDATE insurance_cards SET created_at = ? WHERE id = ?').run('2026-01-02T09:00:00.000Z', older.id);

  // A check of the older card is not the answer about the card Today shows.
  await fx.host.service.create(
    'electronic_eligibility_checks',
    { insurance_card_id: older.id, provider_id: SEED_PROVIDERS[0].id, clearinghouse_entity_id: SEED_CLEARINGHOUSE_ENTITIES[0].id, service_type: 'health_benefit_plan_coverage' },
    DESK,
  );

  const since = '2000-01-01T00:00:00.000Z';
  const [today] = await call<{ data: DeskPatientRow[] }>('desk.today', { since }).then((r) => r.data);
  expect(today).toMatchObject({ card_id: newest.id, member_id: 'NEW-001', eligibility: 'none' });
  expect(today.check_id).toBeUndefined();

  const date = '2026-12-02';
  await call('appointments.create', { date, time: '09:00', first_name: 'Rosa', last_name: 'Quiroga', date_of_birth: '1975-05-06' });
  const [appointment] = appointmentsOn(fx.host.database.db, date);
  const decision = decideJob(fx.host.database.db, appointment, { now: new Date(), recheckDays: 7, defaultProviderId: SEED_PROVIDERS[0].id });
  expect(decision.insurance_card_id).toBe(newest.id);
  const [row] = await call<{ rows: WorklistRow[] }>('appointments.worklist', { date }).then((r) => r.rows);
  expect(row.card_id).toBe(newest.id);
});
