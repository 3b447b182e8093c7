import { estimateForCheck, type EstimateDeps } from '../estimates/estimate-for-check';
import { localDate } from '../appointments/appointment-import';
import { bytesOf } from './appointment-handlers';
import type { HandlersFor } from './handlers';

type EstimateMethods = 'feeSchedule.get' | 'feeSchedule.import' | 'feeSchedule.export' | 'feeSchedule.updateFreshness' | 'feeSchedule.setRow' | 'feeSchedule.removeRow' | 'estimates.forCheck';

/** The fee schedule in Settings and the "Collect today" estimate on the Eligibility summary. */
export function estimateHandlers(deps: EstimateDeps): HandlersFor<EstimateMethods> {
  return {
    'feeSchedule.get': async () => deps.fees.read(),
    'feeSchedule.import': async (input) => deps.fees.import(bytesOf(input)),
    'feeSchedule.export': async () => ({ csv: deps.fees.exportCsv(), filename: `fee-schedule-${localDate(deps.clock.now())}.csv` }),
    'feeSchedule.updateFreshness': async ({ freshness_days }) => deps.fees.setFreshnessDays(freshness_days),
    'feeSchedule.setRow': async (input) => deps.fees.setRow(input),
    'feeSchedule.removeRow': async (input) => deps.fees.removeRow(input),
    'estimates.forCheck': async (input) => estimateForCheck(deps, input),
  };
}
