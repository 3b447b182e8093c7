import { z } from 'zod';
import type { IdPrefix } from './id-prefix';

export { ID_PREFIX, type IdPrefix } from './id-prefix';

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';

/**
 * An identifier field. Ids are opaque strings: a vendor upstream may use any format, so
 * references are only checked for shape (non-empty, no whitespace) and then for existence.
 */
export const Id = z.string().min(1).max(255).regex(/^\S+$/, 'must not contain whitespace');

/** An id minted by Coverdesk itself: `<prefix>_<ULID>`. */
export function prefixedId(prefix: IdPrefix) {
  return z.string().regex(new RegExp(`^${prefix}_${ULID}$`), `must be a ${prefix}_ id`);
}

/** RFC 3339 UTC with milliseconds, e.g. 2026-11-22T12:31:55.123Z. */
export const Timestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'must be an RFC 3339 UTC timestamp with milliseconds');

export function toTimestamp(date: Date): string {
  return date.toISOString();
}

function isRealCalendarDate(value: string): boolean {
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * Date of birth: YYYY-MM-DD, a real calendar date, not in the future. "Future" allows one
 * day beyond today in UTC: a clinic east of Greenwich registers a newborn on a local date
 * that UTC has not reached yet.
 */
export const DateOfBirth = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date in the form YYYY-MM-DD')
  .refine(isRealCalendarDate, 'must be a real calendar date')
  .refine((value) => value >= '1900-01-01', 'must not be before 1900-01-01')
  .refine((value) => {
    const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    return value <= tomorrow;
  }, 'must not be in the future');

/**
 * Text kept exactly as sent: no lone UTF-16 surrogates (`\ud800` is valid JSON, but storage
 * would keep U+FFFD in its place, so the record read back would differ from the one sent).
 */
export const WELL_FORMED_TEXT = /^[^\p{Cs}]*$/u;
export const BROKEN_UNICODE = 'must not contain broken Unicode (a lone surrogate)';

/** A person's name part: printable text, no control characters. */
export const NamePart = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100)
  .regex(/^[^\p{Cc}]+$/u, 'must not contain control characters')
  .regex(WELL_FORMED_TEXT, BROKEN_UNICODE);

/** A free-text card field (member id, group number, plan name, …). */
export const CardText = z
  .string()
  .trim()
  .min(1, 'must not be empty; leave the field out instead')
  .max(200)
  .regex(/^[^\p{Cc}]+$/u, 'must not contain control characters')
  .regex(WELL_FORMED_TEXT, BROKEN_UNICODE);

/** Decimal amounts travel as strings so no cent is lost to floating point. */
export const DecimalString = z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a decimal number written as a string');

export const Source = z.enum(['system', 'dashboard', 'api']);
export type Source = z.infer<typeof Source>;

export const CardSource = z.enum(['collection_page', 'dashboard', 'api']);
export type CardSource = z.infer<typeof CardSource>;

export const Status = z.enum(['pending', 'success', 'failure']);
export type Status = z.infer<typeof Status>;

/** Where a record stands in the outbox on its way upstream (docs/decisions.md, local data and the outbox). */
export const SyncState = z.enum(['queued', 'sending', 'synced', 'failed', 'blocked', 'needs_review']);
export type SyncState = z.infer<typeof SyncState>;

export const SyncError = z.object({
  status: z.number().int().optional(),
  code: z.string(),
  message: z.string(),
});
export type SyncError = z.infer<typeof SyncError>;

/**
 * Coverdesk's extension: records served by the host (bridge and local API) say how far
 * they got upstream. The upstream never sends it.
 */
export const SyncInfo = z.object({
  state: SyncState,
  remote_id: z.string().nullable(),
  error: SyncError.nullable(),
});
export type SyncInfo = z.infer<typeof SyncInfo>;
