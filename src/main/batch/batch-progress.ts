import type { Db } from '../db/open-database';
import type { BatchProgress } from '../../shared/bridge/appointment-contract';
import type { Clock } from '../support/clock';

/**
 * Where the newest batch of a day stands: jobs, checks made, answered, in flight, and the
 * time left at the pace of the answers so far.
 */
export function batchProgress(deps: { db: Db; clock: Clock }, date: string): BatchProgress {
  const sqlite = deps.db.$client;
  const batch = sqlite
    .prepare<[string], { id: string; state: 'scheduled' | 'running' | 'finished'; start_at: string; created_at: string }>(
      'SELECT id, state, start_at, created_at FROM eligibility_batches WHERE date = ? ORDER BY id DESC LIMIT 1',
    )
    .get(date);
  if (!batch) return { batch_id: null, date, state: 'none', start_at: null, total: 0, checks: 0, done: 0, in_flight: 0, seconds_left: null };
  const counts = sqlite
    .prepare<[string], { total: number; skipped: number; checks: number; answered: number; pending: number }>(
      `SELECT count(*) AS total,
              sum(j.state = 'skipped') AS skipped,
              sum(j.state <> 'skipped') AS checks,
              sum(c.status IN ('success', 'failure')) AS answered,
              sum(c.status = 'pending') AS pending
       FROM batch_jobs j LEFT JOIN electronic_eligibility_checks c ON c.id = j.check_id WHERE j.batch_id = ?`,
    )
    .get(batch.id)!;
  const answered = counts.answered ?? 0;
  const checks = counts.checks ?? 0;
  const started = Math.max(Date.parse(batch.start_at), Date.parse(batch.created_at));
  const elapsed = (deps.clock.now().getTime() - started) / 1000;
  const secondsLeft = answered > 0 && elapsed > 0 ? Math.round((elapsed / answered) * (checks - answered)) : null;
  return {
    batch_id: batch.id,
    date,
    state: batch.state,
    start_at: batch.start_at,
    total: counts.total,
    checks,
    done: (counts.skipped ?? 0) + answered,
    in_flight: counts.pending ?? 0,
    seconds_left: batch.state === 'scheduled' ? null : secondsLeft,
  };
}
