import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import { socketPath } from '@src/main/local-api/endpoints';
import { tokenPath } from '@src/main/local-api/token-file';
import { SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { httpRequest } from '@test/support/http-request';
import { manualClock } from '@test/support/manual-clock';

/**
 * Good Faith Estimates for self-pay visits (issue 30, item 5) on a real host with its SQLite
 * file: marked self-pay, due on the worklist by the rule's deadline, issued once from the fee
 * schedule, the same document read back (bridge and local API), bad input refused whole.
 */
const PRACTICE = { facility_name: 'Riverside Family Practice', facility_npi: '1245319599', tin: '12-3456789', location: '12 Main St, Springfield, IL 62701' };
const FEES = 'Visit type,Payer,Allowed\n99203,default,165\n36415,default,12\n80053,default,48.50\n';
// Monday, November 23, 2026 (Thanksgiving is Thursday the 26th).
const NOW = '2026-11-23T15:00:00.000Z';

async function setUp(fx: HostFixture) {
  const { bridge } = fx.host;
  await bridge['feeSchedule.import']({ text: FEES });
  await bridge['appointments.updateSettings']({ visit_types: { 'new patient visit': 'professional_physician_visit_office', 'follow up': 'professional_physician_visit_office' } });
  const person = { first_name: 'Ada', last_name: 'Byron', date_of_birth: '1985-12-10' };
  await bridge['patients.create'](person);
  const soon = await bridge['appointments.create']({ date: '2026-11-30', time: '09:00', ...person, visit_type: 'New patient visit', provider: SEED_PROVIDERS[0].id });
  const later = await bridge['appointments.create']({ date: '2026-12-14', time: '10:00', ...person, visit_type: 'Follow up', provider: SEED_PROVIDERS[0].id });
  return { soon: soon.appointment.id, later: later.appointment.id };
}

describe('Good Faith Estimates', () => {
  let fx: HostFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it('a self-pay visit is due on the worklist by the rule’s deadline, issued once with the fee schedule’s charges, and read back the same', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false, clock: manualClock(NOW) });
    const { bridge } = fx.host;
    const { soon, later } = await setUp(fx);

    // Booked Monday for the Monday after (4 business days, Thanksgiving excluded): due Tuesday.
    const due = await bridge['gfe.markSelfPay']({ appointment_id: soon, requested: false });
    expect(due).toMatchObject({ state: 'due', rule: 'scheduled_3_to_9', due_on: '2026-11-24', scheduled_on: '2026-11-23', requested_on: null, document: null });
    // 14 business days ahead: 3 business days, skipping Thanksgiving.
    expect(await bridge['gfe.markSelfPay']({ appointment_id: later, requested: false })).toMatchObject({ rule: 'scheduled_10_or_more', due_on: '2026-11-27' });
    // Marking again is the same GFE; asking for one on request keeps the earlier deadline.
    expect((await bridge['gfe.markSelfPay']({ appointment_id: soon, requested: true })).id).toBe(due.id);

    const day = await bridge['appointments.worklist']({ date: '2026-11-30' });
    expect(day.rows[0].gfe).toMatchObject({ id: due.id, state: 'due', due_on: '2026-11-24' });
    expect(day.rows[0].gfe).not.toHaveProperty('document');

    const issued = await bridge['gfe.issue']({
      appointment_id: soon,
      primary_service: 'New patient office visit',
      items: [{ code: '99203', quantity: 1 }, { code: '36415', description: 'Blood draw', quantity: 1 }, { code: '80053', description: 'Metabolic panel', quantity: 2 }],
      diagnosis_codes: ['e11.9'],
      scheduled_separately: ['Retinal exam'],
      practice: PRACTICE,
    });
    expect(issued).toMatchObject({ id: due.id, state: 'issued', issued_at: NOW });
    expect(issued.document).toMatchObject({
      issued_on: '2026-11-23',
      service_on: '2026-11-30',
      patient: { first_name: 'Ada', last_name: 'Byron', date_of_birth: '1985-12-10' },
      provider: { name: SEED_PROVIDERS[0].name, npi: SEED_PROVIDERS[0].npi },
      facility: { name: 'Riverside Family Practice', npi: '1245319599', tin: '12-3456789', location: PRACTICE.location },
      total_cents: 16500 + 1200 + 9700,
      diagnosis_codes: ['E11.9'],
      scheduled_separately: ['Retinal exam'],
    });
    expect(issued.document!.disclaimers.join(' ')).toMatch(/at least \$400 more/);
    // Stored whole: a later fee schedule does not change a GFE already given.
    await bridge['feeSchedule.import']({ text: 'Visit type,Payer,Allowed\n99203,default,500\n' });
    expect(await bridge['gfe.get']({ id: due.id })).toEqual(issued);
    const again = await dispatchBridgeCall(fx.host.bridge, 'gfe.issue', { appointment_id: soon, items: [{ code: '99203' }] });
    expect(again).toMatchObject({ ok: false, error: { errors: [{ path: 'appointment_id', code: 'already_issued' }] } });
    // The practice's details are kept for the next GFE.
    expect(await bridge['gfe.practice']({})).toEqual({ practice: PRACTICE });
    const second = await bridge['gfe.issue']({ appointment_id: later, items: [{ code: '99203', quantity: 1 }], diagnosis_codes: [], scheduled_separately: [] });
    expect(second.document).toMatchObject({ facility: { tin: '12-3456789' }, total_cents: 50000, primary_service: 'Follow up' });
    // Printing and viewing are in the audit trail, by the GFE's id.
    const audited = fx.host.database.sqlite.prepare("SELECT action, record_id FROM audit_log WHERE record_id = ?").all(due.id);
    expect(audited).toEqual([{ action: 'view', record_id: due.id }]);
  });

  it('refuses a GFE without the practice’s details, with an item that has no charge or a bad code, naming each, and writes nothing', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false, clock: manualClock(NOW) });
    const { soon } = await setUp(fx);
    const before = fx.snapshot();
    const noPractice = await dispatchBridgeCall(fx.host.bridge, 'gfe.issue', { appointment_id: soon, items: [{ code: '99203' }] });
    expect(noPractice).toMatchObject({ ok: false, error: { code: 'validation_failed', errors: [{ path: 'practice', code: 'practice_required' }] } });
    const noCharge = await dispatchBridgeCall(fx.host.bridge, 'gfe.issue', { appointment_id: soon, items: [{ code: '99203' }, { code: '99215' }], practice: PRACTICE });
    expect(noCharge).toMatchObject({ ok: false, error: { errors: [{ path: 'items[1].code', code: 'no_charge' }] } });
    const badCode = await dispatchBridgeCall(fx.host.bridge, 'gfe.issue', { appointment_id: soon, items: [{ code: 'visit' }], practice: { ...PRACTICE, tin: '123' } });
    expect(badCode.ok).toBe(false);
    if (!badCode.ok) expect(badCode.error.errors!.map((e) => e.path).sort()).toEqual(['items.0.code', 'practice.tin']);
    for (const answer of [noPractice, noCharge, badCode]) if (!answer.ok) expect(answer.error.message).not.toMatch(/Ada|Byron|1985/);
    expect(fx.snapshot()).toEqual(before);
  });

  it('GET /v1/good_faith_estimates/{id} on the local API answers the document as issued', async () => {
    fx = startTestHost({ localApi: {}, hotFolder: false, clock: manualClock(NOW) });
    await fx.host.start();
    const { soon } = await setUp(fx);
    const issued = await fx.host.bridge['gfe.issue']({ appointment_id: soon, items: [{ code: '99203', quantity: 1 }], diagnosis_codes: [], scheduled_separately: [], practice: PRACTICE });
    const target = { socketPath: socketPath(fx.dataDir) };
    const auth = `Bearer ${fs.readFileSync(tokenPath(fx.dataDir), 'utf8').trim()}`;
    const answer = await httpRequest(target, { path: `/v1/good_faith_estimates/${issued.id}`, headers: { authorization: auth } });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual(issued);
    const missing = await httpRequest(target, { path: '/v1/good_faith_estimates/gfe_01JZZZZZZZZZZZZZZZZZZZZZZZ', headers: { authorization: auth } });
    expect(missing.status).toBe(404);
  });
});
