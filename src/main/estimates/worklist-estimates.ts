import type { WorklistRow } from '../../shared/bridge/appointment-contract';
import { estimatesForVisits, type EstimateDeps } from './estimate-for-check';

/**
 * "Collect today" on a day's worklist (and so on Today, which shows today's worklist beside
 * each patient): every ready row's estimate in one batch, from the check the row shows and
 * the appointment's visit type. Rows that are not ready keep no estimate: there is no
 * answer to read.
 */
export function withEstimates(deps: EstimateDeps, rows: WorklistRow[]): WorklistRow[] {
  const ready = rows.filter((row) => row.status === 'ready' && row.check_id !== null);
  const estimates = estimatesForVisits(
    deps,
    ready.map((row) => ({ check_id: row.check_id!, visit_type: row.appointment.visit_type })),
  );
  const byAppointment = new Map(ready.map((row, i) => [row.appointment.id, estimates[i]]));
  return rows.map((row) => (byAppointment.has(row.appointment.id) ? { ...row, estimate: byAppointment.get(row.appointment.id) ?? null } : row));
}
