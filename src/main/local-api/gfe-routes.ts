import type { V1Routes } from '../http/v1-app';
import type { Db } from '../db/open-database';
import type { AuditLog } from '../audit/audit-log';
import { getGfe } from '../gfe/good-faith-estimates';

/**
 * A Good Faith Estimate for the practice's billing system (docs/local-api.md): the document
 * as issued, the same one the desk prints. Reading it is a view of the patient's record, so
 * it is audited, naming the local API.
 */
export function gfeRoutes(deps: { db: Db; audit: Pick<AuditLog, 'append'> }): V1Routes {
  return (app) => {
    app.get('/v1/good_faith_estimates/:id', async (c) => {
      const gfe = getGfe(deps.db, c.req.param('id'));
      deps.audit.append('view', gfe.id);
      return c.json(gfe, 200);
    });
  };
}
