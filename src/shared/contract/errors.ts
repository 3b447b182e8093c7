import { z } from 'zod';

/** The one error envelope (docs/decisions.md, contract decisions), for every transport. */
export const ErrorType = z.enum([
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'idempotency_error',
  'rate_limit_error',
  'api_error',
]);
export type ErrorType = z.infer<typeof ErrorType>;

export const ERROR_CODES = {
  malformed_json: { status: 400, type: 'invalid_request_error' },
  unauthorized: { status: 401, type: 'authentication_error' },
  forbidden: { status: 403, type: 'permission_error' },
  resource_not_found: { status: 404, type: 'invalid_request_error' },
  route_not_found: { status: 404, type: 'invalid_request_error' },
  method_not_allowed: { status: 405, type: 'invalid_request_error' },
  idempotency_key_reused: { status: 409, type: 'idempotency_error' },
  idempotency_request_in_progress: { status: 409, type: 'idempotency_error' },
  /** The changes feed no longer keeps that position: start again from the beginning (docs/decisions.md, the changes feed). */
  cursor_expired: { status: 410, type: 'invalid_request_error' },
  payload_too_large: { status: 413, type: 'invalid_request_error' },
  unsupported_media_type: { status: 415, type: 'invalid_request_error' },
  validation_failed: { status: 422, type: 'invalid_request_error' },
  rate_limited: { status: 429, type: 'rate_limit_error' },
  internal_error: { status: 500, type: 'api_error' },
  service_unavailable: { status: 503, type: 'api_error' },
  /** This computer's disk (or the database's page limit) is full: nothing of the request was stored (docs/decisions.md, Storage). */
  disk_full: { status: 507, type: 'api_error' },
} as const satisfies Record<string, { status: number; type: ErrorType }>;
export type ErrorCode = keyof typeof ERROR_CODES;

/** One offending field: where, what kind of problem, and what is allowed. */
export const FieldError = z.object({
  path: z.string(),
  code: z.string(),
  message: z.string(),
});
export type FieldError = z.infer<typeof FieldError>;

export const ErrorBody = z.object({
  type: ErrorType,
  code: z.string(),
  message: z.string(),
  errors: z.array(FieldError).optional(),
  request_id: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const ErrorEnvelope = z.object({ error: ErrorBody });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
