import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import type { Benefit } from '@src/shared/contract';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { reading, statementsRun } from '@test/support/statement-counter';
import { firstTodayRows, todayChanges, todayRows } from '@src/main/desk/today';
import { deskPatientRows } from '@src/main/desk/patient-rows';

let fx: HostFixture;
beforeEach(() => {
  fx = startTestHost();
});
afterEach(async () => {
  await fx.cleanup();
});

const DESK = { source: 'dashboard' } as const;
const PAYER = SEED_CLEARINGHOUSE_ENTITIES[0];

async function call<T>(method: string, input: unknown): Promise<T> {
  const result = await dispatchBridgeCall(fx.host.bridge, method, input);
  if (!result.ok) throw new Error(`${method}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}

async function patientWithCard(first: string, last: string, dob: string, memberId: string) {
  const patient = await fx.host.service.create('patients', { first_name: first, last_name: last, date_of_birth: dob }, DESK);
  const card = await fx.host.service.create(
    'insurance_cards',
    { patient_id: patient.id, member_id: memberId, plan_name: 'Gold PPO', insurance_carrier_ids: [PAYER.id] },
    DESK,
  );
  return { patient, card };
}

async function check(cardId: string) {
  return fx.host.service.create(
    'electronic_eligibility_checks',
    { insurance_card_id: cardId, provider_id: SEED_PROVIDERS[0].id, clearinghouse_entity_id: PAYER.id, service_type: 'health_benefit_plan_coverage' },
    DESK,
  );
}

/** What the sync worker does when the upstream answers: the check's outcome, written in place. */
function finishCheck(id: string, status: 'success' | 'failure', benefits: Pick<Benefit, 'code'>[] = []) {
  const full = benefits.map((b) => ({ x12_code: '1', service_types: ['health_benefit_plan_coverage'], in_network: 'yes', messages: [], ...b }));
  fx.host.database.sqlite
    .prepare(`UPDATE electronic_eligibility_checks SET status = ?, benefits = ?, finished_at = ? WHERE id = ?`)
    .run(status, JSON.stringify(full), new Date().toISOString(), id);
}

type Rows = { data: { patient_id: string; first_name: string; eligibility: string; sync_state: string; member_id?: string; payer_name?: string; plan_name?: string }[] };

describe('desk read models', () => {
  it("Today lists the day's patients, newest activity first, with card and latest eligibility", async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    const ada = await patientWithCard('Ada', 'Lovelace', '1985-12-10', 'XJ-44 102');
    const alan = await patientWithCard('Alan', 'Turing', '1972-06-23', 'TUR 900');
    const grace = await patientWithCard('Grace', 'Hopper', '1966-12-09', 'HOP1');
    const adaCheck = await check(ada.card.id);
    finishCheck(adaCheck.id, 'success', [{ code: 'active_coverage' }, { code: 'co_payment' }]);
    const alanCheck = await check(alan.card.id);
    finishCheck(alanCheck.id, 'success', [{ code: 'inactive' }]);
    const graceCheck = await check(grace.card.id);
    finishCheck(graceCheck.id, 'failure');
    const none = await fx.host.service.create('patients', { first_name: 'Nina', last_name: 'Simone', date_of_birth: '1990-02-21' }, DESK);
    const pending = await patientWithCard('Pat', 'Pending', '2001-01-01', 'P1');
    await check(pending.card.id);

    const today = await call<Rows>('desk.today', { since });
    const byName = Object.fromEntries(today.data.map((r) => [r.first_name, r]));
    expect(byName.Ada).toMatchObject({ eligibility: 'active', member_id: 'XJ-44 102', payer_name: PAYER.name, plan_name: 'Gold PPO', sync_state: 'queued' });
    expect(byName.Alan.eligibility).toBe('inactive');
    expect(byName.Grace.eligibility).toBe('failed');
    expect(byName.Nina).toMatchObject({ eligibility: 'none', patient_id: none.id });
    expect(byName.Pat.eligibility).toBe('pending');
    // Newest activity first: Pat's check is the last thing that happened.
    expect(today.data[0].first_name).toBe('Pat');

    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    expect((await call<Rows>('desk.today', { since: tomorrow })).data).toEqual([]);
  });

  it("Today is four statements whatever the day's size: patients and cards read once for who and when, not again for the newest activity", async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    for (let i = 0; i < 30; i++) {
      const { card } = await patientWithCard(`P${i}`, 'Count', '1980-01-01', `M${i}`);
      if (i % 2 === 0) finishCheck((await check(card.id)).id, 'success', [{ code: 'active_coverage' }]);
    }
    await fx.host.service.create('patients', { first_name: 'No', last_name: 'Card', date_of_birth: '1990-02-21' }, DESK);
    const db = fx.host.database.db;

    const { result, sql } = statementsRun(fx.host.database.sqlite, () => todayRows(db, { since }));
    expect(result).toHaveLength(31);
    // Who is on Today with their newest activity, then current cards, their checks, outbox states.
    expect(sql).toHaveLength(4);
    expect(reading(sql, 'patients')).toHaveLength(1);
    expect(reading(sql, 'insurance_cards')).toHaveLength(2);
    expect(reading(sql, 'electronic_eligibility_checks')).toHaveLength(2);
    // The same rows, newest activity and all, as the search path's reading of the same patients.
    expect(result).toEqual(deskPatientRows(db, result.map((row) => row.patient_id)));
  });

  it("Today's first rows (issue 31): the full read's first rows, in its order and shaped alike, and how many are on Today; more than the maximum refused, naming the field", async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    for (let i = 0; i < 12; i++) {
      const { card } = await patientWithCard(`P${i}`, 'First', '1980-01-01', `M${i}`);
      if (i % 3 === 0) finishCheck((await check(card.id)).id, 'success', [{ code: 'active_coverage' }]);
    }
    await fx.host.service.create('patients', { first_name: 'No', last_name: 'Card', date_of_birth: '1990-02-21' }, DESK);
    const full = await call<Rows & { total?: number }>('desk.today', { since });
    expect(full.data).toHaveLength(13);
    expect(full.total).toBeUndefined();

    const first = await call<Rows & { total?: number }>('desk.today', { since, first: 5 });
    expect(first.data).toEqual(full.data.slice(0, 5));
    expect(first.total).toBe(13);
    // Only those rows are shaped: their cards and checks, not every patient's.
    const db = fx.host.database.db;
    const { sql } = statementsRun(fx.host.database.sqlite, () => firstTodayRows(db, { since, first: 5 }));
    expect(sql).toHaveLength(4);

    expect(await call<Rows & { total?: number }>('desk.today', { since, first: 50 })).toMatchObject({ data: full.data, total: 13 });
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    expect(await call<Rows & { total?: number }>('desk.today', { since: tomorrow, first: 5 })).toMatchObject({ data: [], total: 0 });

    const bad = await dispatchBridgeCall(fx.host.bridge, 'desk.today', { since, first: 501 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.errors?.[0]?.path).toBe('first');
  });

  it("Today's changes (issue 31): the rows of the patients the changed records belong to, as a full read gives them, and what sync moved since the last answer", async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    const ada = await patientWithCard('Ada', 'Lovelace', '1985-12-10', 'A1');
    const alan = await patientWithCard('Alan', 'Turing', '1972-06-23', 'T1');
    await patientWithCard('Grace', 'Hopper', '1966-12-09', 'H1');
    const full = await call<Rows & { as_of: string }>('desk.today', { since });
    expect(full.data).toHaveLength(3);

    // Alan's check made and answered: named by its id, it reads Alan's row and no one else's.
    const alanCheck = await check(alan.card.id);
    finishCheck(alanCheck.id, 'success', [{ code: 'active_coverage' }]);
    const db = fx.host.database.db;
    const { result, sql } = statementsRun(fx.host.database.sqlite, () => todayChanges(db, { since, record_ids: [alanCheck.id, 'ext_unknown'] }, full.as_of));
    expect(result.patient_ids).toEqual([alan.patient.id]);
    const now = await call<Rows>('desk.today', { since });
    expect(result.data).toEqual(now.data.filter((row) => row.patient_id === alan.patient.id));
    expect(result.data[0].eligibility).toBe('active');
    expect(reading(sql, 'patients').length).toBeLessThanOrEqual(3);

    // The worker sends Ada's card: no record of hers changed, her row's marker did.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const before = await call<{ data: Rows['data']; patient_ids: string[]; as_of: string }>('desk.todayChanges', { since, record_ids: [], outbox_since: new Date().toISOString() });
    // Nothing moved since: no one.
    expect(before.patient_ids).toEqual([]);
    const cursor = before.as_of;
    fx.host.database.sqlite.prepare(`UPDATE outbox SET state = 'synced', updated_at = ? WHERE record_id IN (?, ?)`).run(new Date(Date.parse(cursor) + 1).toISOString(), ada.patient.id, ada.card.id);
    const moved = await call<{ data: Rows['data']; patient_ids: string[] }>('desk.todayChanges', { since, record_ids: [], outbox_since: cursor });
    expect(moved.patient_ids).toContain(ada.patient.id);
    expect(moved.data.find((row) => row.patient_id === ada.patient.id)?.sync_state).toBe('synced');
    // An entry that moved but still waits (refused, say) names its patient too.
    fx.host.database.sqlite.prepare(`UPDATE outbox SET state = 'failed', updated_at = ? WHERE record_id = ?`).run(new Date(Date.parse(cursor) + 2).toISOString(), alan.card.id);
    const failed = await call<{ data: Rows['data']; patient_ids: string[] }>('desk.todayChanges', { since, record_ids: [], outbox_since: new Date(Date.parse(cursor) + 2).toISOString() });
    expect(failed.patient_ids).toEqual([alan.patient.id]);

    // Someone not on Today since `since`: named, but no row (the desk drops them from its list).
    const later = new Date(Date.now() + 60_000).toISOString();
    const gone = await call<{ data: Rows['data']; patient_ids: string[] }>('desk.todayChanges', { since: later, record_ids: [ada.patient.id] });
    expect(gone).toMatchObject({ data: [], patient_ids: [ada.patient.id] });

    const bad = await dispatchBridgeCall(fx.host.bridge, 'desk.todayChanges', { since, record_ids: Array.from({ length: 5001 }, (_, i) => `pat_${i}`) });
    expect(bad).toMatchObject({ ok: false, error: { code: 'validation_failed', errors: [{ path: 'record_ids' }] } });
  });

  it('finds patients by name words, date of birth as typed at a desk, or member id without spaces and dashes', async () => {
    await patientWithCard('Mary', "O'Brien-Smith", '1984-03-07', 'XJ-44 102');
    await patientWithCard('Marty', 'McFly', '1968-06-12', 'BTTF 1985');
    const names = async (query: string) => (await call<Rows>('desk.findPatients', { query })).data.map((r) => r.first_name).sort();

    expect(await names('mar')).toEqual(['Marty', 'Mary']);
    expect(await names('obrien')).toEqual(['Mary']);
    expect(await names('smith, mary')).toEqual(['Mary']);
    expect(await names('mcfly marty')).toEqual(['Marty']);
    expect(await names('03/07/1984')).toEqual(['Mary']);
    expect(await names('1984-03-07')).toEqual(['Mary']);
    expect(await names('xj44')).toEqual(['Mary']);
    expect(await names('bttf-1985')).toEqual(['Marty']);
    expect(await names('%')).toEqual([]);
    expect(await names('zzz')).toEqual([]);
  });

  it('refuses an empty or overlong query and an unknown patient with coded errors', async () => {
    for (const query of ['', '   ', 'x'.repeat(101)]) {
      const result = await dispatchBridgeCall(fx.host.bridge, 'desk.findPatients', { query });
      expect(result).toMatchObject({ ok: false, error: { code: 'validation_failed', errors: [{ path: 'query' }] } });
    }
    const missing = await dispatchBridgeCall(fx.host.bridge, 'desk.patient', { id: 'pat_01JD0000000000000000000000' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'resource_not_found', status: 404 } });
    const badSince = await dispatchBridgeCall(fx.host.bridge, 'desk.today', { since: 'today' });
    expect(badSince).toMatchObject({ ok: false, error: { code: 'validation_failed', errors: [{ path: 'since' }] } });
  });

  it("one patient's detail: cards, checks and discoveries newest first, each with its sync state", async () => {
    const { patient, card } = await patientWithCard('Ada', 'Lovelace', '1985-12-10', 'M1');
    const second = await fx.host.service.create('insurance_cards', { patient_id: patient.id, member_id: 'M2' }, DESK);
    const first = await check(card.id);
    const latest = await check(second.id);
    const discovery = await fx.host.service.create('electronic_eligibility_discoveries', { insurance_card_id: second.id, source: 'dashboard' }, DESK);
    await patientWithCard('Someone', 'Else', '1990-01-01', 'M3');

    const detail = await call<{ patient: { id: string }; cards: { id: string; sync?: { state: string } }[]; checks: { id: string }[]; discoveries: { id: string }[] }>(
      'desk.patient',
      { id: patient.id },
    );
    expect(detail.patient.id).toBe(patient.id);
    expect(detail.cards.map((c) => c.id)).toEqual([second.id, card.id]);
    expect(detail.cards[0].sync?.state).toBe('queued');
    expect(detail.checks.map((c) => c.id)).toEqual([latest.id, first.id]);
    expect(detail.discoveries.map((d) => d.id)).toEqual([discovery.id]);
  });
});
