import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import { socketPath } from '@src/main/local-api/endpoints';
import { tokenPath } from '@src/main/local-api/token-file';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { httpRequest } from '@test/support/http-request';
import { answeredCheck } from '@test/support/estimates/answered-check';

/**
 * The fee schedule (issue 30, item 1) and the estimate made from it (items 2 and 6), on a
 * real host with its encrypted SQLite file, through the bridge and through the local API's
 * real HTTP layer on its socket.
 */
const DESK = { source: 'dashboard' } as const;
const [AETNA, CIGNA] = SEED_CLEARINGHOUSE_ENTITIES;

const GOOD = ['Visit type,Payer,Allowed', 'Office visit,Aetna,$125.00', 'Office visit,default,100', 'Lab,default,"1,200.50"', '99213,60054,98.10'].join('\n');

const b64 = (text: string) => Buffer.from(text).toString('base64');

function settingsRows(fx: HostFixture): string {
  return JSON.stringify(fx.host.database.sqlite.prepare("SELECT * FROM settings WHERE key LIKE 'fee_schedule%' ORDER BY key").all());
}

async function refused(fx: HostFixture, text: string) {
  const answer = await dispatchBridgeCall(fx.host.bridge, 'feeSchedule.import', { data_base64: b64(text) });
  if (answer.ok) throw new Error('expected the fee schedule to be refused');
  return answer.error;
}

