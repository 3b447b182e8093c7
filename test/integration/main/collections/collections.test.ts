import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { localDate } from '@src/main/appointments/appointment-import';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import { socketPath } from '@src/main/local-api/endpoints';
import { tokenPath } from '@src/main/local-api/token-file';
import { SEED_CLEARINGHOUSE_ENTITIES } from '@src/main/reference/seed-data';
import { answeredCheck } from '@test/support/collections/answered-check';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { httpRequest, type HttpAnswer } from '@test/support/http-request';
import { expectAnswerMatchesDocument } from '@test/support/openapi-validator';
import { manualClock } from '@test/support/manual-clock';
import { reading, statementsRunAsync } from '@test/support/statement-counter';

/**
 * Collections at the window and the end-of-day report (issue 30, items 3, 4 and 6), on a
 * real host with its encrypted SQLite file: through the bridge, and through the local API's
 * real HTTP layer on its socket.
 */
const [AETNA] = SEED_CLEARINGHOUSE_ENTITIES;
/** oop_5010_Example_3_1_2: a $10 office-visit copay and nothing else for the service, so the estimate is exactly $10.00. */
const COPAY_271 = 'oop_5010_Example_3_1_2.x12';
const FEES = 'Visit type,Payer,Allowed\nOffice visit,default,100\nLab,default,250\n';

function start(): HostFixture {
  return startTestHost({ localApi: {}, hotFolder: false, clock: manualClock('2026-11-23T15:00:00.000Z'), deskName: 'Front desk 1' });
}

function api(fx: HostFixture) {
  const target = { socketPath: socketPath(fx.dataDir) };
  const auth = `Bearer ${fs.readFileSync(tokenPath(fx.dataDir), 'utf8').trim()}`;
  // Every answer is also checked against the OpenAPI document it is declared in.
  const checked = async (method: string, path: string, answer: Promise<HttpAnswer>) => {
    const got = await answer;
    expectAnswerMatchesDocument(method, path, got);
    return got;
  };
  return {
    post: (path: string, body: unknown, headers: Record<string, string> = {}) =>
      checked('POST', path, httpRequest(target, { method: 'POST', path, headers: { 'content-type': 'application/json', authorization: auth, ...headers }, body: JSON.stringify(body) })),
    get: (path: string) => checked('GET', path, httpRequest(target, { path, headers: { authorization: auth } })),
  };
}

const collectionRows = (fx: HostFixture) => fx.host.database.sqlite.prepare('SELECT COUNT(*) AS n FROM collections').get() as { n: number };

