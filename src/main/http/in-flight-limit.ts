import type { MiddlewareHandler } from 'hono';
import { ServiceError } from '../../shared/service-error';

/**
 * At most `max` requests in progress; past that, 429 with `Retry-After` at once, before the
 * body is read or the key checked. A scanner integration that opens hundreds of connections
 * gets told to slow down instead of queueing work the desk's own screens would wait behind,
 * and a refused request wrote nothing, so sending it again is safe.
 */
export function inFlightLimit(max: number, retryAfterSeconds = 1): MiddlewareHandler {
  let inFlight = 0;
  return async (_c, next) => {
    if (inFlight >= max) {
      throw new ServiceError('rate_limited', `More than ${max} requests at once: send fewer at a time, and retry this one after ${retryAfterSeconds} s.`, undefined, {
        retryAfterSeconds,
      });
    }
    inFlight++;
    try {
      await next();
    } finally {
      inFlight--;
    }
  };
}
