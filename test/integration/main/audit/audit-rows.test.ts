import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditRow } from '@src/shared/bridge/security-contract';
import { bridgeCalls } from '@test/support/bridge-calls';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { manualClock, type ManualClock } from '@test/support/manual-clock';
import { makePng } from '@test/support/images';

let fx: HostFixture;
let clock: ManualClock;
const { call, ok } = bridgeCalls(() => fx.host.bridge);
beforeEach(() => {
  clock = manualClock();
  fx = startTestHost({ actor: 'frontdesk1', localApi: false, hotFolder: false, clock });
});
afterEach(async () => {
  await fx.cleanup();
});

const brief = (rows: AuditRow[]) => rows.map((r) => [r.action, r.patient_name, r.records, r.entries]);

/** Intake of one patient with a photo, then a screen visit that reads five records. */
async function intakeAndVisit(first: string, last: string) {
  const photo = await ok('photos.upload', { content_type: 'image/png', data_base64: Buffer.from(makePng(4, 4, [200, 30, 30], { Comment: `${first} ${last}` })).toString('base64') });
  const patient = await ok('patients.create', { first_name: first, last_name: last, date_of_birth: '1980-03-14' });
  const card = await ok('cards.create', { patient_id: patient.id, member_id: 'W100200300', front_photo_object_key: photo.object_key });
  clock.advance(60_000);
  await ok('desk.patient', { id: patient.id });
  await ok('patients.get', { id: patient.id });
  await ok('cards.get', { id: card.id });
  await ok('photos.read', { object_key: photo.object_key });
  await ok('desk.patient', { id: patient.id });
  return { patient, card, photo };
}

/** The audit screen's rows: names resolved on read, one row per action, filters, CSV. */
describe('audit rows', () => {
  it('names the patient and folds a visit into one row per action', async () => {
    await intakeAndVisit('Ada', 'Lovelace');
    clock.advance(60_000);
    const { patient } = await intakeAndVisit('Grace', 'Hopper');
    // Half an hour later, the same patient again: a new visit, a new row.
    clock.advance(30 * 60_000);
    await ok('patients.get', { id: patient.id });

    const { data, next_before, actors } = await ok('audit.search', {});
    expect(brief(data)).toEqual([
      ['view', 'Grace Hopper', 'patient', 1],
      ['view', 'Grace Hopper', 'patient, insurance card, card photo', 5],
      ['create', 'Grace Hopper', 'patient, insurance card, card photo', 3],
      ['view', 'Ada Lovelace', 'patient, insurance card, card photo', 5],
      ['create', 'Ada Lovelace', 'patient, insurance card, card photo', 3],
    ]);
    expect(data[1]).toMatchObject({ actor: 'frontdesk1', first_at: '2026-11-23T09:03:00.000Z', last_at: '2026-11-23T09:03:00.000Z', patient_id: patient.id });
    expect(next_before).toBeNull();
    expect(actors).toEqual(['frontdesk1']);
  });

  it('filters by action, person, patient and time, and pages without splitting a row', async () => {
    await intakeAndVisit('Ada', 'Lovelace');
    clock.advance(10 * 60_000);
    await intakeAndVisit('Grace', 'Hopper');

    expect(brief((await ok('audit.search', { action: 'create' })).data).map((r) => r[1])).toEqual(['Grace Hopper', 'Ada Lovelace']);
    expect(brief((await ok('audit.search', { patient: 'love' })).data).map((r) => r[0])).toEqual(['view', 'create']);
    expect((await ok('audit.search', { actor: 'someone else' })).data).toEqual([]);
    const later = (await ok('audit.search', { from: '2026-11-23T09:05:00.000Z' })).data;
    expect(later.every((r: AuditRow) => r.patient_name === 'Grace Hopper')).toBe(true);

    const first = await ok('audit.search', { limit: 3 });
    expect(first.data).toHaveLength(3);
    const second = await ok('audit.search', { limit: 3, before: first.next_before });
    expect(brief([...first.data, ...second.data])).toEqual(brief((await ok('audit.search', {})).data));
    expect(second.next_before).toBeNull();

    const before = fx.snapshot();
    expect(await call('audit.search', { action: 'deleted' })).toMatchObject({ ok: false, error: { code: 'validation_failed', errors: [{ path: 'action' }] } });
    expect(await call('audit.search', { from: 'yesterday' })).toMatchObject({ ok: false, error: { errors: [{ path: 'from' }] } });
    expect(fx.snapshot()).toEqual(before);
  });

  it('exports the filtered rows as CSV, formulas defused', async () => {
    await intakeAndVisit('Ada', '=HYPERLINK("x")');
    const file = await ok('audit.export', { action: 'view' });
    expect(file).toMatchObject({ filename: 'coverdesk-audit-2026-11-23.csv', content_type: 'text/csv', rows: 1 });
    const lines = file.csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('"from","to","who","action","patient","records","entries","record ids"');
    expect(lines[1]).toMatch(/^"2026-11-23T09:01:00.000Z","2026-11-23T09:01:00.000Z","frontdesk1","Viewed","Ada =HYPERLINK\(""x""\)","patient, insurance card, card photo","5","pat_/);
    const formula = await ok('audit.export', { patient: 'hyperlink' });
    expect(formula.rows).toBe(2);
  });
});
