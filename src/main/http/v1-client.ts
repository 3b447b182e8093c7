import {
  CHANGES_PATH,
  COLLECTIONS,
  ReceivedChangesPage,
  ErrorEnvelope,
  ListPage,
  PhotoContentType,
  PhotoObject,
  type CallContext,
  type Collection,
  type ListParams,
  type ResourceOf,
  type V1Service,
} from '../../shared/contract';
import { ServiceError } from '../../shared/service-error';
import { createUpstreamTransport, UpstreamTransportError, type UpstreamAnswer } from './upstream-transport';

export interface HttpV1ClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Per request; a slow upstream is treated like an unreachable one. */
  timeoutMs?: number;
}

/** A 3xx: the service moved, or a proxy stands in front of it; the address needs changing. */
export const UPSTREAM_REDIRECTED = 'upstream_redirected';

/** Network failures, resets and time-outs: the request may or may not have arrived. */
export const UPSTREAM_UNREACHABLE = 'upstream_unreachable';

/**
 * The upstream /v1 service as a V1Service, over HTTP. Used only by sync. Every failure is
 * a ServiceError: the upstream's own envelope and status where it answered, `status: 0`
 * and `upstream_unreachable` where it did not; `retryAfterSeconds` from Retry-After.
 */
export function createHttpV1Client(options: HttpV1ClientOptions): V1Service {
  const send = createUpstreamTransport(options.baseUrl, options.timeoutMs ?? 15_000);

  async function call(method: string, path: string, init: { body?: string | Buffer; contentType?: string; idempotencyKey?: string } = {}): Promise<UpstreamAnswer> {
    const headers: Record<string, string> = { Authorization: `Bearer ${options.apiKey}`, Accept: 'application/json' };
    if (init.contentType) headers['Content-Type'] = init.contentType;
    if (init.idempotencyKey) headers['Idempotency-Key'] = init.idempotencyKey;
    let answer: UpstreamAnswer;
    try {
      answer = await send({ method, path, headers, body: init.body });
    } catch (error) {
      if (error instanceof UpstreamTransportError && error.stage === 'too_large') {
        throw new ServiceError('upstream_invalid_response', error.message, undefined, { status: 502 });
      }
      // No whole answer (refused, reset, timed out, cut off mid-body): as good as none.
      const message = error instanceof UpstreamTransportError ? error.message : 'The upstream service could not be reached.';
      throw new ServiceError(UPSTREAM_UNREACHABLE, message, undefined, { status: 0 });
    }
    if (answer.ok) return answer;
    throw upstreamError(answer);
  }

  function json<T>(answer: UpstreamAnswer, parse: (value: unknown) => T): T {
    try {
      return parse(answer.json());
    } catch {
      throw new ServiceError('upstream_invalid_response', 'The upstream service answered with a record Coverdesk does not understand.', undefined, {
        status: 502,
      });
    }
  }

  const resourceOf = <K extends Collection>(collection: K) => (value: unknown) => COLLECTIONS[collection].resource.parse(value) as ResourceOf<K>;

  return {
    async create(collection, input, context: CallContext) {
      const response = await call('POST', `/v1/${collection}`, {
        body: JSON.stringify(input),
        contentType: 'application/json',
        idempotencyKey: context.idempotency_key,
      });
      return json(response, resourceOf(collection));
    },
    async get(collection, id) {
      return json(await call('GET', `/v1/${collection}/${encodeURIComponent(id)}`), resourceOf(collection));
    },
    async list(collection, params: ListParams = {}) {
      const query = new URLSearchParams();
      if (params.limit !== undefined) query.set('limit', String(params.limit));
      if (params.cursor !== undefined) query.set('cursor', params.cursor);
      const response = await call('GET', `/v1/${collection}${query.size ? `?${query}` : ''}`);
      return json(response, (value) => ListPage(COLLECTIONS[collection].resource).parse(value) as ListPage<ResourceOf<typeof collection>>);
    },
    async uploadPhoto(photo) {
      const response = await call('POST', '/v1/photos', { body: Buffer.from(photo.bytes), contentType: photo.content_type });
      return json(response, (value) => PhotoObject.parse(value));
    },
    async changes(params) {
      const query = new URLSearchParams();
      if (params.after !== undefined) query.set('after', params.after);
      if (params.limit !== undefined) query.set('limit', String(params.limit));
      // The envelope is checked here; each record by the reader, so one bad record is set aside, not the page.
      return json(await call('GET', `${CHANGES_PATH}${query.size ? `?${query}` : ''}`), (value) => ReceivedChangesPage.parse(value));
    },
    async readPhoto(objectKey) {
      const answer = await call('GET', `/v1/photos/${encodeURIComponent(objectKey)}`);
      const content_type = PhotoContentType.parse((answer.header('content-type') ?? '').split(';')[0].trim());
      return { content_type, bytes: new Uint8Array(answer.body) };
    },
  };
}

function upstreamError(answer: UpstreamAnswer): ServiceError {
  const retryAfterSeconds = parseRetryAfter(answer.header('retry-after'));
  if (answer.status >= 300 && answer.status < 400) {
    // Not followed: patient data goes only to the address someone entered in Settings.
    const to = answer.header('location');
    return new ServiceError(
      UPSTREAM_REDIRECTED,
      `The upstream service answered with a redirect (HTTP ${answer.status}${to ? ` to ${to}` : ''}). Coverdesk does not follow redirects: enter the service's current address in Settings; everything waiting is sent then.`,
      undefined,
      { status: answer.status },
    );
  }
  const envelope = ErrorEnvelope.safeParse(jsonOrNull(answer));
  if (envelope.success) return ServiceError.fromBody(envelope.data.error, answer.status, retryAfterSeconds);
  return new ServiceError('upstream_error', `The upstream service answered ${answer.status}.`, undefined, {
    status: answer.status,
    retryAfterSeconds,
  });
}

function jsonOrNull(answer: UpstreamAnswer): unknown {
  try {
    return answer.json();
  } catch {
    return null;
  }
}

/** Retry-After is seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}
