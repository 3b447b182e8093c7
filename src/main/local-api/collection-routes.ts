import { z } from 'zod';
import type { V1Routes } from '../http/v1-app';
import { collectionsOn, recordCollection, voidCollection, type CollectionDeps } from '../collections/collection-store';
import { LocalDate } from '../../shared/bridge/appointment-contract';
import { MAX_JSON_BYTES } from '../../shared/contract';
import { parseOrThrow, ServiceError } from '../../shared/service-error';
import { accepts, limit } from './appointment-routes';

async function jsonBody(request: { arrayBuffer(): Promise<ArrayBuffer> }): Promise<unknown> {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(await request.arrayBuffer()));
  } catch {
    throw new ServiceError('malformed_json', 'The request body is not valid JSON.');
  }
}

const json = accepts(['application/json'], 'Send the body as JSON with "Content-Type: application/json".');

/**
 * Collections for the practice's billing system (docs/local-api.md): desk records, so the
 * local API's only. A void is its own route on the entry it undoes, answered with the new
 * void entry: nothing is ever edited or deleted. Money must not be taken twice because a
 * billing system retried, so both creates honour `Idempotency-Key` as /v1 creates do.
 */
export function collectionRoutes(deps: CollectionDeps): V1Routes {
  return (app, { idempotent }) => {
    app.get('/v1/collections', async (c) => {
      const { date } = parseOrThrow(z.strictObject({ date: LocalDate }), c.req.query());
      return c.json({ data: collectionsOn(deps.db, date) }, 200);
    });
    app.post('/v1/collections', json, limit(MAX_JSON_BYTES, 'one collection per request'), async (c) => {
      const body = await jsonBody(c.req);
      return idempotent(c, body, async (commit) => recordCollection(deps, body, 'api', commit));
    });
    app.post('/v1/collections/:id/void', json, limit(MAX_JSON_BYTES, 'one void per request'), async (c) => {
      const body = await jsonBody(c.req);
      return idempotent(c, body, async (commit) => voidCollection(deps, c.req.param('id'), body, 'api', commit));
    });
  };
}
