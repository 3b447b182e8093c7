import { eq } from 'drizzle-orm';
import { inTransaction } from '../db/open-database';
import { batch_jobs, eligibility_batches } from '../db/schema';
import { appointmentRow } from '../appointments/appointment-store';
import { insertCreated, outboxEffects } from '../operations/local-service';
import type { HostComponent } from '../support/host-component';
import { isServiceError } from '../../shared/service-error';
import type { BatchDeps } from './batch-deps';

interface QueuedJob {
  id: string;
  batch_id: string;
  appointment_id: string;
  insurance_card_id: string;
  date: string;
}

/**
 * One step of every running batch: scheduled batches whose time has come start; then as
 * many queued jobs as the bound allows get their check. A job turns `done` in the same
 * transaction that creates its check (and the check's outbox entry), so however the
 * process dies, an appointment is checked once. Answers how many checks it created.
 *
 * The bound: at most `max_in_flight` batch checks still waiting for an answer. The sync
 * worker holds every send while the upstream asks to wait (`Retry-After`) and the batch's
 * checks stay pending meanwhile, so the batch waits too. Offline nothing can be in flight:
 * checks are made and queue in the outbox as any check made at the desk does.
 */
export function stepBatches(deps: BatchDeps, upstream: { online: boolean | null }): number {
  const { db, clock } = deps;
  const sqlite = db.$client;
  const now = clock.now().toISOString();
  const dates = new Set<string>();
  for (const b of sqlite.prepare<[string], { id: string; date: string }>("SELECT id, date FROM eligibility_batches WHERE state = 'scheduled' AND start_at <= ?").all(now)) {
    db.update(eligibility_batches).set({ state: 'running' }).where(eq(eligibility_batches.id, b.id)).run();
    dates.add(b.date);
  }
  const settings = deps.settings.read();
  const inFlight = sqlite
    .prepare<[], { n: number }>(
      `SELECT count(*) AS n FROM batch_jobs j JOIN electronic_eligibility_checks c ON c.id = j.check_id
       JOIN eligibility_batches b ON b.id = j.batch_id WHERE b.state = 'running' AND c.status = 'pending'`,
    )
    .get()!.n;
  // Offline: a round of checks at a time, queued behind each other in the outbox.
  const room = upstream.online === false ? 50 : Math.max(0, settings.max_in_flight - inFlight);
  const queued = sqlite
    .prepare<[number], QueuedJob>(
      `SELECT j.id, j.batch_id, j.appointment_id, j.insurance_card_id, b.date FROM batch_jobs j
       JOIN eligibility_batches b ON b.id = j.batch_id JOIN appointments a ON a.id = j.appointment_id
       WHERE b.state = 'running' AND j.state = 'queued' ORDER BY a.date, a.time, j.id LIMIT ?`,
    )
    .all(room);
  const practice = deps.practice();
  const effects = outboxEffects(deps);
  const created: string[] = [];
  for (const job of queued) {
    dates.add(job.date);
    const appointment = appointmentRow(db, job.appointment_id);
    const card = sqlite.prepare<[string], { carriers: string }>('SELECT insurance_carrier_ids AS carriers FROM insurance_cards WHERE id = ?').get(job.insurance_card_id);
    const payer = card ? (JSON.parse(card.carriers) as string[])[0] : undefined;
    const input = {
      insurance_card_id: job.insurance_card_id,
      provider_id: appointment.provider_id ?? practice.default_provider_id ?? '',
      clearinghouse_entity_id: payer ?? '',
      service_type: appointment.service_type ?? practice.default_service_type ?? 'health_benefit_plan_coverage',
    };
    try {
      inTransaction(db, () => {
        // The desk asked for the batch ("Check tomorrow"): its checks are the desk's, not a discovery's (`system`).
        const check = insertCreated(deps, effects, 'electronic_eligibility_checks', input, { source: 'dashboard' });
        db.update(batch_jobs).set({ state: 'done', check_id: check.id, updated_at: now }).where(eq(batch_jobs.id, job.id)).run();
        deps.audit?.append('create', check.id);
        created.push(check.id);
      });
    } catch (error) {
      // A provider or payer removed since the batch was planned: the desk is told, the batch goes on.
      if (!isServiceError(error)) throw error;
      db.update(batch_jobs).set({ state: 'skipped', skip_reason: 'check_refused', updated_at: now }).where(eq(batch_jobs.id, job.id)).run();
    }
  }
  // Finished once every job has its check and every check its answer; until then each step
  // reports progress (answers arrive through sync, not through this step).
  for (const b of sqlite.prepare<[], { id: string; date: string; open: number }>(
    `SELECT id, date, EXISTS (SELECT 1 FROM batch_jobs j LEFT JOIN electronic_eligibility_checks c ON c.id = j.check_id
                              WHERE j.batch_id = b.id AND (j.state = 'queued' OR c.status = 'pending')) AS open
     FROM eligibility_batches b WHERE state = 'running'`,
  ).all()) {
    if (!b.open) db.update(eligibility_batches).set({ state: 'finished', finished_at: now }).where(eq(eligibility_batches.id, b.id)).run();
    dates.add(b.date);
  }
  for (const id of created) deps.onChange?.({ collection: 'electronic_eligibility_checks', id });
  for (const date of dates) deps.onProgress?.(date);
  return created.length;
}

export interface BatchRunner extends HostComponent {
  /** Runs a step now (after a batch is planned, or a check answered). */
  wake(): void;
}

/**
 * The batch runner as a host component: steps on a timer while the app is open (which is
 * also what starts a scheduled batch at its time), and at once when woken. Everything it
 * knows is in SQLite, so a restart simply carries on.
 */
export function createBatchRunner(deps: BatchDeps & { upstream(): { online: boolean | null }; intervalMs?: number; log?(event: string, fields: { error: string }): void }): BatchRunner {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  const step = () => {
    if (!running) return;
    try {
      stepBatches(deps, deps.upstream());
    } catch (error) {
      deps.log?.('batch.step_failed', { error: error instanceof Error ? error.name : 'unknown' });
    }
  };
  const schedule = () => {
    timer = setTimeout(() => {
      step();
      if (running) schedule();
    }, deps.intervalMs ?? 500);
    timer.unref();
  };
  return {
    name: 'batch-runner',
    async start() {
      running = true;
      step();
      schedule();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
    },
    wake() {
      setImmediate(step);
    },
  };
}
