import { correctPatient, type CorrectPatientDeps } from '../desk/correct-patient';
import { findPatients } from '../desk/find-patients';
import { patientDetail } from '../desk/patient-detail';
import { firstTodayRows, todayChanges, todayRows } from '../desk/today';
import type { Clock } from '../support/clock';
import type { RecordStoreDeps } from '../records/record-store';
import type { HandlersFor } from './handlers';

/** The front desk's read models: Today, patient search, one patient's history. */
export function deskHandlers(deps: RecordStoreDeps & { clock: Clock }): HandlersFor<'desk.today' | 'desk.todayChanges' | 'desk.findPatients' | 'desk.patient'> {
  return {
    // The clock before the read: an outbox entry moved after it has updated_at at or after it.
    'desk.today': async (input) => {
      const asOf = deps.clock.now().toISOString();
      if (input.first === undefined) return { data: todayRows(deps.db, input), as_of: asOf };
      const { rows, total } = firstTodayRows(deps.db, { since: input.since, first: input.first });
      return { data: rows, as_of: asOf, total };
    },
    'desk.todayChanges': async (input) => {
      const asOf = deps.clock.now().toISOString();
      return todayChanges(deps.db, input, asOf);
    },
    'desk.findPatients': async (input) => ({ data: findPatients(deps.db, input) }),
    'desk.patient': async (input) => patientDetail(deps, input),
  };
}

/** A patient's details corrected: the chart, its audit entry and what the upstream is given, together. */
export function patientCorrectionHandlers(deps: CorrectPatientDeps): HandlersFor<'patients.correct'> {
  return {
    'patients.correct': (input) => correctPatient(deps, input),
  };
}
