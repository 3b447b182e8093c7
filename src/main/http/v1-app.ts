import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { createHash } from 'node:crypto';
import type { IdGenerator } from '../support/ids';
import {
  COLLECTION_NAMES,
  COLLECTIONS,
  MAX_JSON_BYTES,
  MAX_PHOTO_BYTES,
  PHOTO_CONTENT_TYPES,
  type CallContext,
  type Collection,
  type CreatableCollection,
  type Source,
  type V1Service,
} from '../../shared/contract';
import { ServiceError, isServiceError, validationFailed } from '../../shared/service-error';
import type { IdempotencyStore } from './idempotency-store';

export interface V1AppOptions {
  service: V1Service;
  /** The channel's source for records created here: `api` for the sandbox and the local API. */
  source: Source;
  /** Whether a bearer token is accepted (compared in constant time by the caller). */
  authenticate(token: string): boolean;
  idempotency: IdempotencyStore;
  ids: IdGenerator;
  /** Run before authentication: the TCP guard, the sandbox's fault injection. */
  before?: MiddlewareHandler[];
  /** Told of unexpected errors by request id and error name only: messages may hold PHI. */
  log?(message: string): void;
}

type AppEnv = { Variables: { requestId: string } };

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const JSON_TYPE = /^application\/json\s*(;|$)/i;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The /v1 contract over HTTP (DESIGN.md §2), for any V1Service: routes from COLLECTIONS,
 * one error envelope, bearer auth, Idempotency-Key replay and conflicts, body limits,
 * content-type checks, request ids. The sandbox and the local API are this app over
 * different services.
 */
