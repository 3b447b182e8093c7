import { bodyLimit } from 'hono/body-limit';
import type { MiddlewareHandler } from 'hono';
import { createAppointment, importSchedule, type AppointmentDeps } from '../appointments/appointment-import';
import { appointmentsOn, toAppointment } from '../appointments/appointment-store';
import { MAX_SCHEDULE_BYTES } from '../appointments/schedule-file';
import type { V1Routes } from '../http/v1-app';
import { AppointmentCreate, LocalDate } from '../../shared/bridge/appointment-contract';
import { MAX_JSON_BYTES } from '../../shared/contract';
import { parseOrThrow, ServiceError } from '../../shared/service-error';
import { z } from 'zod';

export const CSV_TYPES = ['text/csv', 'text/tab-separated-values', 'text/plain'];

export function accepts(types: string[], message: string): MiddlewareHandler {
  return async (c, next) => {
    const type = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (!types.includes(type)) throw new ServiceError('unsupported_media_type', message);
    await next();
  };
}

export function limit(maxSize: number, hint = 'send one day or one week at a time'): MiddlewareHandler {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new ServiceError('payload_too_large', `The body must be at most ${maxSize / 1024 / 1024} MiB; ${hint}.`);
    },
  });
}

/** A request's JSON body (UTF-8), or the one `malformed_json` error. */
export async function jsonBody(c: { req: { arrayBuffer(): Promise<ArrayBuffer> } }): Promise<unknown> {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(await c.req.arrayBuffer()));
  } catch {
    throw new ServiceError('malformed_json', 'The request body is not valid JSON.');
  }
}

/**
 * Appointments for integrators (docs/local-api.md): the desk-local resource the upstream
 * does not have, so these routes are the local API's only, never the sandbox's or the
 * upstream contract's. Re-sending an appointment is safe by itself (the scheduling
 * system's id, else date + time + patient, is its key), so no Idempotency-Key is needed.
 */
export function appointmentRoutes(deps: AppointmentDeps): V1Routes {
  return (app) => {
    app.get('/v1/appointments', async (c) => {
      const { date } = parseOrThrow(z.strictObject({ date: LocalDate }), c.req.query());
      return c.json({ data: appointmentsOn(deps.db, date).map(toAppointment) }, 200);
    });
    app.post('/v1/appointments', accepts(['application/json'], 'Send the body as JSON with "Content-Type: application/json".'), limit(MAX_JSON_BYTES), async (c) => {
      const written = createAppointment(deps, parseOrThrow(AppointmentCreate, await jsonBody(c)), 'api');
      return c.json(written, written.result === 'created' ? 201 : 200);
    });
    app.post(
      '/v1/appointments/import',
      accepts(CSV_TYPES, 'Send the schedule as "Content-Type: text/csv" (or text/tab-separated-values).'),
      limit(MAX_SCHEDULE_BYTES),
      async (c) => c.json(importSchedule(deps, { bytes: new Uint8Array(await c.req.arrayBuffer()), source: 'api' }), 200),
    );
  };
}
