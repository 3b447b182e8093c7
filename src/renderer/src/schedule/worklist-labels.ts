import type { ScheduleField, SkipReason, WorklistRow, WorklistStatus } from '../../../shared/bridge/appointment-contract';
import type { Route } from '../state/navigation';

type Tone = 'ok' | 'bad' | 'warn' | 'info' | 'neutral';

/** The one status a person reads on the worklist, in words first and colour second. */
export const WORKLIST_STATUS: Record<WorklistStatus, { label: string; tone: Tone }> = {
  needs_patient: { label: 'Which patient?', tone: 'bad' },
  needs_payer: { label: 'Which payer?', tone: 'bad' },
  no_provider: { label: 'No provider set', tone: 'bad' },
  no_card: { label: 'No card', tone: 'bad' },
  payer_unknown: { label: 'Payer unknown', tone: 'bad' },
  rejected: { label: 'Rejected', tone: 'bad' },
  inactive: { label: 'Inactive', tone: 'bad' },
  check_failed: { label: 'Check failed', tone: 'bad' },
  pending: { label: 'Checking…', tone: 'info' },
  queued_offline: { label: 'Waiting to send', tone: 'warn' },
  not_checked: { label: 'Not checked', tone: 'neutral' },
  ready: { label: 'Ready', tone: 'ok' },
};

/** Each status's one-click action: where it takes the desk. `null`: handled on the worklist itself. */
export function worklistAction(row: WorklistRow): { label: string; route: Route | null } | null {
  const patientId = row.appointment.patient_id ?? undefined;
  const cardId = row.card_id ?? undefined;
  switch (row.status) {
    case 'needs_patient':
      return { label: 'Choose patient', route: null };
    case 'needs_payer':
      return { label: 'Choose payer', route: null };
    case 'no_provider':
      return { label: 'Choose provider', route: { screen: 'settings' } };
    case 'no_card':
      return { label: 'Take card photo', route: { screen: 'intake', patientId } };
    case 'payer_unknown':
    case 'inactive':
      return { label: 'Run discovery', route: { screen: 'discovery', patientId, cardId } };
    case 'rejected':
    case 'check_failed':
      return { label: 'Open the fix', route: { screen: 'eligibility', patientId, cardId, checkId: row.check_id ?? undefined } };
    case 'ready':
    case 'pending':
    case 'queued_offline':
      return { label: 'Open', route: { screen: 'eligibility', patientId, cardId, checkId: row.check_id ?? undefined } };
    case 'not_checked':
      return null;
  }
}

export const FIELD_LABELS: Record<ScheduleField, string> = {
  external_id: 'Appointment id',
  date: 'Date',
  time: 'Time',
  first_name: 'First name',
  last_name: 'Last name',
  patient_name: 'Patient name (one column)',
  date_of_birth: 'Date of birth',
  member_id: 'Member id',
  payer: 'Payer (name or payer id)',
  group_number: 'Group number',
  relationship: 'Relationship to subscriber',
  phone: 'Phone',
  provider: 'Provider',
  visit_type: 'Visit type',
  location: 'Location',
};

export const SKIP_LABELS: Record<SkipReason, string> = {
  missing_name: 'No name',
  missing_date_of_birth: 'No date of birth',
  invalid_date_of_birth: 'Date of birth not valid',
  missing_date: 'No date',
  invalid_date: 'Date not valid',
  invalid_time: 'Time not valid',
  unknown_provider: 'Provider not known',
  unknown_visit_type: 'Visit type not known',
  invalid_field: 'Value not valid',
  duplicate_row: 'Duplicate row',
  unknown_payer: 'Payer not known',
  invalid_member_id: 'Member id not valid',
  incomplete_insurance: 'Insurance half filled',
  invalid_relationship: 'Relationship not known',
};

/** A skipped row's column as the mapping names it (the field, when it is not a schedule column). */
export function columnLabel(field: string): string {
  return field in FIELD_LABELS ? FIELD_LABELS[field as ScheduleField] : field;
}

/** "9:30 AM" from "09:30": how the desk reads a time. */
export function formatTime(hhmm: string): string {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return `${((h + 11) % 12) + 1}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}
