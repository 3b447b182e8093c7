import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import { socketPath } from '@src/main/local-api/endpoints';
import { tokenPath } from '@src/main/local-api/token-file';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import type { Sandbox } from '@src/main/sandbox/start-sandbox';
import type { Host } from '@src/main/host/create-host';
import type { ImportResult } from '@src/shared/bridge/appointment-contract';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { httpRequest } from '@test/support/http-request';
import { closeAfterEach, freePort, startSyncHost, startUpstream, waitFor, type SyncHostFixture } from '@test/support/sync/sync-harness';

const DAY = '2026-12-03';
const AETNA = SEED_CLEARINGHOUSE_ENTITIES[0];
const UHC = SEED_CLEARINGHOUSE_ENTITIES[2];

/** A schedule export as practice-management systems write it: one patient column, the insurance beside it. */
const HEADER = 'Appt ID,Date,Time,Patient,DOB,Member ID,Payer,Group #,Relationship,Visit Type';
const SCHEDULE = [
  HEADER,
  'S-1,12/3/2026,8:00 AM,"Doe, Jane",1/2/1980,W100200301,Aetna,G-100,Self,Office Visit',
  // The payer by payer id; a child on a parent's plan.
  'S-2,12/3/2026,8:15 AM,"Roe, Rick",3/4/1975,W 1002-00304,87726,,19,Follow up',
  // No insurance in the row: no card, nothing refused.
  'S-3,12/3/2026,8:30 AM,"Poe, Ann",5/6/1990,,,,,Office Visit',
].join('\n');

interface CardRow {
  id: string;
  patient_id: string;
  reference_id: string | null;
  source: string;
  member_id: string | null;
  group_number: string | null;
  insurance_carrier_ids: string;
  member_name: string | null;
  dependent_names: string | null;
  front_photo_object_key: string | null;
  back_photo_object_key: string | null;
}

