import { ListPage, Provider, toTimestamp } from '../../shared/contract';
import type { ConnectionTest } from '../../shared/bridge/desk-contract';
import type { Clock } from '../support/clock';
import { createUpstreamTransport, type UpstreamAnswer } from './upstream-transport';

export interface ConnectionTestDeps {
  clock: Clock;
  /** A desk waits for this answer after pressing Save: short, unlike sync's 15 s. */
  timeoutMs?: number;
}

export interface ConnectionTarget {
  mode: ConnectionTest['mode'];
  /** The base address the /v1 paths hang off. */
  baseUrl: string;
  apiKey: string;
  /** What the desk typed (null for the sandbox, which has no address of its own to show). */
  shownUrl: string | null;
}

const PROBE_PATH = '/v1/providers?limit=1';

/**
 * Tries the eligibility service the way sync will talk to it (the same transport, the same
 * bearer key, a read of one provider, no redirect followed) and says which of the cases a desk must tell apart it is. A list
 * that is not the /v1 list shape is `not_compatible`, whatever its status: a web server,
 * a proxy's login page or a different API answer too, and none of them is an outage.
 */
export async function testConnection(deps: ConnectionTestDeps, target: ConnectionTarget): Promise<ConnectionTest> {
  const base = target.baseUrl.replace(/\/+$/, '');
  const where = target.mode === 'sandbox' ? 'The sandbox' : `The service at ${target.shownUrl ?? base}`;
  const result = (state: ConnectionTest['state'], httpStatus: number | null, message: string): ConnectionTest => ({
    state,
    mode: target.mode,
    upstream_url: target.shownUrl,
    http_status: httpStatus,
    message,
    tested_at: toTimestamp(deps.clock.now()),
  });

  let response: UpstreamAnswer;
  try {
    const send = createUpstreamTransport(base, deps.timeoutMs ?? 5_000);
    response = await send({ method: 'GET', path: PROBE_PATH, headers: { Authorization: `Bearer ${target.apiKey}`, Accept: 'application/json' } });
  } catch {
    return result(
      'unreachable',
      null,
      `${where} did not answer. Check the address (and that the service is running); work is saved here and sent when it answers.`,
    );
  }
  const status = response.status;
  let body: unknown;
  try {
    body = response.json();
  } catch {
    body = undefined;
  }
  if (status === 401 || status === 403) {
    return result('wrong_key', status, `${where} refused the API key (HTTP ${status}). Check the key with whoever runs the service, then save it again.`);
  }
  if (response.ok && ListPage(Provider).safeParse(body).success) {
    return result('connected', status, `${where} answered and accepted the API key.`);
  }
  if ((status === 429 || status >= 500) && isErrorEnvelope(body)) {
    return result('service_error', status, `${where} is a Coverdesk-compatible service but could not answer just now (HTTP ${status}). Try again in a few minutes.`);
  }
  const hint = /\/v1\/?$/.test(base) ? ' Leave "/v1" off the end of the address.' : ' Check that the address is the eligibility service’s base address.';
  return result('not_compatible', status, `${where} answered, but not as a Coverdesk-compatible /v1 service (HTTP ${status}).${hint}`);
}

function isErrorEnvelope(body: unknown): boolean {
  return typeof body === 'object' && body !== null && typeof (body as { error?: { code?: unknown } }).error?.code === 'string';
}
