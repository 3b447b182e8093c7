import { inArray } from 'drizzle-orm';
import type { Db } from '../db/open-database';
import { checks } from '../db/schema';
import { getRow } from '../records/record-store';
import type { RowOf } from '../records/tables';
import type { Clock } from '../support/clock';
import { serviceTypeForVisit, type AppointmentSettingsStore } from '../appointments/appointment-settings';
import { summarizeBenefits } from '../../shared/benefit-summary';
import { EstimateQuery, type Estimate, type FeeSchedule } from '../../shared/bridge/estimate-contract';
import { estimateVisit } from '../../shared/estimate';
import type { ServiceType } from '../../shared/contract';
import { parseOrThrow, validationFailed } from '../../shared/service-error';
import { allowedIn, type FeeScheduleStore } from './fee-schedule';

export interface EstimateDeps {
  db: Db;
  clock: Clock;
  fees: FeeScheduleStore;
  /** The practice's visit types: a visit type it maps to a service type reads that service's benefits. */
  appointmentSettings: Pick<AppointmentSettingsStore, 'read'>;
}

type CheckRow = RowOf<'electronic_eligibility_checks'>;

/** What every estimate of one request shares: read once, however many visits it estimates. */
interface EstimateContext {
  fees: FeeSchedule;
  visitTypes: Record<string, ServiceType>;
  now: string;
}

function contextOf(deps: EstimateDeps): EstimateContext {
  return { fees: deps.fees.read(), visitTypes: deps.appointmentSettings.read().visit_types, now: deps.clock.now().toISOString() };
}

/** The one path from a successful check and a visit type to the estimate: the single check and the batch both come here. */
function estimateFrom(context: EstimateContext, check: CheckRow & { benefits: NonNullable<CheckRow['benefits']> }, query: Omit<EstimateQuery, 'check_id'>): Estimate {
  const visitType = query.visit_type ?? null;
  const serviceType = (visitType && serviceTypeForVisit(context.visitTypes, visitType)) || (check.service_type as ServiceType);
  const row = visitType ? allowedIn(context.fees.rows, visitType, check.clearinghouse_entity_id) : null;
  const figures = estimateVisit({
    summary: summarizeBenefits({ benefits: check.benefits, service_type: serviceType }),
    allowed_cents: row?.allowed_cents ?? null,
    network: query.network,
    checked_at: check.finished_at ?? check.created_at,
    now: context.now,
    freshness_days: context.fees.freshness_days,
  });
  return { ...figures, check_id: check.id, visit_type: visitType, service_type: serviceType };
}

const answered = (check: CheckRow): check is CheckRow & { benefits: NonNullable<CheckRow['benefits']> } => check.status === 'success' && !!check.benefits;

/**
 * The estimate for a visit from one check's answer: the benefits for the visit's service
 * type (its visit type's, else what the check asked), the fee schedule's amount for the
 * visit type at the check's payer (else the default row), and the freshness window.
 * Only a successful check has benefits to read; any other is refused, saying why.
 */
export function estimateForCheck(deps: EstimateDeps, input: EstimateQuery): Estimate {
  const query = parseOrThrow(EstimateQuery, input);
  const check = getRow(deps.db, 'electronic_eligibility_checks', query.check_id);
  if (!answered(check)) {
    const state = check.status === 'failure' ? 'failed' : 'has no answer yet';
    throw validationFailed([{ path: 'check_id', code: 'check_not_successful', message: `The check ${check.id} ${state}: an estimate needs a successful check's benefits. Check eligibility again.` }]);
  }
  return estimateFrom(contextOf(deps), check, query);
}

export interface VisitToEstimate {
  check_id: string;
  visit_type: string | null;
}

/**
 * Estimates for many visits at once (a day's worklist, Today's rows): one read of the checks,
 * of the fee schedule and of the visit types, however many rows. A visit whose check is
 * unknown or has no successful answer gets null: the row simply shows no estimate.
 */
export function estimatesForVisits(deps: EstimateDeps, visits: readonly VisitToEstimate[]): (Estimate | null)[] {
  if (visits.length === 0) return [];
  const ids = [...new Set(visits.map((visit) => visit.check_id))];
  const found = new Map<string, CheckRow>();
  // SQLite's bound-parameter limit is in the thousands: a day's worklist fits in a few reads.
  for (let i = 0; i < ids.length; i += 500) {
    for (const row of deps.db.select().from(checks).where(inArray(checks.id, ids.slice(i, i + 500))).all()) found.set(row.id, row as CheckRow);
  }
  const context = contextOf(deps);
  return visits.map((visit) => {
    const check = found.get(visit.check_id);
    return check && answered(check) ? estimateFrom(context, check, visit.visit_type ? { visit_type: visit.visit_type } : {}) : null;
  });
}