describe('the fee schedule', () => {
  let fx: HostFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it('imports per-payer and default rows, reads them back, and exports CSV the import reads to the same rows', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    const empty = await fx.host.bridge['feeSchedule.get']({});
    expect(empty).toEqual({ rows: [], imported_at: null, freshness_days: 30 });
    const imported = await fx.host.bridge['feeSchedule.import']({ text: GOOD });
    expect(imported.imported).toBe(4);
    expect(imported.schedule.rows).toEqual([
      { service: 'Office visit', payer: 'Aetna', clearinghouse_entity_id: AETNA.id, allowed_cents: 12500 },
      { service: 'Office visit', payer: null, clearinghouse_entity_id: null, allowed_cents: 10000 },
      { service: 'Lab', payer: null, clearinghouse_entity_id: null, allowed_cents: 120050 },
      { service: '99213', payer: '60054', clearinghouse_entity_id: AETNA.id, allowed_cents: 9810 },
    ]);
    const exported = await fx.host.bridge['feeSchedule.export']({});
    expect(exported.csv).toBe('Visit type,Payer,Allowed\r\nOffice visit,Aetna,125.00\r\nOffice visit,default,100.00\r\nLab,default,1200.50\r\n99213,60054,98.10\r\n');
    const again = await fx.host.bridge['feeSchedule.import']({ text: exported.csv });
    expect(again.schedule.rows).toEqual(imported.schedule.rows);
    // TSV with other header names, as billing systems write them
    const tsv = await fx.host.bridge['feeSchedule.import']({ text: 'CPT Code\tPayor\tAllowed Amount\n99214\t\t150\n' });
    expect(tsv.schedule.rows).toEqual([{ service: '99214', payer: null, clearinghouse_entity_id: null, allowed_cents: 15000 }]);
  });

  it('adds, changes and removes one amount at a time; a bad amount or payer is named by its field and nothing is written; each change is audited', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    await fx.host.bridge['feeSchedule.import']({ text: GOOD });
    const added = await fx.host.bridge['feeSchedule.setRow']({ service: 'Flu shot', payer: 'default', allowed: '$35' });
    expect(added.rows.at(-1)).toEqual({ service: 'Flu shot', payer: null, clearinghouse_entity_id: null, allowed_cents: 3500 });
    // The same visit type (any case or spacing) and payer: changed in place, not a second row.
    const changed = await fx.host.bridge['feeSchedule.setRow']({ service: 'office  VISIT', payer: 'Aetna', allowed: '130.25' });
    expect(changed.rows.filter((row) => row.clearinghouse_entity_id === AETNA.id && row.service.toLowerCase().replace(/\s+/g, ' ') === 'office visit')).toEqual([
      { service: 'office  VISIT', payer: 'Aetna', clearinghouse_entity_id: AETNA.id, allowed_cents: 13025 },
    ]);
    expect(changed.rows).toHaveLength(5);

    const before = settingsRows(fx);
    for (const [input, path, message] of [
      [{ service: 'Lab', payer: 'No Such Payer Inc', allowed: '10' }, 'payer', /not in the payer directory/],
      [{ service: 'Lab', payer: '', allowed: '-5' }, 'allowed', /negative/],
      [{ service: 'Lab', payer: '', allowed: 'ten' }, 'allowed', /not a dollar amount/],
      [{ service: ' ', payer: '', allowed: '10' }, 'service', /no visit type/],
    ] as const) {
      const answer = await dispatchBridgeCall(fx.host.bridge, 'feeSchedule.setRow', input);
      expect(answer).toMatchObject({ ok: false, error: { code: 'validation_failed', errors: [{ path, message: expect.stringMatching(message) }] } });
    }
    expect(settingsRows(fx)).toBe(before);

    const removed = await fx.host.bridge['feeSchedule.removeRow']({ service: 'Flu shot', clearinghouse_entity_id: null });
    expect(removed.rows.some((row) => row.service === 'Flu shot')).toBe(false);
    const again = await dispatchBridgeCall(fx.host.bridge, 'feeSchedule.removeRow', { service: 'Flu shot', clearinghouse_entity_id: null });
    expect(again).toMatchObject({ ok: false, error: { code: 'resource_not_found' } });
    const audited = fx.host.audit.list({ limit: 20 }).data.filter((e) => e.record_id === 'setting:fee_schedule');
    expect(audited).toHaveLength(4); // the import, two saves, one removal
  });

  it('names every bad row (negative, missing or non-numeric amounts, duplicates, unknown payers) and writes nothing', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    await fx.host.bridge['feeSchedule.import']({ text: GOOD });
    const before = settingsRows(fx);
    const error = await refused(
      fx,
      [
        'Visit type,Payer,Allowed',
        'Office visit,Aetna,125.00', // row 2: good
        'Office visit,Aetna,-5', // 3: negative
        'Lab,default,', // 4: missing
        'X-ray,default,about 80', // 5: non-numeric
        'office  VISIT,Aetna,130', // 6: the same visit type and payer as row 2
        'Office visit,Acme Imaginary Health,90', // 7: unknown payer
        'Office visit,Cigna,(40.00)', // 8: negative, as accountants write it
        ',default,40', // 9: no visit type
        'Lab,default,12.345', // 10: fractions of a cent
      ].join('\n'),
    );
    expect(error).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(error.errors!.map((e) => [e.path, e.code])).toEqual([
      ['rows[3].allowed', 'negative_amount'],
      ['rows[4].allowed', 'missing_amount'],
      ['rows[5].allowed', 'invalid_amount'],
      ['rows[6].service', 'duplicate_row'],
      ['rows[7].payer', 'unknown_payer'],
      ['rows[8].allowed', 'negative_amount'],
      ['rows[9].service', 'missing_service'],
      ['rows[10].allowed', 'invalid_amount'],
    ]);
    expect(error.errors![3].message).toBe('Row 6 has the same visit type and payer as row 2: keep one amount for each.');
    expect(settingsRows(fx)).toBe(before);
    // A file without a header row, or without an amount column, is refused as a whole.
    expect((await refused(fx, 'Office visit,Aetna,125\nLab,default,40')).errors).toEqual([expect.objectContaining({ path: 'file', code: 'header_required' })]);
    expect((await refused(fx, 'Visit type,Payer\nLab,default')).errors).toEqual([expect.objectContaining({ path: 'file', code: 'header_required' })]);
    expect(settingsRows(fx)).toBe(before);
  });
});

