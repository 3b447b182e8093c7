import { clearinghouse_entities } from '../db/schema';
import { findRow } from '../records/record-store';
import type { Db } from '../db/open-database';
import { insertCreated, type CreateEffects } from '../operations/local-service';
import type { CardOutcome } from '../../shared/bridge/appointment-contract';
import { normalizeMemberId } from '../../shared/bridge/desk-search';
import { isScheduleCardReference, SCHEDULE_CARD_REFERENCE } from '../../shared/bridge/schedule-card';
import { InsuranceCardCreate, type Source } from '../../shared/contract';
import { withDirectoryFacts } from '../../shared/payers/payer-directory';
import { buildPayerIndex, resolvePayer, type PayerResolution } from '../../shared/payers/payer-search';
import { parseOrThrow } from '../../shared/service-error';
import type { AppointmentRow } from './appointment-store';

/** The schedule's insurance of one appointment, as stored on it. */
export type ScheduleInsurance = Pick<AppointmentRow, 'member_id' | 'payer' | 'clearinghouse_entity_id' | 'payer_candidate_ids' | 'group_number' | 'relationship'>;

/**
 * The payers the desk knows (its cache of the upstream's clearinghouse entities, with the
 * directory's alias ids and alternate names), searched as the payer picker searches them.
 * Built once per import.
 */
export function payerResolver(db: Db): (text: string) => PayerResolution {
  const index = buildPayerIndex(withDirectoryFacts(db.select().from(clearinghouse_entities).all()));
  return (text) => resolvePayer(index, text);
}

/**
 * The card an appointment's insurance makes for its patient, through the normal create
 * path (its outbox entry in the caller's transaction), marked as from the schedule by its
 * reference id and with no photos. Nothing when the patient already has a card with that
 * member id and payer (so importing the same file again makes no second card), when the
 * payer waits for a person's choice, or when there is no patient yet.
 */
export function ensureScheduleCard(
  deps: Parameters<typeof insertCreated>[0],
  effects: CreateEffects,
  appointment: Pick<AppointmentRow, 'id' | 'patient_id'> & ScheduleInsurance,
  source: Source,
): { outcome: CardOutcome; card_id: string | null } {
  if (!appointment.member_id || !appointment.payer) return { outcome: 'none', card_id: null };
  if (!appointment.clearinghouse_entity_id) return { outcome: 'needs_payer', card_id: null };
  if (!appointment.patient_id) return { outcome: 'needs_patient', card_id: null };
  const sqlite = deps.db.$client;
  const cards = sqlite
    .prepare<[string], { id: string; member_id: string | null; carriers: string; reference_id: string | null }>(
      'SELECT id, member_id, insurance_carrier_ids AS carriers, reference_id FROM insurance_cards WHERE patient_id = ? ORDER BY id',
    )
    .all(appointment.patient_id);
  const memberId = normalizeMemberId(appointment.member_id);
  const onFile = cards.find((c) => c.member_id !== null && normalizeMemberId(c.member_id) === memberId && (JSON.parse(c.carriers) as string[])[0] === appointment.clearinghouse_entity_id);
  if (onFile) return { outcome: 'on_file', card_id: onFile.id };
  const patient = findRow(deps.db, 'patients', appointment.patient_id);
  const fullName = patient ? `${patient.first_name} ${patient.last_name}` : undefined;
  // A reference id of our own: it says where the card came from, and stays unique when a
  // later schedule gives the same appointment another card.
  const earlier = cards.filter((c) => isScheduleCardReference(c.reference_id) && c.reference_id!.startsWith(`${SCHEDULE_CARD_REFERENCE}${appointment.id}`)).length;
  const input = parseOrThrow(InsuranceCardCreate, {
    patient_id: appointment.patient_id,
    reference_id: `${SCHEDULE_CARD_REFERENCE}${appointment.id}${earlier > 0 ? `:${earlier + 1}` : ''}`,
    member_id: appointment.member_id,
    insurance_carrier_ids: [appointment.clearinghouse_entity_id],
    ...(appointment.group_number ? { group_number: appointment.group_number } : {}),
    // The subscriber is the patient (self), or the patient is a dependant of someone the schedule does not name.
    ...(fullName && appointment.relationship === 'self' ? { member_name: fullName } : {}),
    ...(fullName && appointment.relationship && appointment.relationship !== 'self' ? { dependent_names: [fullName] } : {}),
  });
  const card = insertCreated(deps, effects, 'insurance_cards', input, { source });
  return { outcome: 'created', card_id: card.id };
}

/**
 * A row without insurance, for a patient with no card at all: a blank card from the
 * schedule and a discovery on it (the desk's "Discovery without a card", done at import),
 * asking about the appointment's service type. Nothing when the patient has a card (a
 * re-import, or a card taken at the desk): that card is what the batch checks.
 */
export function discoverWithoutInsurance(
  deps: Parameters<typeof insertCreated>[0],
  effects: CreateEffects,
  appointment: Pick<AppointmentRow, 'id' | 'patient_id' | 'service_type'>,
  source: Source,
): { card_id: string; discovery_id: string } | null {
  if (!appointment.patient_id) return null;
  const hasCard = deps.db.$client.prepare<[string], { n: number }>('SELECT count(*) AS n FROM insurance_cards WHERE patient_id = ?').get(appointment.patient_id)!.n > 0;
  if (hasCard) return null;
  const card = insertCreated(deps, effects, 'insurance_cards', { patient_id: appointment.patient_id, reference_id: `${SCHEDULE_CARD_REFERENCE}${appointment.id}` }, { source });
  const discovery = insertCreated(
    deps,
    effects,
    'electronic_eligibility_discoveries',
    { source, insurance_card_id: card.id, ...(appointment.service_type ? { service_type: appointment.service_type } : {}) },
    { source },
  );
  return { card_id: card.id, discovery_id: discovery.id };
}
