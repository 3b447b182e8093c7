import type { Db } from '../db/open-database';
import { clearinghouse_entities, providers } from '../db/schema';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '../sandbox/seed-data';

/**
 * Until the first refresh from the upstream, the desk works from the sandbox's providers
 * and payers, so a fresh install can run a check offline.
 */
export function seedReferenceData(db: Db): void {
  db.transaction(() => {
    db.insert(providers).values([...SEED_PROVIDERS]).onConflictDoNothing().run();
    db.insert(clearinghouse_entities).values([...SEED_CLEARINGHOUSE_ENTITIES]).onConflictDoNothing().run();
  });
}
