import { describe, expect, it } from 'vitest';
import { classifyFailure } from '@src/main/sync/failure-kind';
import { ServiceError } from '@src/shared/service-error';

const answered = (status: number, code = 'x', retryAfterSeconds?: number) => new ServiceError(code, 'The upstream said no.', undefined, { status, retryAfterSeconds });

describe('what a failed upstream call means for the queue', () => {
  it('no answer at all (network, reset, time-out) is unreachable', () => {
    expect(classifyFailure(answered(0, 'upstream_unreachable')).kind).toBe('unreachable');
  });

  it.each([408, 425, 429, 500, 502, 503, 504])('%i is transient', (status) => {
    expect(classifyFailure(answered(status)).kind).toBe('transient');
  });

  it('409 for a request still in progress is transient; a reused key is permanent', () => {
    expect(classifyFailure(answered(409, 'idempotency_request_in_progress')).kind).toBe('transient');
    expect(classifyFailure(answered(409, 'idempotency_key_reused')).kind).toBe('permanent');
  });

  it.each([301, 302, 307, 308])('%i waits and retries: the entry is fine, the address is not (never failed for it)', (status) => {
    expect(classifyFailure(answered(status, 'upstream_redirected')).kind).toBe('transient');
  });

  it.each([401, 403])('%i pauses (the credentials are wrong, not the entry)', (status) => {
    expect(classifyFailure(answered(status)).kind).toBe('auth');
  });

  it.each([400, 404, 413, 415, 422])('%i is permanent', (status) => {
    expect(classifyFailure(answered(status)).kind).toBe('permanent');
  });

  it('keeps Retry-After and the upstream error, with the field messages', () => {
    const limited = classifyFailure(answered(429, 'rate_limited', 3));
    expect(limited.retryAfterSeconds).toBe(3);
    const refused = classifyFailure(
      new ServiceError('validation_failed', 'The request is not valid: check provider_id.', [{ path: 'provider_id', code: 'not_found', message: 'No provider with id prv_1 exists.' }]),
    );
    expect(refused.error).toEqual({ status: 422, code: 'validation_failed', message: 'The request is not valid: check provider_id. No provider with id prv_1 exists.' });
  });

  it('a throw that is not the client’s typed error is retried, never blamed on the entry', () => {
    expect(classifyFailure(new TypeError('boom'))).toMatchObject({ kind: 'transient', error: { code: 'sync_internal_error' } });
  });
});
