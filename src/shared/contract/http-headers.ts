import { z } from 'zod';
import { prefixedId } from './common';

/**
 * The /v1 headers that are part of the contract, declared once: the HTTP layer checks them
 * and the OpenAPI document describes them from here.
 */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Sent by the caller on a create: the same key and body again answer the first result. */
export const IdempotencyKey = z.string().regex(IDEMPOTENCY_KEY_PATTERN, 'must be 1 to 255 visible ASCII characters');

/** On an answer replayed for a reused Idempotency-Key. */
export const IdempotentReplayed = z.literal('true');

/** On every answer, success or error; errors repeat it as `request_id`. */
export const RequestId = prefixedId('req');

/** Whole seconds to wait before retrying (429, 503, and 409 while a keyed request runs). */
export const RetryAfter = z.int().min(0);
