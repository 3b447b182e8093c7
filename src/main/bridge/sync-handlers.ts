import type { Db } from '../db/open-database';
import type { Clock } from '../support/clock';
import { discardEntry, listSyncItems, retryEntry } from '../sync/sync-actions';
import type { SyncComponent } from '../sync/sync-component';
import { onlyHere } from '../sync/only-here';
import type { HandlersFor } from './handlers';

/** The Sync screen: where the queue stands, each open entry, retry and discard. */
export function syncHandlers(deps: { db: Db; clock: Clock; sync: SyncComponent }): HandlersFor<'sync.status' | 'sync.list' | 'sync.retry' | 'sync.discard' | 'sync.onlyHere'> {
  const actions = { db: deps.db, clock: deps.clock, kick: () => deps.sync.engine.kick() };
  return {
    'sync.status': async () => deps.sync.status(),
    'sync.list': async ({ states }) => ({ data: listSyncItems(deps.db, states) }),
    'sync.retry': async ({ id }) => retryEntry(actions, id),
    'sync.discard': async ({ id }) => discardEntry(actions, id),
    'sync.onlyHere': async () => onlyHere(deps.db),
  };
}
