import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/open-database';
import { clearinghouse_entities, providers, settings } from '../db/schema';
import { directoryEntities } from '../../shared/payers/payer-directory';
import { SEED_PROVIDERS } from './seed-data';

/**
 * Until the first refresh from the upstream, the desk works from the sandbox's providers
 * and payers (the whole payer directory), so a fresh install can run a check offline.
 * The desk seeds payers only into an empty table: after a refresh its list is the
 * upstream's, and a restart must not add back payers the upstream does not have. The
 * sandbox (`payers: 'all'`) adds whatever a regenerated directory brought.
 */
/** Where the sandbox notes which directory it last seeded (its settings table, as the desk's). */
const SEEDED_DIRECTORY = 'reference.seeded_payer_directory';

/** Names a directory's content: a regenerated one (a payer added, renamed, re-numbered) differs. */
function fingerprint(entities: readonly { id: string; name: string; payer_id: string | null }[]): string {
  const hash = createHash('sha256');
  for (const e of entities) hash.update(`${e.id}\t${e.name}\t${e.payer_id ?? ''}\n`);
  return `${entities.length}:${hash.digest('hex')}`;
}

export function seedReferenceData(db: Db, options: { payers?: 'if_empty' | 'all' } = {}): void {
  db.transaction(() => {
    db.insert(providers).values([...SEED_PROVIDERS]).onConflictDoNothing().run();
    if (options.payers !== 'all' && db.select({ id: clearinghouse_entities.id }).from(clearinghouse_entities).limit(1).get()) return;
    const entities = directoryEntities();
    // The sandbox starts with every desk start: offering thousands of payers again each time
    // cost a third of a second on these machines, for the same directory it seeded last time.
    const seeded = fingerprint(entities);
    if (options.payers === 'all' && db.select({ value: settings.value }).from(settings).where(eq(settings.key, SEEDED_DIRECTORY)).get()?.value === seeded) return;
    // In chunks: SQLite caps the variables of one statement.
    for (let i = 0; i < entities.length; i += 200) db.insert(clearinghouse_entities).values(entities.slice(i, i + 200)).onConflictDoNothing().run();
    if (options.payers === 'all') db.insert(settings).values({ key: SEEDED_DIRECTORY, value: seeded }).onConflictDoUpdate({ target: settings.key, set: { value: seeded } }).run();
  });
}
