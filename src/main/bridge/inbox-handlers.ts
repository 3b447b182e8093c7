import type { Db } from '../db/open-database';
import { listInboxItems, resolveInboxItem } from '../inbox/inbox-store';
import type { HandlersFor } from './handlers';

/** Scanned cards from the hot folder, waiting for the desk. */
export function inboxHandlers({ db }: { db: Db }): HandlersFor<'inbox.list' | 'inbox.resolve'> {
  return {
    'inbox.list': async ({ state }) => ({ data: listInboxItems(db, state) }),
    'inbox.resolve': async (input) => resolveInboxItem(db, input),
  };
}