describe('the estimate for a check', () => {
  let fx: HostFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it('reads the payer’s row, else the default row, else the copay alone; stale past the freshness window', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    await fx.host.bridge['feeSchedule.import']({ text: GOOD });
    // Aetna (dependent) for a lab visit: EB C IND 29 → 78.80 left, EB A 0% in network
    const aetna = await answeredCheck(fx, 'tigershark_271-dependent-benefits.x12', AETNA.id);
    const lab = await fx.host.bridge['estimates.forCheck']({ check_id: aetna, visit_type: 'Lab' });
    expect(lab).toMatchObject({ service_type: 'diagnostic_lab', allowed_cents: 120050, min_cents: 7880, max_cents: 7880, headline: 'Collect today: $78.80', stale: false });
    // Copay plan (EB B … 27 10 Y) at Cigna: no Cigna row, so the default's $100
    const cigna = await answeredCheck(fx, 'oop_5010_Example_3_1_2.x12', CIGNA.id);
    expect(await fx.host.bridge['estimates.forCheck']({ check_id: cigna, visit_type: 'office visit' })).toMatchObject({ allowed_cents: 10000, min_cents: 1000, basis: 'fee_schedule' });
    // A visit type with no row: the copay alone, and the estimate says so
    const none = await fx.host.bridge['estimates.forCheck']({ check_id: cigna, visit_type: 'Follow up' });
    expect(none).toMatchObject({ basis: 'copay_only', allowed_cents: null, min_cents: 1000, max_cents: 1000 });
    expect(none.steps[0].text).toBe('no fee schedule amount for this visit: the copay alone');
    const old = await answeredCheck(fx, 'oop_5010_Example_3_1_2.x12', CIGNA.id, 31);
    expect((await fx.host.bridge['estimates.forCheck']({ check_id: old })).stale).toBe(true);
    await fx.host.bridge['feeSchedule.updateFreshness']({ freshness_days: 60 });
    expect((await fx.host.bridge['estimates.forCheck']({ check_id: old })).stale).toBe(false);
  });

  it('refuses a check that has no answer, and one that does not exist', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    const patient = await fx.host.service.create('patients', { first_name: 'Ada', last_name: 'Byron', date_of_birth: '1985-12-10' }, DESK);
    const card = await fx.host.service.create('insurance_cards', { patient_id: patient.id, member_id: 'W1', insurance_carrier_ids: [AETNA.id] }, DESK);
    const pending = await fx.host.service.create(
      'electronic_eligibility_checks',
      { insurance_card_id: card.id, provider_id: SEED_PROVIDERS[0].id, clearinghouse_entity_id: AETNA.id, service_type: 'health_benefit_plan_coverage' },
      DESK,
    );
    const answer = await dispatchBridgeCall(fx.host.bridge, 'estimates.forCheck', { check_id: pending.id });
    expect(answer).toMatchObject({ ok: false, error: { status: 422, errors: [{ path: 'check_id', code: 'check_not_successful' }] } });
    const missing = await dispatchBridgeCall(fx.host.bridge, 'estimates.forCheck', { check_id: 'eec_nope' });
    expect(missing).toMatchObject({ ok: false, error: { status: 404 } });
  });
});

describe('fee schedule and estimates on the local API', () => {
  let fx: HostFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it('POST /v1/fee_schedule/import takes text/csv; GET /v1/estimates answers integer cents with the steps', async () => {
    fx = startTestHost({ localApi: {}, hotFolder: false });
    await fx.host.start();
    const target = { socketPath: socketPath(fx.dataDir) };
    const auth = `Bearer ${fs.readFileSync(tokenPath(fx.dataDir), 'utf8').trim()}`;
    const imported = await httpRequest(target, { method: 'POST', path: '/v1/fee_schedule/import', headers: { 'content-type': 'text/csv', authorization: auth }, body: GOOD });
    expect(imported.status).toBe(200);
    expect(imported.json.imported).toBe(4);
    const bad = await httpRequest(target, { method: 'POST', path: '/v1/fee_schedule/import', headers: { 'content-type': 'text/csv', authorization: auth }, body: 'Visit type,Payer,Allowed\nLab,default,-1\n' });
    expect(bad.status).toBe(422);
    expect(bad.json.error.errors).toEqual([expect.objectContaining({ path: 'rows[2].allowed', code: 'negative_amount' })]);
    const json = await httpRequest(target, { method: 'POST', path: '/v1/fee_schedule/import', headers: { 'content-type': 'application/json', authorization: auth }, body: '{}' });
    expect(json.status).toBe(415);
    expect((await fx.host.bridge['feeSchedule.get']({})).rows).toHaveLength(4);

    const check = await answeredCheck(fx, 'tigershark_271-dependent-benefits.x12', AETNA.id);
    const estimate = await httpRequest(target, { path: `/v1/estimates?check_id=${check}&visit_type=Lab&network=out_of_network`, headers: { authorization: auth } });
    expect(estimate.status).toBe(200);
    // $1,200.50 allowed: $0 copay, $78.80 deductible, 30% of $1,121.70 = $336.51 → $415.31, under the $1,000 out-of-pocket left
    expect(estimate.json).toMatchObject({ check_id: check, visit_type: 'Lab', min_cents: 41531, max_cents: 41531, exact: true, network: 'out_of_network' });
    expect(estimate.json.steps.map((s: { kind: string }) => s.kind)).toEqual(['allowed', 'copay', 'deductible', 'coinsurance', 'out_of_pocket']);
    const missing = await httpRequest(target, { path: '/v1/estimates?visit_type=Lab', headers: { authorization: auth } });
    expect(missing.status).toBe(422);
    expect(missing.json.error.errors[0].path).toBe('check_id');
  });
});