const cards = (host: Host) => host.database.sqlite.prepare('SELECT * FROM insurance_cards ORDER BY id').all() as CardRow[];
const count = (host: Host, table: string) => (host.database.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const importText = (host: Host, text: string): Promise<ImportResult> => host.bridge['appointments.import']({ text });

let fx: SyncHostFixture | undefined;
let upstream: Sandbox | undefined;
closeAfterEach(() => fx, () => upstream);

describe('a schedule with insurance columns', () => {
  it('makes each patient’s card from the schedule (outbox, no photos), Check tomorrow checks it to Ready with the copay, and a second import changes nothing', async () => {
    const port = await freePort();
    upstream = await startUpstream(port, { delayMs: 20 });
    fx = await startSyncHost(`http://127.0.0.1:${port}`, { batchIntervalMs: 20 });
    const { host } = fx;
    await host.bridge['settings.update']({ default_provider_id: SEED_PROVIDERS[0].id });

    const preview = await host.bridge['appointments.preview']({ text: SCHEDULE });
    expect(preview.mapping).toMatchObject({ member_id: 5, payer: 6, group_number: 7, relationship: 8 });

    const first = await importText(host, SCHEDULE);
    expect(first.counts).toMatchObject({ created: 3, skipped: 0, patients_created: 3, cards_created: 2, needs_payer: 0 });
    expect(first.rows.map((r) => r.result !== 'skipped' && r.card)).toEqual(['created', 'created', 'none']);

    const made = cards(host);
    expect(made).toHaveLength(2);
    const [jane, rick] = made;
    expect(jane).toMatchObject({ source: 'dashboard', member_id: 'W100200301', group_number: 'G-100', member_name: 'Jane Doe', front_photo_object_key: null, back_photo_object_key: null });
    expect(JSON.parse(jane.dependent_names ?? 'null')).toBeNull();
    expect(JSON.parse(jane.insurance_carrier_ids)).toEqual([AETNA.id]);
    expect(jane.reference_id).toMatch(/^schedule:apt_/);
    expect(rick).toMatchObject({ member_id: 'W 1002-00304', member_name: null, dependent_names: JSON.stringify(['Rick Roe']) });
    expect(JSON.parse(rick.insurance_carrier_ids)).toEqual([UHC.id]);
    // Through the create path: each card has its outbox entry, waiting for its patient's.
    const entries = host.database.sqlite.prepare("SELECT record_id, depends_on FROM outbox WHERE collection = 'insurance_cards' ORDER BY record_id").all() as { record_id: string; depends_on: string }[];
    expect(entries.map((e) => e.record_id)).toEqual([jane.id, rick.id]);
    for (const e of entries) expect(JSON.parse(e.depends_on)).toHaveLength(1);

    // The same file again: nothing new, not a card, not an outbox entry.
    const outboxBefore = count(host, 'outbox');
    const again = await importText(host, SCHEDULE);
    expect(again.counts).toMatchObject({ created: 0, unchanged: 3, cards_created: 0 });
    expect(again.rows.map((r) => r.result !== 'skipped' && r.card)).toEqual(['on_file', 'on_file', 'none']);
    expect(cards(host)).toHaveLength(2);
    expect(count(host, 'outbox')).toBe(outboxBefore);

    const started = await host.bridge['appointments.checkDay']({ date: DAY });
    expect(started).toMatchObject({ total: 3, checks: 2 });
    await waitFor('the batch to be answered', async () => (await host.bridge['appointments.progress']({ date: DAY })).state === 'finished', 30_000);
    const { rows } = await host.bridge['appointments.worklist']({ date: DAY });
    const byId = new Map(rows.map((r) => [r.appointment.external_id, r]));
    for (const id of ['S-1', 'S-2']) {
      expect(byId.get(id)!.status, id).toBe('ready');
      expect(byId.get(id)!.copay, id).toMatch(/^\d+(\.\d+)?$/);
      // The worklist says the copay in dollars ("$20.00"), not as the payer's bare decimal.
      expect(byId.get(id)!.detail, id).toMatch(/^Active; copay \$\d+\.\d{2}\.$/);
    }
    expect(byId.get('S-3')!.status).toBe('no_card');
    // The desk can tell a card from the schedule from one captured at the counter.
    expect([byId.get('S-1')!.card_from_schedule, byId.get('S-3')!.card_from_schedule]).toEqual([true, false]);
    expect(byId.get('S-1')!.appointment).toMatchObject({ payer: 'Aetna', clearinghouse_entity_id: AETNA.id, group_number: 'G-100', relationship: 'self' });
  }, 60_000);

  it('the local API’s POST /v1/appointments/import (text/csv) makes the same cards', async () => {
    const port = await freePort();
    upstream = await startUpstream(port, { delayMs: 20 });
    fx = await startSyncHost(`http://127.0.0.1:${port}`, { localApi: {} });
    const target = { socketPath: socketPath(fx.dataDir) };
    const auth = `Bearer ${fs.readFileSync(tokenPath(fx.dataDir), 'utf8').trim()}`;
    const imported = await httpRequest(target, { method: 'POST', path: '/v1/appointments/import', headers: { 'content-type': 'text/csv', authorization: auth }, body: SCHEDULE });
    expect(imported.status).toBe(200);
    expect(imported.json.counts).toMatchObject({ created: 3, cards_created: 2 });
    const made = cards(fx.host);
    expect(made.map((c) => [c.member_id, c.source, JSON.parse(c.insurance_carrier_ids)[0]])).toEqual([
      ['W100200301', 'api', AETNA.id],
      ['W 1002-00304', 'api', UHC.id],
    ]);
    // Audited as creates naming the channel, as the patients it registered are.
    const audited = fx.host.database.sqlite.prepare("SELECT record_id FROM audit_log WHERE action = 'create' AND actor LIKE '%(local API)'").all() as { record_id: string }[];
    expect(audited.map((a) => a.record_id)).toEqual(expect.arrayContaining(made.map((c) => c.id)));
  }, 30_000);
});

describe('a row without insurance, when the practice sends those to discovery', () => {
  it('starts a discovery from a blank card from the schedule at import (once), and the coverage it finds is checked to Ready', async () => {
    const port = await freePort();
    upstream = await startUpstream(port, { delayMs: 20 });
    fx = await startSyncHost(`http://127.0.0.1:${port}`, { batchIntervalMs: 20 });
    const { host } = fx;
    await host.bridge['settings.update']({ default_provider_id: SEED_PROVIDERS[0].id });
    expect((await host.bridge['appointments.settings']({})).discover_without_insurance).toBe(false);
    await host.bridge['appointments.updateSettings']({ discover_without_insurance: true });
    // Maria Garcia is on the sandbox's roster (docs/sandbox.md): a discovery finds her Aetna coverage.
    const file = [HEADER, 'D-1,12/3/2026,10:00 AM,"Garcia, Maria",3/14/1978,,,,,Office Visit'].join('\n');
    const first = await importText(host, file);
    expect(first.counts).toMatchObject({ created: 1, cards_created: 0, discoveries: 1 });
    expect(first.rows[0]).toMatchObject({ card: 'discovery' });
    const [blank] = cards(host);
    expect(blank).toMatchObject({ member_id: null, reference_id: expect.stringMatching(/^schedule:apt_/) });
    const discoveries = host.database.sqlite.prepare('SELECT insurance_card_id, source, service_type FROM electronic_eligibility_discoveries').all();
    expect(discoveries).toEqual([{ insurance_card_id: blank.id, source: 'dashboard', service_type: 'professional_physician_visit_office' }]);

    const again = await importText(host, file);
    expect(again.counts).toMatchObject({ unchanged: 1, discoveries: 0 });
    expect(count(host, 'electronic_eligibility_discoveries')).toBe(1);

    const ready = await waitFor('the discovery’s check to be answered', async () => {
      const [row] = (await host.bridge['appointments.worklist']({ date: DAY })).rows;
      return row.status === 'ready' ? row : undefined;
    }, 30_000);
    expect(ready.card_id).toBe(blank.id);
  }, 60_000);
});

describe('a schedule’s insurance that cannot become a card', () => {
  let host: HostFixture | undefined;
  afterEach(async () => {
    await host?.cleanup();
    host = undefined;
  });

  it('refuses each bad row naming the row and the column, writes nothing of it, and imports the good ones', async () => {
    host = startTestHost({ localApi: false, hotFolder: false });
    const h = host.host;
    const bad = [
      HEADER,
      'B-1,12/3/2026,8:00 AM,"Unknown, Uma",1/2/1980,W200,Zzyzx Mutual of Nowhere,,Self,Office Visit',
      'B-2,12/3/2026,8:10 AM,"Badid, Bo",1/3/1980,see card,Aetna,,Self,Office Visit',
      'B-3,12/3/2026,8:20 AM,"Nopayer, Ned",1/4/1980,W300,,G-1,,Office Visit',
      'B-4,12/3/2026,8:30 AM,"Noid, Nia",1/5/1980,,Aetna,G-2,Self,Office Visit',
      'B-5,12/3/2026,8:40 AM,"Odd, Otto",1/6/1980,W500,Aetna,,Cousin,Office Visit',
      'B-6,12/3/2026,8:50 AM,"Good, Gail",1/7/1980,W600,Aetna,,Self,Office Visit',
    ].join('\n');
    const result = await importText(h, bad);
    const skipped = result.rows.filter((r) => r.result === 'skipped');
    expect(skipped.map((r) => r.result === 'skipped' && [r.row, r.reason, r.field])).toEqual([
      [2, 'unknown_payer', 'payer'],
      [3, 'invalid_member_id', 'member_id'],
      [4, 'incomplete_insurance', 'payer'],
      [5, 'incomplete_insurance', 'member_id'],
      [6, 'invalid_relationship', 'relationship'],
    ]);
    for (const r of skipped) if (r.result === 'skipped') expect(r.message.length).toBeGreaterThan(20);
    expect(skipped[0].result === 'skipped' && skipped[0].message).toMatch(/payer directory/);
    // Nothing of a refused row: no patient, no appointment, no card; the good row whole.
    expect(result.counts).toMatchObject({ created: 1, skipped: 5, patients_created: 1, cards_created: 1 });
    expect(count(h, 'patients')).toBe(1);
    expect(count(h, 'appointments')).toBe(1);
    expect(cards(h).map((c) => c.member_id)).toEqual(['W600']);

    // One appointment as JSON (POST /v1/appointments, appointments.create): the same rules, as a 422 naming the field.
    const refused = await dispatchBridgeCall(h.bridge, 'appointments.create', { date: DAY, time: '09:00', first_name: 'Jay', last_name: 'Son', date_of_birth: '1980-01-08', member_id: 'W700', payer: 'Zzyzx Mutual of Nowhere' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.errors).toEqual([expect.objectContaining({ path: 'payer', code: 'unknown_payer' })]);
    expect(count(h, 'appointments')).toBe(1);
  });

  it('a payer that fits several asks which one; the desk’s choice makes the card, and a re-import keeps the choice', async () => {
    host = startTestHost({ localApi: false, hotFolder: false });
    const h = host.host;
    // "Blue Cross" is the start of many payers' names: never guessed.
    const file = [HEADER, 'M-1,12/3/2026,9:00 AM,"Amb, Amy",2/2/1950,W900,Blue Cross,,Self,Office Visit'].join('\n');
    const result = await importText(h, file);
    expect(result.counts).toMatchObject({ created: 1, cards_created: 0, needs_payer: 1 });
    expect(cards(h)).toHaveLength(0);
    const [row] = (await h.bridge['appointments.worklist']({ date: DAY })).rows;
    expect(row.status).toBe('needs_payer');
    expect(row.detail).toMatch(/“Blue Cross” fits \d+ payers: choose which one/);
    const candidates = row.appointment.payer_candidate_ids;
    expect(candidates.length).toBeGreaterThan(1);

    const unknownPayer = await dispatchBridgeCall(h.bridge, 'appointments.choosePayer', { id: row.appointment.id, clearinghouse_entity_id: 'che_nobody' });
    expect(unknownPayer.ok).toBe(false);
    expect(cards(h)).toHaveLength(0);

    const chosen = await h.bridge['appointments.choosePayer']({ id: row.appointment.id, clearinghouse_entity_id: candidates[1] });
    expect(chosen).toMatchObject({ clearinghouse_entity_id: candidates[1], payer_candidate_ids: [] });
    const made = cards(h);
    expect(made).toHaveLength(1);
    expect(JSON.parse(made[0].insurance_carrier_ids)).toEqual([candidates[1]]);
    // The patient and the card, each queued for the upstream.
    expect(count(h, 'outbox')).toBe(2);
    // No default provider on this fresh host: the row says so rather than "Not checked".
    expect((await h.bridge['appointments.worklist']({ date: DAY })).rows[0].status).toBe('no_provider');

    const again = await importText(h, file);
    expect(again.rows[0]).toMatchObject({ result: 'unchanged', card: 'on_file' });
    expect(cards(h)).toHaveLength(1);
  });
});

describe('Check tomorrow on a fresh install (no default provider)', () => {
  it('refuses with "No provider set: choose one", writing no batch, and every row says so; once a provider is set it checks, and a row carded later is checked when Check is pressed again', async () => {
    const port = await freePort();
    upstream = await startUpstream(port, { delayMs: 20 });
    fx = await startSyncHost(`http://127.0.0.1:${port}`, { batchIntervalMs: 20 });
    const { host } = fx;
    await importText(host, SCHEDULE);

    const refused = await dispatchBridgeCall(host.bridge, 'appointments.checkDay', { date: DAY });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe('no_provider');
      expect(refused.error.message).toMatch(/^No provider set: choose one/);
      expect(refused.error.errors).toEqual([expect.objectContaining({ path: 'default_provider_id', code: 'no_provider' })]);
    }
    expect(count(host, 'eligibility_batches')).toBe(0);
    expect(count(host, 'batch_jobs')).toBe(0);
    expect(count(host, 'electronic_eligibility_checks')).toBe(0);
    const before = await host.bridge['appointments.worklist']({ date: DAY });
    expect(before.rows.map((r) => r.status)).toEqual(['no_provider', 'no_provider', 'no_provider']);
    expect(before.rows[0].detail).toMatch(/^No provider set: choose one/);

    await host.bridge['settings.update']({ default_provider_id: SEED_PROVIDERS[1].id });
    expect(await host.bridge['appointments.checkDay']({ date: DAY })).toMatchObject({ total: 3, checks: 2 });
    await waitFor('the batch to be answered', async () => (await host.bridge['appointments.progress']({ date: DAY })).state === 'finished', 30_000);
    const checked = new Map((await host.bridge['appointments.worklist']({ date: DAY })).rows.map((r) => [r.appointment.external_id, r]));
    expect(checked.get('S-3')!.status).toBe('no_card');

    // The patient brings the card at arrival; Check again checks that row (the others are recent).
    await host.bridge['cards.create']({ patient_id: checked.get('S-3')!.appointment.patient_id!, member_id: 'W100200305', insurance_carrier_ids: [AETNA.id] });
    expect(await host.bridge['appointments.checkDay']({ date: DAY })).toMatchObject({ total: 3, checks: 1 });
    await waitFor('the second batch to be answered', async () => (await host.bridge['appointments.progress']({ date: DAY })).state === 'finished', 30_000);
    const after = (await host.bridge['appointments.worklist']({ date: DAY })).rows;
    expect(after.map((r) => r.status)).toEqual(['ready', 'ready', 'ready']);
    const provider = host.database.sqlite.prepare('SELECT DISTINCT provider_id FROM electronic_eligibility_checks').all();
    expect(provider).toEqual([{ provider_id: SEED_PROVIDERS[1].id }]);
  }, 60_000);
});
