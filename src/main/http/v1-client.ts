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

export interface HttpV1ClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Per request; a slow upstream is treated like an unreachable one. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** Network failures, resets and time-outs: the request may or may not have arrived. */
export const UPSTREAM_UNREACHABLE = 'upstream_unreachable';

/**
 * The upstream /v1 service as a V1Service, over HTTP. Used only by sync. Every failure is
 * a ServiceError: the upstream's own envelope and status where it answered, `status: 0`
 * and `upstream_unreachable` where it did not; `retryAfterSeconds` from Retry-After.
 */
export function createHttpV1Client(options: HttpV1ClientOptions): V1Service {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;

  async function call(method: string, path: string, init: { body?: RequestInit['body']; contentType?: string; idempotencyKey?: string } = {}): Promise<Response> {
    const headers: Record<string, string> = { Authorization: `Bearer ${options.apiKey}`, Accept: 'application/json' };
    if (init.contentType) headers['Content-Type'] = init.contentType;
    if (init.idempotencyKey) headers['Idempotency-Key'] = init.idempotencyKey;
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, { method, headers, body: init.body, signal: AbortSignal.timeout(timeoutMs) });
    } catch {
      throw new ServiceError(UPSTREAM_UNREACHABLE, 'The upstream service could not be reached.', undefined, { status: 0 });
    }
    if (response.ok) return response;
    throw await upstreamError(response);
  }

  async function json<T>(response: Response, parse: (value: unknown) => T): Promise<T> {
    let value: unknown;
    try {
      value = await response.json();
    } catch {
      // The connection broke mid-body: as good as no answer.
      throw new ServiceError(UPSTREAM_UNREACHABLE, 'The upstream service stopped answering mid-response.', undefined, { status: 0 });
    }
    try {
      return parse(value);
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
      const response = await call('GET', `/v1/photos/${encodeURIComponent(objectKey)}`);
      const content_type = PhotoContentType.parse((response.headers.get('content-type') ?? '').split(';')[0].trim());
      return { content_type, bytes: new Uint8Array(await response.arrayBuffer()) };
    },
  };
}

async function upstreamError(response: Response): Promise<ServiceError> {
  const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
  const envelope = ErrorEnvelope.safeParse(await response.json().catch(() => null));
  if (envelope.success) return ServiceError.fromBody(envelope.data.error, response.status, retryAfterSeconds);
  return new ServiceError('upstream_error', `The upstream service answered ${response.status}.`, undefined, {
    status: response.status,
    retryAfterSeconds,
  });
}

/** Retry-After is seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}
