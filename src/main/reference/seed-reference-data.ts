import type { Db } from '../db/open-database';
import { clearinghouse_entities, providers } from '../db/schema';
import { directoryEntities } from '../../shared/payers/payer-directory';
import { SEED_PROVIDERS } from './seed-data';

/**
 * Until the first refresh from the upstream, the desk works from the sandbox's providers
 * and payers (the whole payer directory), so a fresh install can run a check offline.
 * The desk seeds payers only into an empty table: after a refresh its list is the
 * upstream's, and a restart must not add back payers the upstream does not have. The
 * sandbox (`payers: 'all'`) adds whatever a regenerated directory brought.
 */
export function seedReferenceData(db: Db, options: { payers?: 'if_empty' | 'all' } = {}): void {
  db.transaction(() => {
    db.insert(providers).values([...SEED_PROVIDERS]).onConflictDoNothing().run();
    if (options.payers !== 'all' && db.select({ id: clearinghouse_entities.id }).from(clearinghouse_entities).limit(1).get()) return;
    // In chunks: SQLite caps the variables of one statement.
    const entities = directoryEntities();
    for (let i = 0; i < entities.length; i += 200) db.insert(clearinghouse_entities).values(entities.slice(i, i + 200)).onConflictDoNothing().run();
  });
}
