import type { Db } from '../db/open-database';
import { getRow } from '../records/record-store';
import type { Clock } from '../support/clock';
import { serviceTypeForVisit, type AppointmentSettingsStore } from '../appointments/appointment-settings';
import { summarizeBenefits } from '../../shared/benefit-summary';
import { EstimateQuery, type Estimate } from '../../shared/bridge/estimate-contract';
import { estimateVisit } from '../../shared/estimate';
import type { ServiceType } from '../../shared/contract';
import { parseOrThrow, validationFailed } from '../../shared/service-error';
import type { FeeScheduleStore } from './fee-schedule';

export interface EstimateDeps {
  db: Db;
  clock: Clock;
  fees: FeeScheduleStore;
  /** The practice's visit types: a visit type it maps to a service type reads that service's benefits. */
  appointmentSettings: Pick<AppointmentSettingsStore, 'read'>;
}

/**
 * The estimate for a visit from one check's answer: the benefits for the visit's service
 * type (its visit type's, else what the check asked), the fee schedule's amount for the
 * visit type at the check's payer (else the default row), and the freshness window.
 * Only a successful check has benefits to read; any other is refused, saying why.
 */
export function estimateForCheck(deps: EstimateDeps, input: EstimateQuery): Estimate {
  const query = parseOrThrow(EstimateQuery, input);
  const check = getRow(deps.db, 'electronic_eligibility_checks', query.check_id);
  if (check.status !== 'success' || !check.benefits) {
    const state = check.status === 'failure' ? 'failed' : 'has no answer yet';
    throw validationFailed([{ path: 'check_id', code: 'check_not_successful', message: `The check ${check.id} ${state}: an estimate needs a successful check's benefits. Check eligibility again.` }]);
  }
  const visitType = query.visit_type ?? null;
  const serviceType = (visitType && serviceTypeForVisit(deps.appointmentSettings.read().visit_types, visitType)) || (check.service_type as ServiceType);
  const fees = deps.fees.read();
  const row = visitType ? deps.fees.allowedFor(visitType, check.clearinghouse_entity_id) : null;
  const figures = estimateVisit({
    summary: summarizeBenefits({ benefits: check.benefits, service_type: serviceType }),
    allowed_cents: row?.allowed_cents ?? null,
    network: query.network,
    checked_at: check.finished_at ?? check.created_at,
    now: deps.clock.now().toISOString(),
    freshness_days: fees.freshness_days,
  });
  return { ...figures, check_id: check.id, visit_type: visitType, service_type: serviceType };
}
