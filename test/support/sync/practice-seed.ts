import fs from 'node:fs';
import path from 'node:path';
import { inTransaction, openDatabase } from '@src/main/db/open-database';
import { insertRecord } from '@src/main/records/record-store';
import { installChangeTriggers } from '@src/main/sandbox/changes-feed';
import { systemClock } from '@src/main/support/clock';
import { createIdGenerator } from '@src/main/support/ids';

/** Birth dates spread over 80 years, as a real practice's are (duplicate checks look people up by birth date). */
function birthDate(i: number): string {
  return new Date(Date.UTC(1940, 0, 1) + (i % 29_000) * 86_400_000).toISOString().slice(0, 10);
}

/**
 * A practice that already has `records` records (half patients, half their cards), written
 * straight into a sandbox database file before the sandbox starts: the feed's triggers put
 * each in the changes feed, as if desks had made them over the years. For the bootstrap
 * crash test and benchmark; fixture time is not what they measure.
 */
export function seedPracticeFile(file: string, records: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const { db, close } = openDatabase({ file });
  try {
    installChangeTriggers(db);
    db.$client.pragma('synchronous = OFF');
    const ids = createIdGenerator(systemClock);
    const created_at = new Date().toISOString();
    inTransaction(db, () => {
      for (let i = 0; i < records / 2; i++) {
        const patient = ids.next('pat');
        insertRecord(db, 'patients', { id: patient, first_name: 'Seeded', last_name: `Patient${i}`, date_of_birth: birthDate(i), created_at });
        insertRecord(db, 'insurance_cards', { id: ids.next('ic'), patient_id: patient, source: 'api', member_id: `SEED${i}`, insurance_carrier_ids: [], created_at });
      }
    });
  } finally {
    close();
  }
}
