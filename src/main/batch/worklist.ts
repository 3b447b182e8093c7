import type { Db } from '../db/open-database';
import { appointmentsOn, toAppointment } from '../appointments/appointment-store';
import type { WorklistRow, WorklistStatus } from '../../shared/bridge/appointment-contract';
import { CURRENT_CARD_ORDER, type CurrentCardRow } from '../records/current-card';
import { preparedOnce } from '../records/statements';
import { eligibilityBadge } from '../../shared/bridge/desk-eligibility';
import type { Benefit, ClearinghouseEntityError } from '../../shared/contract';
import { formatAmount } from '../../shared/money';
import { isScheduleCardReference } from '../../shared/bridge/schedule-card';

/** Without a provider no check can be asked: the one fix is the practice's, so every waiting row says so. */
export const NO_PROVIDER_MESSAGE = 'No provider set: choose one, the provider the practice bills under, above the worklist or in Settings.';
const NO_PROVIDER_ROW = 'No provider set: choose one above the worklist or in Settings.';

/** The statuses a provider would move on: a row already answered keeps its answer. */
const NEEDS_PROVIDER: ReadonlySet<WorklistStatus> = new Set(['no_card', 'payer_unknown', 'not_checked']);

const GROUP: Record<WorklistStatus, WorklistRow['group']> = {
  needs_patient: 'needs_attention',
  needs_payer: 'needs_attention',
  no_provider: 'needs_attention',
  no_card: 'needs_attention',
  payer_unknown: 'needs_attention',
  rejected: 'needs_attention',
  inactive: 'needs_attention',
  check_failed: 'needs_attention',
  pending: 'waiting',
  queued_offline: 'waiting',
  not_checked: 'waiting',
  ready: 'ready',
};
const ORDER: WorklistRow['group'][] = ['needs_attention', 'waiting', 'ready'];

interface CheckRow {
  card_id: string;
  id: string;
  status: 'pending' | 'success' | 'failure';
  benefits: string | null;
  errors: string | null;
  outbox_state: string | null;
}

/** The co-payment a person collects at the counter: the first in-network (or unspecified) one. */
function copayOf(benefits: Benefit[]): string | null {
  const copays = benefits.filter((b) => b.code === 'co_payment' && b.amount !== undefined);
  const chosen = copays.find((b) => b.in_network === 'yes') ?? copays[0];
  return chosen?.amount ?? null;
}

/**
 * A day's appointments, each with the one status a person reads at a glance and what to do
 * about it; what needs a person first, then what is waiting, then what is ready.
 */
/**
 * The worklist's reads, each for the whole day at once (ids as one JSON array): a day of 1,000
 * appointments is four statements, not a card, a check and a discovery lookup per row.
 */
function statements(db: Db) {
  const sqlite = db.$client;
  return preparedOnce(db, 'batch:worklist', () => ({
    // Each patient's current card: the same rule as currentCardOf (CURRENT_CARD_ORDER), one index
    // seek per patient inside SQLite (a window over all their cards sorted the lot: slower).
    currentCards: sqlite.prepare<[string], CurrentCardRow & { patient_id: string }>(
      `SELECT p.value AS patient_id, c.id, c.insurance_carrier_ids AS carriers, c.reference_id FROM json_each(?) p
       JOIN insurance_cards c ON c.id = (SELECT id FROM insurance_cards WHERE patient_id = p.value ORDER BY ${CURRENT_CARD_ORDER} LIMIT 1)`,
    ),
    // Each card's newest check (by id, as before) and how far it got upstream.
    newestChecks: sqlite.prepare<[string], CheckRow>(
      `SELECT k.value AS card_id, c.id, c.status, c.benefits, c.clearinghouse_entity_errors AS errors,
              (SELECT state FROM outbox o WHERE o.record_id = c.id ORDER BY o.id DESC LIMIT 1) AS outbox_state
       FROM json_each(?) k JOIN electronic_eligibility_checks c
         ON c.id = (SELECT id FROM electronic_eligibility_checks WHERE insurance_card_id = k.value ORDER BY id DESC LIMIT 1)`,
    ),
    discovering: sqlite.prepare<[string], { card_id: string }>(
      `SELECT DISTINCT insurance_card_id AS card_id FROM electronic_eligibility_discoveries
       WHERE status = 'pending' AND insurance_card_id IN (SELECT value FROM json_each(?))`,
    ),
  }));
}

