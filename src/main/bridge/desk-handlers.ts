import { correctPatient, type CorrectPatientDeps } from '../desk/correct-patient';
import { findPatients } from '../desk/find-patients';
import { patientDetail } from '../desk/patient-detail';
import { todayRows } from '../desk/today';
import type { RecordStoreDeps } from '../records/record-store';
import type { HandlersFor } from './handlers';

/** The front desk's read models: Today, patient search, one patient's history. */
export function deskHandlers(deps: RecordStoreDeps): HandlersFor<'desk.today' | 'desk.findPatients' | 'desk.patient'> {
  return {
    'desk.today': async (input) => ({ data: todayRows(deps.db, input) }),
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
