import type { MiddlewareHandler } from 'hono';
import { ServiceError } from '../../shared/service-error';

/**
 * For the loopback TCP listener only: a web page the user visits can reach 127.0.0.1 but
 * always sends an Origin, and DNS rebinding shows up as a foreign Host. Both are refused
 * before authentication; no CORS headers are ever sent, so browsers cannot read answers.
 * The port is read per request: with port 0 it is known only once listening.
 */
export function tcpGuard(portOf: () => number): MiddlewareHandler {
  return async (c, next) => {
    const port = portOf();
    const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
    if (c.req.header('origin') !== undefined) {
      throw new ServiceError('forbidden', 'Requests from web pages are not accepted by the local API.');
    }
    const host = c.req.header('host')?.toLowerCase();
    if (!host || !allowedHosts.has(host)) {
      throw new ServiceError('forbidden', `The local API answers only to Host 127.0.0.1:${port} or localhost:${port}.`);
    }
    await next();
  };
}
