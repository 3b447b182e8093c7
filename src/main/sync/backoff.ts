/** Exponential growth with a ceiling; the wait is drawn uniformly below it (full jitter). */
export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
}

/** A number in [0, 1), injected so tests can make jitter deterministic. */
export type Random = () => number;

/**
 * Full jitter (AWS's "Exponential Backoff and Jitter"): after the n-th failure wait a
 * uniform time in [0, min(cap, base·2^(n-1))]. Many desks coming back online at once then
 * spread their retries instead of hammering the upstream in lockstep.
 */
export function fullJitterMs(policy: BackoffPolicy, failures: number, random: Random): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
  return Math.floor(random() * ceiling);
}

/**
 * The wait before the next try: the jittered backoff, but never sooner than the upstream
 * asked with Retry-After. The upstream's ask is itself bounded by `maxRetryAfterMs`: a
 * misconfigured server saying "come back in a year" must not strand the queue.
 */
export function retryDelayMs(
  policy: BackoffPolicy & { maxRetryAfterMs: number },
  failures: number,
  random: Random,
  retryAfterSeconds?: number,
): number {
  const jittered = fullJitterMs(policy, failures, random);
  if (retryAfterSeconds === undefined) return jittered;
  return Math.max(jittered, Math.min(Math.ceil(retryAfterSeconds * 1000), policy.maxRetryAfterMs));
}

/**
 * Equal jitter: half the ceiling fixed, half random. For polling a pending record, where
 * a near-zero wait (possible with full jitter) would only ask again for nothing.
 */
export function equalJitterMs(policy: BackoffPolicy, failures: number, random: Random): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
  return Math.floor(ceiling / 2 + random() * (ceiling / 2));
}
