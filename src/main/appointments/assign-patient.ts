import { eq } from 'drizzle-orm';
import { inTransaction } from '../db/open-database';
import { appointments, patients } from '../db/schema';
import { insertCreated, outboxEffects } from '../operations/local-service';
import type { Appointment } from '../../shared/bridge/appointment-contract';
import { referenceNotFound, validationFailed } from '../../shared/service-error';
import type { AppointmentDeps } from './appointment-import';
import { appointmentRow, toAppointment } from './appointment-store';

/**
 * A person settles whose appointment it is: one of the candidates (or any patient), or a
 * new patient from the appointment's name and birth date. Never decided by the import.
 */
export function assignPatient(deps: AppointmentDeps, input: { id: string; patient_id: string | null }): Appointment {
  const { db } = deps;
  let createdPatient: string | null = null;
  inTransaction(db, () => {
    const row = appointmentRow(db, input.id);
    let patientId = input.patient_id;
    if (patientId === null) {
      const person = { first_name: row.first_name, last_name: row.last_name, date_of_birth: row.date_of_birth };
      patientId = insertCreated(deps, outboxEffects(deps), 'patients', person, { source: 'dashboard' }).id;
      createdPatient = patientId;
    } else if (!db.select({ id: patients.id }).from(patients).where(eq(patients.id, patientId)).get()) {
      throw validationFailed([referenceNotFound('patient_id', 'patient', patientId)]);
    }
    db.update(appointments)
      .set({ patient_id: patientId, patient_match: createdPatient ? 'created' : 'matched', candidate_patient_ids: [], updated_at: deps.clock.now().toISOString() })
      .where(eq(appointments.id, row.id))
      .run();
  });
  if (createdPatient) deps.onChange?.({ collection: 'patients', id: createdPatient });
  deps.onChange?.({ collection: 'appointments', id: input.id });
  return toAppointment(appointmentRow(db, input.id));
}
