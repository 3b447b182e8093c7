import { eq } from 'drizzle-orm';
import { inTransaction } from '../db/open-database';
import { appointments, clearinghouse_entities, patients } from '../db/schema';
import { insertCreated, outboxEffects } from '../operations/local-service';
import type { Appointment } from '../../shared/bridge/appointment-contract';
import { referenceNotFound, validationFailed } from '../../shared/service-error';
import type { AppointmentDeps } from './appointment-import';
import { appointmentRow, toAppointment } from './appointment-store';
import { ensureScheduleCard } from './schedule-card';

/**
 * A person settles whose appointment it is: one of the candidates (or any patient), or a
 * new patient from the appointment's name and birth date. Never decided by the import.
 */
export function assignPatient(deps: AppointmentDeps, input: { id: string; patient_id: string | null }): Appointment {
  const { db } = deps;
  let createdPatient: string | null = null;
  let createdCard: string | null = null;
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
    // The schedule's insurance waited for the patient: now it becomes their card.
    const card = ensureScheduleCard(deps, outboxEffects(deps), { ...row, patient_id: patientId }, 'dashboard');
    if (card.outcome === 'created') createdCard = card.card_id;
  });
  if (createdPatient) deps.onChange?.({ collection: 'patients', id: createdPatient });
  if (createdCard) deps.onChange?.({ collection: 'insurance_cards', id: createdCard });
  deps.onChange?.({ collection: 'appointments', id: input.id });
  return toAppointment(appointmentRow(db, input.id));
}

/**
 * A person settles which payer the schedule meant (its payer fitted several): the choice is
 * kept on the appointment (a re-import with the same payer keeps it) and the card is made.
 */
export function choosePayer(deps: AppointmentDeps, input: { id: string; clearinghouse_entity_id: string }): Appointment {
  const { db } = deps;
  let card: { outcome: string; card_id: string | null } = { outcome: 'none', card_id: null };
  inTransaction(db, () => {
    const row = appointmentRow(db, input.id);
    if (!row.payer || !row.member_id) {
      throw validationFailed([{ path: 'id', code: 'no_schedule_insurance', message: 'This appointment has no member id and payer from the schedule: take the card at the desk instead.' }]);
    }
    if (!db.select({ id: clearinghouse_entities.id }).from(clearinghouse_entities).where(eq(clearinghouse_entities.id, input.clearinghouse_entity_id)).get()) {
      throw validationFailed([referenceNotFound('clearinghouse_entity_id', 'clearinghouse entity', input.clearinghouse_entity_id)]);
    }
    db.update(appointments)
      .set({ clearinghouse_entity_id: input.clearinghouse_entity_id, payer_candidate_ids: [], updated_at: deps.clock.now().toISOString() })
      .where(eq(appointments.id, row.id))
      .run();
    card = ensureScheduleCard(deps, outboxEffects(deps), { ...row, clearinghouse_entity_id: input.clearinghouse_entity_id }, 'dashboard');
  });
  if (card.card_id && card.outcome === 'created') deps.onChange?.({ collection: 'insurance_cards', id: card.card_id });
  deps.onChange?.({ collection: 'appointments', id: input.id });
  return toAppointment(appointmentRow(db, input.id));
}
