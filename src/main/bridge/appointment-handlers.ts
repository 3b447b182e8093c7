import { assignPatient, choosePayer } from '../appointments/assign-patient';
import { createAppointment, importSchedule, previewSchedule, type AppointmentDeps } from '../appointments/appointment-import';
import { appointmentsOn, toAppointment } from '../appointments/appointment-store';
import type { ScheduleFileInput } from '../../shared/bridge/appointment-contract';
import type { HandlersFor } from './handlers';

/** A dropped file's bytes, or pasted text as the UTF-8 it is. */
export function bytesOf(input: ScheduleFileInput): Uint8Array {
  return 'text' in input ? new TextEncoder().encode(input.text) : Buffer.from(input.data_base64, 'base64');
}

type AppointmentMethods =
  | 'appointments.list'
  | 'appointments.create'
  | 'appointments.preview'
  | 'appointments.import'
  | 'appointments.assignPatient'
  | 'appointments.choosePayer'
  | 'appointments.settings'
  | 'appointments.updateSettings';

/** The schedule from the desk: appointments made here are `dashboard`, as every desk record is. */
export function appointmentHandlers(deps: AppointmentDeps): HandlersFor<AppointmentMethods> {
  return {
    'appointments.list': async ({ date }) => ({ data: appointmentsOn(deps.db, date).map(toAppointment) }),
    'appointments.create': async (input) => createAppointment(deps, input, 'dashboard'),
    'appointments.preview': async (input) => previewSchedule(deps, bytesOf(input)),
    'appointments.import': async ({ mapping, ...file }) => importSchedule(deps, { bytes: bytesOf(file), mapping, source: 'dashboard' }),
    'appointments.assignPatient': async (input) => assignPatient(deps, input),
    'appointments.choosePayer': async (input) => choosePayer(deps, input),
    'appointments.settings': async () => deps.settings.read(),
    'appointments.updateSettings': async (change) => deps.settings.update(change),
  };
}
