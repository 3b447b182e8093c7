import { afterEach, describe, expect, it } from 'vitest';
import { SEED_CLEARINGHOUSE_ENTITIES } from '@src/main/reference/seed-data';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { manualClock } from '@test/support/manual-clock';
import { answeredCheck } from '@test/support/estimates/answered-check';

/**
 * "Collect today" on a day's worklist (issue 30, item 2): a ready appointment carries the
 * estimate for its visit type from its check and the fee schedule, the same figures
 * Eligibility's `estimates.forCheck` gives, on a real host with its SQLite file.
 */
const [AETNA, CIGNA] = SEED_CLEARINGHOUSE_ENTITIES;
const TOMORROW = '2026-11-24';

describe('estimates on the worklist', () => {
  let fx: HostFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it("gives each ready row the estimate for its visit type (the same as the single estimate), marks a stale one, and leaves other rows without", async () => {
    fx = startTestHost({ localApi: false, hotFolder: false, clock: manualClock('2026-11-23T15:00:00.000Z') });
    const { bridge } = fx.host;
    await bridge['appointments.updateSettings']({ visit_types: { lab: 'diagnostic_lab', 'office visit': 'professional_physician_visit_office' } });
    await bridge['feeSchedule.import']({ text: 'Visit type,Payer,Allowed\nOffice visit,default,100\nLab,default,"1,200.50"\n' });
    const ada = { first_name: 'Ada', last_name: 'Byron', date_of_birth: '1985-12-10' };
    const grace = { first_name: 'Grace', last_name: 'Hopper', date_of_birth: '1966-12-09' };
    const alan = { first_name: 'Alan', last_name: 'Turing', date_of_birth: '1972-06-23' };
    const lab = await answeredCheck(fx, 'tigershark_271-dependent-benefits.x12', AETNA.id, 1, ada);
    const office = await answeredCheck(fx, 'oop_5010_Example_3_1_2.x12', CIGNA.id, 45, grace);
    await bridge['patients.create'](alan);
    const a = await bridge['appointments.create']({ date: TOMORROW, time: '09:00', ...ada, visit_type: 'Lab' });
    const g = await bridge['appointments.create']({ date: TOMORROW, time: '09:30', ...grace, visit_type: 'Office visit' });
    const t = await bridge['appointments.create']({ date: TOMORROW, time: '10:00', ...alan, visit_type: 'Office visit' });

    const { rows } = await bridge['appointments.worklist']({ date: TOMORROW });
    const byId = new Map(rows.map((row) => [row.appointment.id, row]));
    const labRow = byId.get(a.appointment.id)!;
    expect(labRow.status).toBe('ready');
    expect(labRow.estimate).toEqual(await bridge['estimates.forCheck']({ check_id: lab, visit_type: 'Lab' }));
    expect(labRow.estimate).toMatchObject({ allowed_cents: 120050, min_cents: 7880, headline: 'Collect today: $78.80', stale: false });
    const officeRow = byId.get(g.appointment.id)!;
    expect(officeRow.estimate).toMatchObject({ check_id: office, visit_type: 'Office visit', allowed_cents: 10000, min_cents: 1000, stale: true });
    // No card, no check: nothing to estimate from.
    expect(byId.get(t.appointment.id)!.status).not.toBe('ready');
    expect(byId.get(t.appointment.id)!.estimate).toBeNull();
  });

  it('estimates a day of 120 ready visits in one batch, not a read per row', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false, clock: manualClock('2026-11-23T15:00:00.000Z') });
    const { bridge } = fx.host;
    await bridge['feeSchedule.import']({ text: 'Visit type,Payer,Allowed\nOffice visit,default,100\n' });
    for (let i = 0; i < 120; i++) {
      const person = { first_name: 'Pat', last_name: `Visit${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`, date_of_birth: '1980-01-01' };
      await answeredCheck(fx, 'oop_5010_Example_3_1_2.x12', CIGNA.id, 1, person);
      await bridge['appointments.create']({ date: TOMORROW, time: '09:00', ...person, visit_type: 'Office visit' });
    }
    const sqlite = fx.host.database.sqlite;
    const prepare = sqlite.prepare.bind(sqlite);
    const checkReads: string[] = [];
    sqlite.prepare = ((source: string) => {
      if (/FROM "?electronic_eligibility_checks"? WHERE "?electronic_eligibility_checks"?\."?id"? IN/i.test(source)) checkReads.push(source);
      return prepare(source);
    }) as typeof sqlite.prepare;
    try {
      const { rows } = await bridge['appointments.worklist']({ date: TOMORROW });
      expect(rows.filter((row) => row.estimate?.min_cents === 1000)).toHaveLength(120);
    } finally {
      sqlite.prepare = prepare;
    }
    expect(checkReads).toHaveLength(1);
  }, 60_000);
});