/**
 * A day's appointments, each with the one status a person reads at a glance and what to do
 * about it; what needs a person first, then what is waiting, then what is ready.
 */
export function worklist(db: Db, date: string, practice: { default_provider_id: string | null } = { default_provider_id: null }): WorklistRow[] {
  const s = statements(db);
  const appointments = appointmentsOn(db, date);
  const patientIds = [...new Set(appointments.flatMap((row) => (row.patient_id ? [row.patient_id] : [])))];
  const cards = new Map(patientIds.length ? s.currentCards.all(JSON.stringify(patientIds)).map((card) => [card.patient_id, card]) : []);
  const cardIds = JSON.stringify([...cards.values()].map((card) => card.id));
  const newestCheck = new Map(cards.size ? s.newestChecks.all(cardIds).map((check) => [check.card_id, check]) : []);
  const discovering = new Set(cards.size ? s.discovering.all(cardIds).map((row) => row.card_id) : []);
  const rows = appointments.map((row): WorklistRow => {
    const status = statusOf(row);
    return NEEDS_PROVIDER.has(status.status) && !(row.provider_id ?? practice.default_provider_id) ? { ...status, status: 'no_provider', group: GROUP.no_provider, detail: NO_PROVIDER_ROW } : status;
  });
  function statusOf(row: ReturnType<typeof appointmentsOn>[number]): WorklistRow {
    const appointment = toAppointment(row);
    const base = { appointment, card_id: null, card_from_schedule: false, check_id: null, copay: null, estimate: null, gfe: null };
    const make = (status: WorklistStatus, detail: string, extra: Partial<WorklistRow> = {}): WorklistRow => ({ ...base, ...extra, status, group: GROUP[status], detail });
    if (!row.patient_id) return make('needs_patient', `${row.candidate_patient_ids.length} patients have this name and date of birth: choose which one this is.`);
    if (!row.clearinghouse_entity_id && row.payer_candidate_ids.length > 0) {
      return make('needs_payer', `The schedule's payer “${row.payer}” fits ${row.payer_candidate_ids.length} payers: choose which one, and its card is made.`);
    }
    const card = cards.get(row.patient_id);
    if (!card) return make('no_card', 'No insurance card on file: take the card photo at arrival.');
    base.card_from_schedule = isScheduleCardReference(card.reference_id);
    if ((JSON.parse(card.carriers) as string[]).length === 0 && discovering.has(card.id)) {
      return make('pending', 'Discovery is looking for the coverage (no insurance in the schedule).', { card_id: card.id });
    }
    if ((JSON.parse(card.carriers) as string[]).length === 0) return make('payer_unknown', 'The card names no payer: run discovery to find the coverage.', { card_id: card.id });
    const check = newestCheck.get(card.id);
    if (!check) return make('not_checked', 'Not checked yet: run "Check" for this day.', { card_id: card.id });
    const ids = { card_id: card.id, check_id: check.id };
    if (check.status === 'pending') {
      return check.outbox_state === 'synced' || check.outbox_state === 'sending'
        ? make('pending', 'Asked the payer; waiting for the answer.', ids)
        : make('queued_offline', 'Waiting to be sent (the eligibility service is not reachable yet).', ids);
    }
    if (check.status === 'failure') {
      const errors = check.errors ? (JSON.parse(check.errors) as ClearinghouseEntityError[]) : [];
      if (errors.length > 0) {
        const first = errors[0];
        const fix = first.field ? `Correct the ${first.field.replace(/_/g, ' ')} and check again.` : 'Open the check to see what to fix.';
        return make('rejected', `The payer rejected the check: ${first.description.replace(/\.$/, '')}. ${fix}`, ids);
      }
      return make('check_failed', 'The check could not be completed: run it again.', ids);
    }
    const benefits = check.benefits ? (JSON.parse(check.benefits) as Benefit[]) : [];
    if (eligibilityBadge({ status: 'success', benefit_codes: benefits.map((b) => b.code) }) === 'inactive') {
      return make('inactive', 'Coverage is inactive: ask for a current card or run discovery.', ids);
    }
    const copay = copayOf(benefits);
    return make('ready', copay ? `Active; copay ${formatAmount(copay)}.` : 'Active.', { ...ids, copay });
  }
  // The appointments come by time (then id): grouping them in that order keeps it within each group,
  // without comparing 1,000 times by locale.
  return ORDER.flatMap((group) => rows.filter((row) => row.group === group));
}
