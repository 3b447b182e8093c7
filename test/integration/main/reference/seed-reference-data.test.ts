import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@src/main/db/open-database';
import { clearinghouse_entities } from '@src/main/db/schema';
import { seedReferenceData } from '@src/main/reference/seed-reference-data';
import { directoryEntities } from '@src/shared/payers/payer-directory';
import { makeTempDir } from '@test/support/temp-dir';

const temp = makeTempDir('coverdesk-seed-');
afterAll(() => temp.cleanup());

const count = (db: ReturnType<typeof openDatabase>['db']) => db.select({ n: sql<number>`count(*)` }).from(clearinghouse_entities).get()!.n;

describe('seeding the sandbox with the payer directory', () => {
  it('seeds every payer once; a start with the same directory offers none again (a payer removed since stays removed)', () => {
    const database = openDatabase({ file: path.join(temp.dir, 'same.sqlite') });
    try {
      const { db } = database;
      seedReferenceData(db, { payers: 'all' });
      const total = directoryEntities().length;
      expect(count(db)).toBe(total);
      const [first] = directoryEntities();
      db.delete(clearinghouse_entities).where(eq(clearinghouse_entities.id, first.id)).run();
      seedReferenceData(db, { payers: 'all' });
      // Skipped, not re-inserted: the same directory was seeded already.
      expect(count(db)).toBe(total - 1);
    } finally {
      database.close();
    }
  });

  it('a directory that changed since (a new payer) is seeded again, and what it adds arrives', () => {
    const database = openDatabase({ file: path.join(temp.dir, 'changed.sqlite') });
    try {
      const { db } = database;
      seedReferenceData(db, { payers: 'all' });
      const total = count(db);
      // As if the seed had been made from an older directory: the note names other content.
      db.$client.prepare("UPDATE settings SET value = json_quote('1:older') WHERE key = 'reference.seeded_payer_directory'").run();
      const [first] = directoryEntities();
      db.delete(clearinghouse_entities).where(eq(clearinghouse_entities.id, first.id)).run();
      seedReferenceData(db, { payers: 'all' });
      expect(count(db)).toBe(total);
    } finally {
      database.close();
    }
  });
});
