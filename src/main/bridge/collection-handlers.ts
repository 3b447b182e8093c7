import { recordCollection, voidCollection, collectionsOn, readDeskSettings, updateDeskSettings, type CollectionDeps } from '../collections/collection-store';
import { endOfDay } from '../collections/end-of-day';
import type { HandlersFor } from './handlers';

type CollectionMethods =
  | 'collections.record'
  | 'collections.void'
  | 'collections.list'
  | 'collections.endOfDay'
  | 'collections.deskSettings'
  | 'collections.updateDeskSettings';

/**
 * Payments at the window and the end-of-day report. The desk types who is taking payments
 * once: each entry recorded here remembers it for the next (staff accounts do not exist yet).
 */
export function collectionHandlers(deps: CollectionDeps): HandlersFor<CollectionMethods> {
  return {
    'collections.record': async (input) => {
      const entry = recordCollection(deps, input, 'dashboard');
      updateDeskSettings(deps, { taken_by: entry.taken_by });
      return entry;
    },
    'collections.void': async ({ id, ...rest }) => {
      const entry = voidCollection(deps, id, rest, 'dashboard');
      updateDeskSettings(deps, { taken_by: entry.taken_by });
      return entry;
    },
    'collections.list': async ({ date }) => ({ data: collectionsOn(deps.db, date) }),
    'collections.endOfDay': async ({ date }) => endOfDay(deps, date),
    'collections.deskSettings': async () => readDeskSettings(deps),
    'collections.updateDeskSettings': async (input) => updateDeskSettings(deps, input),
  };
}