describe('collections', () => {
  let fx: HostFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it('records a payment with the estimate shown, voids it with a new entry, refuses a void of a void, and audits each', async () => {
    fx = start();
    await fx.host.bridge['feeSchedule.import']({ text: FEES });
    const { checkId, patientId } = await answeredCheck(fx, COPAY_271, AETNA.id);
    const paid = await fx.host.bridge['collections.record']({
      kind: 'payment',
      amount_cents: 1000,
      method: 'card',
      card_reference: 'TRM-88121',
      taken_by: 'JD',
      patient_id: patientId,
      check_id: checkId,
      visit_type: 'Office visit',
    });
    const today = localDate(fx.host.clock.now());
    expect(paid).toMatchObject({
      kind: 'payment',
      amount_cents: 1000,
      method: 'card',
      card_reference: 'TRM-88121',
      taken_by: 'JD',
      desk: 'Front desk 1',
      source: 'dashboard',
      patient_id: patientId,
      visit_date: today,
      date: today,
      estimate: { check_id: checkId, visit_type: 'Office visit', min_cents: 1000, max_cents: 1000, headline: 'Collect today: $10.00' },
      voids_id: null,
      voided_by_id: null,
    });
    // The desk typed who it was once: the app remembers it for the next payment.
    expect(await fx.host.bridge['collections.deskSettings']({})).toEqual({ taken_by: 'JD', practice_name: null, desk: 'Front desk 1' });

    // From the Eligibility summary the check alone names the visit: its patient's, today.
    const byCheck = await fx.host.bridge['collections.record']({ kind: 'payment', amount_cents: 500, method: 'cash', taken_by: 'JD', check_id: checkId });
    expect(byCheck).toMatchObject({ patient_id: patientId, visit_date: today, estimate: { check_id: checkId, visit_type: null } });

    const voided = await fx.host.bridge['collections.void']({ id: paid.id, taken_by: 'MK', reason: 'rang up twice' });
    expect(voided).toMatchObject({ kind: 'void', voids_id: paid.id, amount_cents: 1000, method: 'card', taken_by: 'MK', patient_id: patientId });
    const day = await fx.host.bridge['collections.list']({ date: today });
    expect(day.data.map((e) => [e.id, e.kind, e.voided_by_id])).toEqual([
      [paid.id, 'payment', voided.id],
      [byCheck.id, 'payment', null],
      [voided.id, 'void', null],
    ]);

    const before = collectionRows(fx);
    const voidOfVoid = await dispatchBridgeCall(fx.host.bridge, 'collections.void', { id: voided.id, taken_by: 'JD' });
    expect(voidOfVoid).toMatchObject({ ok: false, error: { status: 422, errors: [{ path: 'id', code: 'void_of_void' }] } });
    const twice = await dispatchBridgeCall(fx.host.bridge, 'collections.void', { id: paid.id, taken_by: 'JD' });
    expect(twice).toMatchObject({ ok: false, error: { status: 422, errors: [{ path: 'id', code: 'already_voided' }] } });
    expect(collectionRows(fx)).toEqual(before);

    const audited = fx.host.audit.list({ limit: 50 }).data.filter((e) => e.record_id.startsWith('col_'));
    expect(audited.map((e) => [e.action, e.record_id])).toEqual([
      ['create', voided.id],
      ['create', byCheck.id],
      ['create', paid.id],
    ]);
    // Nothing is edited or deleted: the table itself refuses.
    expect(() => fx!.host.database.sqlite.prepare('UPDATE collections SET amount_cents = 1').run()).toThrow(/append-only/);
    expect(() => fx!.host.database.sqlite.prepare('DELETE FROM collections').run()).toThrow(/append-only/);
  });

  it('refuses each bad collection through the local API, naming the field, and writes nothing', async () => {
    fx = start();
    await fx.host.start();
    await fx.host.bridge['feeSchedule.import']({ text: FEES });
    const { checkId, patientId } = await answeredCheck(fx, COPAY_271, AETNA.id);
    const other = await answeredCheck(fx, COPAY_271, AETNA.id);
    const call = api(fx);
    const good = { amount_cents: 1000, method: 'cash', taken_by: 'JD', patient_id: patientId, check_id: checkId, visit_type: 'Office visit' };
    const before = fx.snapshot();
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['$0', { amount_cents: 0 }, 'amount_cents', 'zero_amount'],
      ['negative', { amount_cents: -500 }, 'amount_cents', 'negative_amount'],
      ['a fraction of a cent', { amount_cents: 999.5 }, 'amount_cents', 'not_whole_cents'],
      ['dollars as text', { amount_cents: '10.00' }, 'amount_cents', 'invalid_type'],
      ['more than the estimate, unconfirmed', { amount_cents: 1001 }, 'amount_cents', 'over_estimate'],
      ['a card number as the reference', { method: 'card', card_reference: '4111 1111 1111 1111' }, 'card_reference', 'card_number_refused'],
      ['a card without the terminal reference', { method: 'card' }, 'card_reference', 'required'],
      ['a check without its number', { method: 'check' }, 'check_number', 'required'],
      ['an unknown method', { method: 'bitcoin' }, 'method', 'invalid_enum_value'],
      ['an unknown patient', { patient_id: 'pat_01JZZZZZZZZZZZZZZZZZZZZZZZ', check_id: undefined }, 'patient_id', 'not_found'],
      ['an unknown appointment', { appointment_id: 'apt_01JZZZZZZZZZZZZZZZZZZZZZZZ' }, 'appointment_id', 'not_found'],
      ['no visit at all', { patient_id: undefined, check_id: undefined }, 'appointment_id', 'visit_required'],
      ["another patient's check", { check_id: other.checkId }, 'check_id', 'not_the_patient_check'],
      ['an unknown check', { check_id: 'eec_01JZZZZZZZZZZZZZZZZZZZZZZZ' }, 'check_id', 'not_found'],
      ['nobody took it', { taken_by: '' }, 'taken_by', 'too_small'],
    ];
    for (const [what, change, path, code] of cases) {
      const answer = await call.post('/v1/collections', { ...good, ...change });
      expect({ what, status: answer.status, errors: answer.json.error.errors }).toEqual({
        what,
        status: 422,
        errors: expect.arrayContaining([expect.objectContaining({ path, code, message: expect.stringMatching(path === 'card_reference' && code === 'card_number_refused' ? /card number/ : /./) })]),
      });
      // No PHI in what is answered: the patient's name never appears in an error.
      expect(answer.text).not.toContain('Byron');
    }
    expect(fx.snapshot()).toEqual(before);

    // Confirmed, the same amount above the estimate is taken.
    const over = await call.post('/v1/collections', { ...good, amount_cents: 1500, confirm_over_estimate: true });
    expect(over.status).toBe(201);
    expect(over.json).toMatchObject({ amount_cents: 1500, source: 'api', estimate: { max_cents: 1000 } });
    // A retry with the same Idempotency-Key takes the money once.
    const first = await call.post('/v1/collections', { ...good, method: 'check', check_number: '1042' }, { 'idempotency-key': 'pos-77' });
    const again = await call.post('/v1/collections', { ...good, method: 'check', check_number: '1042' }, { 'idempotency-key': 'pos-77' });
    expect([first.status, again.status, again.headers['idempotent-replayed']]).toEqual([201, 201, 'true']);
    expect(again.json.id).toBe(first.json.id);

    const voided = await call.post(`/v1/collections/${over.json.id}/void`, { taken_by: 'MK' });
    expect(voided.status).toBe(201);
    expect(voided.json).toMatchObject({ kind: 'void', voids_id: over.json.id, source: 'api' });
    const voidOfVoid = await call.post(`/v1/collections/${voided.json.id}/void`, { taken_by: 'MK' });
    expect(voidOfVoid.status).toBe(422);
    expect(voidOfVoid.json.error.errors).toEqual([expect.objectContaining({ path: 'id', code: 'void_of_void' })]);
    const unknown = await call.post('/v1/collections/col_01JZZZZZZZZZZZZZZZZZZZZZZZ/void', { taken_by: 'MK' });
    expect(unknown.status).toBe(404);

    const listed = await call.get(`/v1/collections?date=${localDate(fx.host.clock.now())}`);
    expect(listed.status).toBe(200);
    expect(listed.json.data.map((e: { kind: string; amount_cents: number }) => [e.kind, e.amount_cents])).toEqual([
      ['payment', 1500],
      ['payment', 1000],
      ['void', 1500],
    ]);
    const badDate = await call.get('/v1/collections?date=2026-02-30');
    expect(badDate.status).toBe(422);
    expect(badDate.json.error.errors[0].path).toBe('date');
    // The local API's entries are audited under its own channel.
    const audited = fx.host.audit.list({ limit: 50 }).data.filter((e) => e.record_id.startsWith('col_'));
    expect(audited).toHaveLength(3);
    expect(audited.every((e) => e.actor.endsWith('(local API)'))).toBe(true);
  });

  it('adds up the end of day: expected vs collected net of voids, by method, per desk and person, and the visits with nothing collected and why', async () => {
    fx = start();
    await fx.host.bridge['feeSchedule.import']({ text: FEES });
    const today = localDate(fx.host.clock.now());
    const book = async (time: string, first: string) =>
      (
        await fx!.host.bridge['appointments.create']({ date: today, time, first_name: first, last_name: 'Tester', date_of_birth: '1980-01-01', visit_type: 'Office visit' })
      ).appointment;
    const a = await book('09:00', 'Ann');
    const b = await book('09:30', 'Ben');
    const c = await book('10:00', 'Cal');
    const d = await book('10:30', 'Dee');
    const e = await book('11:00', 'Eve');
    await book('11:30', 'Fay');
    // Ann, Ben, Cal and Dee were checked: $10.00 each; Eve and Fay were not, so they have no estimate.
    for (const appointment of [a, b, c, d]) await answeredCheck(fx, COPAY_271, AETNA.id, { patientId: appointment.patient_id! });
    const record = (input: Record<string, unknown>) => fx!.host.bridge['collections.record']({ taken_by: 'JD', ...input } as never);
    await record({ appointment_id: a.id, amount_cents: 1000, method: 'cash' });
    const wrong = await record({ appointment_id: b.id, amount_cents: 1000, method: 'card', card_reference: 'T-1' });
    await fx.host.bridge['collections.void']({ id: wrong.id, taken_by: 'MK' });
    await record({ appointment_id: b.id, amount_cents: 1000, method: 'check', check_number: '301', taken_by: 'MK' });
    await record({ appointment_id: c.id, kind: 'declined', reason: 'will pay online' });
    await record({ appointment_id: e.id, kind: 'waived', reason: 'hardship' });

    const report = await fx.host.bridge['collections.endOfDay']({ date: today });
    expect(report).toMatchObject({
      date: today,
      expected_min_cents: 4000,
      expected_max_cents: 4000,
      collected_cents: 2000,
      by_method: { cash: 1000, check: 1000, card: 0 },
    });
    // A desk's or a person's expected is that of the visits they recorded something for.
    expect(report.by_desk).toEqual([{ name: 'Front desk 1', expected_min_cents: 3000, expected_max_cents: 3000, collected_cents: 2000, by_method: { cash: 1000, check: 1000, card: 0 }, entries: 6 }]);
    expect(report.by_person.map((g) => [g.name, g.expected_min_cents, g.collected_cents, g.by_method, g.entries])).toEqual([
      ['JD', 3000, 2000, { cash: 1000, check: 0, card: 1000 }, 4],
      ['MK', 1000, 0, { cash: 0, check: 1000, card: -1000 }, 2],
    ]);
    expect(report.visits.map((v) => [v.name, v.collected_cents, v.status, v.reason])).toEqual([
      ['Ann Tester', 1000, 'collected', null],
      ['Ben Tester', 1000, 'collected', null],
      ['Cal Tester', 0, 'declined', 'will pay online'],
      ['Dee Tester', 0, 'not_collected', null],
      ['Eve Tester', 0, 'waived', 'hardship'],
      ['Fay Tester', 0, 'no_estimate', null],
    ]);
    // The report adds up: the visits' amounts are what was collected, by method and in all.
    expect(report.visits.reduce((sum, v) => sum + v.collected_cents, 0)).toBe(report.collected_cents);
    expect(report.by_method.cash + report.by_method.check + report.by_method.card).toBe(report.collected_cents);
  });
  it("reads the day's checks for its estimates in one batch, not one visit at a time", async () => {
    fx = start();
    await fx.host.bridge['feeSchedule.import']({ text: FEES });
    const today = localDate(fx.host.clock.now());
    for (let i = 0; i < 8; i++) {
      const { appointment } = await fx.host.bridge['appointments.create']({ date: today, time: `09:${10 + i}`, first_name: `P${i}`, last_name: 'Tester', date_of_birth: '1980-01-01', visit_type: 'Office visit' });
      await answeredCheck(fx, COPAY_271, AETNA.id, { patientId: appointment.patient_id! });
    }
    const { result, sql } = await statementsRunAsync(fx.host.database.sqlite, () => fx!.host.bridge['collections.endOfDay']({ date: today }));
    expect(result.visits.map((v) => v.status)).toEqual(Array(8).fill('not_collected'));
    expect(result.expected_min_cents).toBe(8000);
    // Which check is each patient's latest, then those checks' answers: two reads for eight visits.
    expect(reading(sql, 'electronic_eligibility_checks')).toHaveLength(2);
  });
});
