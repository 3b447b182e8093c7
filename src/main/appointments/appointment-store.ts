import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/open-database';
import { appointments } from '../db/schema';
import type { Appointment } from '../../shared/bridge/appointment-contract';
import { notFound } from '../../shared/service-error';

export type AppointmentRow = typeof appointments.$inferSelect;

export function toAppointment(row: AppointmentRow): Appointment {
  return {
    id: row.id,
    date: row.date,
    time: row.time,
    first_name: row.first_name,
    last_name: row.last_name,
    date_of_birth: row.date_of_birth,
    member_id: row.member_id,
    payer: row.payer,
    clearinghouse_entity_id: row.clearinghouse_entity_id,
    payer_candidate_ids: row.payer_candidate_ids,
    group_number: row.group_number,
    relationship: row.relationship,
    phone: row.phone,
    provider_id: row.provider_id,
    visit_type: row.visit_type,
    service_type: row.service_type,
    location: row.location,
    external_id: row.external_id,
    patient_id: row.patient_id,
    patient_match: row.patient_match,
    candidate_patient_ids: row.candidate_patient_ids,
    created_at: row.created_at,
  };
}

/** One day's appointments in time order. */
export function appointmentsOn(db: Db, date: string): AppointmentRow[] {
  return db.select().from(appointments).where(eq(appointments.date, date)).orderBy(asc(appointments.time), asc(appointments.id)).all();
}

export function appointmentRow(db: Db, id: string): AppointmentRow {
  const row = db.select().from(appointments).where(eq(appointments.id, id)).get();
  if (!row) throw notFound('appointment', id);
  return row;
}
