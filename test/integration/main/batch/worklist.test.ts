import { afterEach, describe, expect, it } from 'vitest';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { manualClock } from '@test/support/manual-clock';
import { answeredCheck } from '@test/support/estimates/answered-check';
import { reading, statementsRunAsync } from '@test/support/statement-counter';

/**
 * A day's worklist (issue 31): each row's current card, its newest check and any discovery
 * under way are read for the whole day at once, so a day of 1,000 appointments costs the same
 * few statements as a day of ten, and each row still shows the card and check it did.
 */
const [, CIGNA] = SEED_CLEARINGHOUSE_ENTITIES;
const DAY = '2026-11-24';
const DESK = { source: 'dashboard' } as const;

describe('the worklist', () => {
  let fx: HostFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it("reads the day's cards, checks and discoveries once for all rows, and each row keeps its own card and newest check", async () => {
    const clock = manualClock('2026-11-23T15:00:00.000Z');
    fx = startTestHost({ localApi: false, hotFolder: false, clock });
    const { bridge, service } = fx.host;
    await bridge['settings.update']({ default_provider_id: SEED_PROVIDERS[0].id });
    await bridge['feeSchedule.import']({ text: 'Visit type,Payer,Allowed\nOffice visit,default,100\n' });
    const person = (i: number) => ({ first_name: 'Pat', last_name: `Row${String.fromCharCode(97 + i)}`, date_of_birth: '1980-01-01' });
    const expected: string[] = [];
    for (let i = 0; i < 12; i++) {
      if (i % 3 === 0) {
        await answeredCheck(fx, 'oop_5010_Example_3_1_2.x12', CIGNA.id, 1, person(i));
        expected.push('ready');
      } else if (i % 3 === 1) {
        // An answered check on an older card: the patient's newest card has none, so the row is not checked.
        const check = await answeredCheck(fx, 'oop_5010_Example_3_1_2.x12', CIGNA.id, 1, person(i));
        const { patient_id } = fx.host.database.sqlite
          .prepare('SELECT patient_id FROM insurance_cards WHERE id = (SELECT insurance_card_id FROM electronic_eligibility_checks WHERE id = ?)')
          .get(check) as { patient_id: string };
        clock.advance(1000);
        await service.create('insurance_cards', { patient_id, member_id: 'W999', insurance_carrier_ids: [CIGNA.id] }, DESK);
        expected.push('not_checked');
      } else {
        await bridge['patients.create'](person(i));
        expected.push('no_card');
      }
      await bridge['appointments.create']({ date: DAY, time: `09:${String(10 + i)}`, ...person(i), visit_type: 'Office visit' });
    }
    const { result, sql } = await statementsRunAsync(fx.host.database.sqlite, () => bridge['appointments.worklist']({ date: DAY }));
    const byName = new Map(result.rows.map((row) => [row.appointment.last_name, row]));
    expect(Array.from({ length: 12 }, (_, i) => byName.get(person(i).last_name)?.status)).toEqual(expected);
    expect(result.rows.filter((row) => row.status === 'ready').map((row) => row.estimate?.min_cents)).toEqual([1000, 1000, 1000, 1000]);
    // Twelve rows: one read of the cards, one of the newest checks (and one more for the ready rows' estimates), one of discoveries.
    expect(reading(sql, 'insurance_cards')).toHaveLength(1);
    expect(reading(sql, 'electronic_eligibility_checks')).toHaveLength(2);
    expect(reading(sql, 'electronic_eligibility_discoveries')).toHaveLength(1);
  }, 60_000);
});
