import type { V1Routes } from '../http/v1-app';
import { MAX_SCHEDULE_BYTES } from '../appointments/schedule-file';
import { estimateForCheck, type EstimateDeps } from '../estimates/estimate-for-check';
import { EstimateQuery } from '../../shared/bridge/estimate-contract';
import { parseOrThrow } from '../../shared/service-error';
import { accepts, CSV_TYPES, limit } from './appointment-routes';

/** Several groups of desk-local routes on one app. */
export function combineRoutes(...groups: V1Routes[]): V1Routes {
  return (app, tools) => {
    for (const group of groups) group(app, tools);
  };
}

/**
 * The fee schedule and visit estimates for integrators (docs/local-api.md): desk-local, as
 * appointments are, so the local API's only. Importing replaces the whole fee schedule,
 * so sending the same file twice is safe without an Idempotency-Key.
 */
export function estimateRoutes(deps: EstimateDeps): V1Routes {
  return (app) => {
    app.post(
      '/v1/fee_schedule/import',
      accepts(CSV_TYPES, 'Send the fee schedule as "Content-Type: text/csv" (or text/tab-separated-values).'),
      limit(MAX_SCHEDULE_BYTES, 'a fee schedule is a few hundred rows'),
      async (c) => c.json(deps.fees.import(new Uint8Array(await c.req.arrayBuffer())), 200),
    );
    app.get('/v1/estimates', async (c) => c.json(estimateForCheck(deps, parseOrThrow(EstimateQuery, c.req.query())), 200));
  };
}
