import type { SyncError } from '../../shared/contract';
import { isServiceError } from '../../shared/service-error';
import { SYNC_MESSAGES } from './sync-messages';

/**
 * What a failed upstream call means for the queue:
 * - `unreachable`: no answer at all (network, reset, time-out); retry, and go offline.
 * - `transient`: the upstream answered but may succeed later (408, 409 in progress, 429, 5xx),
 *   or redirected (3xx): the entry is fine, the address is not; it waits, with the redirect
 *   as its reason, until the address is changed.
 * - `auth`: 401/403; nothing is wrong with the entry, the credentials are. Pause everything.
 * - `permanent`: any other 4xx; the upstream will refuse this request every time.
 */
export type FailureKind = 'unreachable' | 'transient' | 'auth' | 'permanent';

export interface ClassifiedFailure {
  kind: FailureKind;
  retryAfterSeconds?: number;
  error: SyncError;
}

const TRANSIENT_4XX = new Set([408, 425, 429]);

export function classifyFailure(failure: unknown): ClassifiedFailure {
  if (!isServiceError(failure)) {
    // Not the client's typed error: a bug or an unexpected throw. Retrying is safe (same key)
    // and failing the entry would blame the user's data for our fault.
    return { kind: 'transient', error: { code: 'sync_internal_error', message: SYNC_MESSAGES.internalError } };
  }
  const { status } = failure;
  const fieldDetail = failure.errors?.length ? ` ${failure.errors.map((e) => e.message).join(' ')}` : '';
  const error: SyncError = { status, code: failure.code, message: `${failure.message}${fieldDetail}` };
  const retryAfterSeconds = failure.retryAfterSeconds;
  if (status === 0) return { kind: 'unreachable', error, retryAfterSeconds };
  if (status === 401 || status === 403) return { kind: 'auth', error };
  if (status >= 500 || (status >= 300 && status < 400) || TRANSIENT_4XX.has(status) || failure.code === 'idempotency_request_in_progress') {
    return { kind: 'transient', error, retryAfterSeconds };
  }
  return { kind: 'permanent', error };
}
