import { inTransaction, type Db } from '../db/open-database';
import { batch_jobs, eligibility_batches } from '../db/schema';
import { appointmentsOn, type AppointmentRow } from '../appointments/appointment-store';
import type { BatchSkip } from '../../shared/bridge/appointment-contract';
import { ServiceError } from '../../shared/service-error';
import { NO_PROVIDER_MESSAGE } from './worklist';
import { currentCardOf } from '../records/current-card';
import type { BatchDeps } from './batch-deps';

export type JobDecision = { state: 'queued'; insurance_card_id: string } | { state: 'skipped'; reason: BatchSkip; insurance_card_id: string | null };

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Whether an appointment needs a check now: its patient is known, has a card naming a
 * payer, a provider is known, and no check of that payer succeeded within `recheckDays`
 * (or is under way, in this batch or another).
 */
export function decideJob(db: Db, appointment: AppointmentRow, options: { now: Date; recheckDays: number; defaultProviderId: string | null }): JobDecision {
  if (!appointment.patient_id) return { state: 'skipped', reason: 'no_patient_match', insurance_card_id: null };
  const sqlite = db.$client;
  const card = currentCardOf(db, appointment.patient_id);
  if (!card) return { state: 'skipped', reason: 'no_card', insurance_card_id: null };
  const payer = (JSON.parse(card.carriers) as string[])[0];
  if (!payer) return { state: 'skipped', reason: 'payer_unknown', insurance_card_id: card.id };
  if (!(appointment.provider_id ?? options.defaultProviderId)) return { state: 'skipped', reason: 'no_provider', insurance_card_id: card.id };
  const since = new Date(options.now.getTime() - options.recheckDays * DAY_MS).toISOString();
  const recent = sqlite
    .prepare<[string, string, string], { status: string }>(
      `SELECT c.status FROM electronic_eligibility_checks c JOIN insurance_cards ic ON ic.id = c.insurance_card_id
       WHERE ic.patient_id = ? AND c.clearinghouse_entity_id = ? AND c.created_at >= ? AND c.status IN ('success', 'pending')
       ORDER BY c.status = 'success' DESC LIMIT 1`,
    )
    .get(appointment.patient_id, payer, since);
  if (recent?.status === 'success') return { state: 'skipped', reason: 'recent_check', insurance_card_id: card.id };
  const queuedElsewhere = sqlite
    .prepare<[string], { n: number }>("SELECT count(*) AS n FROM batch_jobs WHERE appointment_id = ? AND state = 'queued'")
    .get(appointment.id)!.n;
  if (recent?.status === 'pending' || queuedElsewhere > 0) return { state: 'skipped', reason: 'already_checking', insurance_card_id: card.id };
  return { state: 'queued', insurance_card_id: card.id };
}

/** What a provider would not change: the patient is unknown, or the check is recent or under way. */
const WITHOUT_PROVIDER: ReadonlySet<BatchSkip> = new Set(['no_patient_match', 'recent_check', 'already_checking']);

/**
 * A batch for one day: the batch and a job per appointment, written in one transaction, so
 * a crash leaves either the whole list or none of it. What runs the checks is the runner.
 * Refused, writing nothing, while an appointment to check has no provider and the practice
 * has no default one (a fresh install): a batch that skipped them all would look done.
 */
export function planBatch(deps: BatchDeps, input: { date: string; start_at?: string }): string {
  const { db, clock, ids } = deps;
  const now = clock.now();
  const startAt = input.start_at ?? now.toISOString();
  const settings = deps.settings.read();
  const defaultProviderId = deps.practice().default_provider_id;
  const id = ids.next('bat');
  inTransaction(db, () => {
    db.insert(eligibility_batches)
      .values({ id, date: input.date, start_at: startAt, state: startAt <= now.toISOString() ? 'running' : 'scheduled', created_at: now.toISOString() })
      .run();
    const decided = appointmentsOn(db, input.date).map((appointment) => ({ appointment, decision: decideJob(db, appointment, { now, recheckDays: settings.recheck_days, defaultProviderId }) }));
    const unprovided = decided.filter(({ appointment, decision }) => !(appointment.provider_id ?? defaultProviderId) && !(decision.state === 'skipped' && WITHOUT_PROVIDER.has(decision.reason)));
    if (unprovided.length > 0) {
      throw new ServiceError('no_provider', NO_PROVIDER_MESSAGE, [{ path: 'default_provider_id', code: 'no_provider', message: `${unprovided.length} of the day's appointments name no provider and the practice has no default provider: choose the provider the practice bills under.` }], { status: 422, type: 'invalid_request_error' });
    }
    for (const { appointment, decision } of decided) {
      db.insert(batch_jobs)
        .values({
          id: ids.next('bjb'),
          batch_id: id,
          appointment_id: appointment.id,
          state: decision.state,
          skip_reason: decision.state === 'skipped' ? decision.reason : null,
          insurance_card_id: decision.insurance_card_id,
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        })
        .run();
    }
  });
  deps.onProgress?.(input.date);
  return id;
}
