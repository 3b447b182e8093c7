import type { Db } from '../db/open-database';
import { findDuplicatePatients, listPossibleDuplicates, resolvePossibleDuplicate } from '../desk/find-duplicates';
import type { PullComponent } from '../sync/pull-component';
import type { PracticeView } from '../../shared/bridge/practice-view';
import type { HandlersFor } from './handlers';

const NOT_PULLING: PracticeView = { available: null, error: null, last_pulled_at: null, caught_up_at: null, behind: true, received: 0, set_aside: 0 };

/** The practice beyond this desk: how current its copy is (Sync screen) and who may already exist (Intake). */
export function practiceHandlers(deps: { db: Db; pull: PullComponent | null }): HandlersFor<'sync.practice' | 'patients.findDuplicates' | 'patients.possibleDuplicates' | 'patients.resolveDuplicate'> {
  return {
    'sync.practice': async () => ({
      ...(deps.pull?.status() ?? NOT_PULLING),
      set_aside_records: deps.pull?.setAside() ?? [],
    }),
    'patients.findDuplicates': async (input) => ({ data: findDuplicatePatients(deps.db, input) }),
    'patients.possibleDuplicates': async () => ({ data: listPossibleDuplicates(deps.db) }),
    'patients.resolveDuplicate': async (input) => resolvePossibleDuplicate(deps.db, input),
  };
}
