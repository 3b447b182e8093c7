import { planBatch } from '../batch/batch-plan';
import { batchProgress } from '../batch/batch-progress';
import type { BatchDeps } from '../batch/batch-deps';
import type { BatchRunner } from '../batch/batch-runner';
import { worklist } from '../batch/worklist';
import type { EstimateDeps } from '../estimates/estimate-for-check';
import { withEstimates } from '../estimates/worklist-estimates';
import { withGfes } from '../gfe/good-faith-estimates';
import type { HandlersFor } from './handlers';

/** "Check tomorrow": a day's batch of checks, where it stands, and the day's worklist. */
export function batchHandlers(deps: BatchDeps & { runner: BatchRunner; estimates: EstimateDeps }): HandlersFor<'appointments.checkDay' | 'appointments.progress' | 'appointments.worklist'> {
  return {
    'appointments.checkDay': async (input) => {
      planBatch(deps, input);
      deps.runner.wake();
      return batchProgress(deps, input.date);
    },
    'appointments.progress': async ({ date }) => batchProgress(deps, date),
    'appointments.worklist': async ({ date }) => ({ date, rows: withGfes(deps.db, withEstimates(deps.estimates, worklist(deps.db, date, deps.practice()))) }),
  };
}