export function createV1App(options: V1AppOptions): Hono<AppEnv> {
  const { service, idempotency } = options;
  const app = new Hono<AppEnv>();

  app.use('*', async (c, next) => {
    const requestId = options.ids.next('req');
    c.set('requestId', requestId);
    c.header('Request-Id', requestId);
    // Every answer may carry PHI: nothing in between keeps a copy.
    c.header('Cache-Control', 'no-store');
    await next();
  });
  app.onError((error, c) => errorResponse(c, asServiceError(error, c, options.log)));
  app.notFound((c) => errorResponse(c, new ServiceError('route_not_found', `There is no route ${c.req.method} ${c.req.path}.`)));
  for (const middleware of options.before ?? []) app.use('*', middleware);
  app.use('*', async (c, next) => {
    const token = BEARER.exec(c.req.header('authorization') ?? '')?.[1];
    if (!token || !options.authenticate(token)) {
      throw new ServiceError('unauthorized', 'Send a valid key as "Authorization: Bearer <key>".');
    }
    await next();
  });

  /**
   * Runs a create at most once per Idempotency-Key, replaying its first success. `run` gets
   * a `commit` to hand the service: the answer is stored in the create's own transaction,
   * so a crash can never leave a record whose key would let it be created again.
   */
  async function idempotent(c: Context<AppEnv>, requestHash: string, run: (commit?: (resource: unknown) => void) => Promise<unknown>): Promise<Response> {
    const key = c.req.header('idempotency-key');
    if (key === undefined) return c.json(await run(), 201);
    if (!IDEMPOTENCY_KEY.test(key)) {
      throw validationFailed([
        { path: 'Idempotency-Key', code: 'invalid_format', message: 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.' },
      ]);
    }
    // Keys are per caller and per route: two integrations can never collide.
    const scope = `${sha256(c.req.header('authorization') ?? '').slice(0, 16)} ${c.req.method} ${c.req.path}`;
    const begun = idempotency.begin(scope, key, requestHash);
    switch (begun.kind) {
      case 'replay':
        c.header('Idempotent-Replayed', 'true');
        c.header('Content-Type', 'application/json');
        return c.body(begun.body, begun.status as 201);
      case 'conflict':
        throw new ServiceError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request. Use a new key for a new request.');
      case 'in_progress':
        throw new ServiceError('idempotency_request_in_progress', 'A request with this Idempotency-Key is still running. Retry in a moment.', undefined, {
          retryAfterSeconds: 1,
        });
      case 'new':
        break;
    }
    let stored = false;
    const commit = (resource: unknown) => {
      idempotency.complete(scope, key, 201, JSON.stringify(resource));
      stored = true;
    };
    let body: string;
    try {
      body = JSON.stringify(await run(commit));
    } catch (error) {
      // Only successes are kept: a refused request created nothing and may be sent again
      // once fixed (e.g. a reference that now exists). A stored answer is never released.
      idempotency.release(scope, key);
      throw error;
    }
    // Photo uploads store their answer here: the same bytes again are the same photo anyway.
    if (!stored) idempotency.complete(scope, key, 201, body);
    c.header('Content-Type', 'application/json');
    return c.body(body, 201);
  }

  app.post('/v1/photos', async (c) => {
    const type = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (!(PHOTO_CONTENT_TYPES as readonly string[]).includes(type)) {
      throw new ServiceError('unsupported_media_type', `Photos must be sent as ${PHOTO_CONTENT_TYPES.join(' or ')}.`);
    }
    const bytes = await readBody(c, MAX_PHOTO_BYTES);
    return idempotent(c, sha256(Buffer.concat([Buffer.from(`${type}\n`), bytes])), () => service.uploadPhoto({ content_type: type, bytes }));
  });
  app.get('/v1/photos/:object_key', async (c) => {
    const photo = await service.readPhoto(c.req.param('object_key'));
    c.header('Content-Type', photo.content_type);
    return c.body(Buffer.from(photo.bytes), 200);
  });

  for (const collection of COLLECTION_NAMES) {
    app.get(`/v1/${collection}`, async (c) => c.json(await service.list(collection, c.req.query()), 200));
    app.get(`/v1/${collection}/:id`, async (c) => c.json(await service.get(collection, c.req.param('id')), 200));
    if (COLLECTIONS[collection].create === null) continue;
    app.post(`/v1/${collection}`, async (c) => {
      if (!JSON_TYPE.test(c.req.header('content-type') ?? '')) {
        throw new ServiceError('unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json".');
      }
      const input = parseJson(await readBody(c, MAX_JSON_BYTES));
      const context: CallContext = { source: options.source, idempotency_key: c.req.header('idempotency-key') };
      return idempotent(c, sha256(canonicalJson(input)), (commit) =>
        service.create(collection as CreatableCollection, input as never, { ...context, commit }),
      );
    });
  }

  // A known path with the wrong method is 405 with what is allowed; anything else 404.
  app.all('/v1/*', (c) => {
    const allowed = allowedMethods(c.req.path);
    if (!allowed) throw new ServiceError('route_not_found', `There is no route ${c.req.method} ${c.req.path}.`);
    c.header('Allow', allowed);
    throw new ServiceError('method_not_allowed', `${c.req.path} accepts ${allowed} only.`);
  });

  return app;
}

function allowedMethods(path: string): string | null {
  const [, v1, name, id, ...rest] = path.split('/');
  if (v1 !== 'v1' || rest.length > 0) return null;
  if (name === 'photos') return id ? 'GET' : 'POST';
  if (!COLLECTION_NAMES.includes(name as Collection)) return null;
  return id || COLLECTIONS[name as Collection].create === null ? 'GET' : 'GET, POST';
}

function errorResponse(c: Context<AppEnv>, error: ServiceError): Response {
  if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(Math.max(0, Math.ceil(error.retryAfterSeconds))));
  if (error.status === 401) c.header('WWW-Authenticate', 'Bearer realm="coverdesk"');
  return c.json({ error: error.toBody(c.get('requestId')) }, error.status as 400);
}

function asServiceError(error: unknown, c: Context<AppEnv>, log?: (message: string) => void): ServiceError {
  if (isServiceError(error)) return error;
  log?.(`internal error in request ${c.get('requestId')}: ${error instanceof Error ? error.name : typeof error}`);
  return new ServiceError('internal_error', 'Something went wrong on our side. Retry with the same Idempotency-Key: what was created is answered again, never created twice.');
}

/** Reads the body up to `limit` bytes, refusing a larger one without reading it all. */
async function readBody(c: Context<AppEnv>, limit: number): Promise<Uint8Array> {
  const tooLarge = () => new ServiceError('payload_too_large', `The body must be at most ${limit / 1024 / 1024} MiB.`);
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  const reader = c.req.raw.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new ServiceError('malformed_json', 'The request body is not valid JSON.');
  }
}

/** Key order does not make two bodies different requests. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
