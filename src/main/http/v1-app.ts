import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { hash, timingSafeEqual } from 'node:crypto';
import type { IdGenerator } from '../support/ids';
import {
  CHANGES_PATH,
  COLLECTION_NAMES,
  IDEMPOTENCY_KEY_PATTERN,
  COLLECTIONS,
  MAX_JSON_BYTES,
  MAX_PHOTO_BYTES,
  PHOTO_CONTENT_TYPES,
  type CallContext,
  type Collection,
  type CreatableCollection,
  type ErrorCode,
  type Source,
  type V1Service,
} from '../../shared/contract';
import { OPENAPI_DOCUMENT_PATH, openApiDocument } from '../../shared/contract/openapi-document';
import { ServiceError, isServiceError, validationFailed } from '../../shared/service-error';
import type { IdempotencyStore } from './idempotency-store';
import { diskFullError, isDiskFull } from '../storage/disk-full';
import { actingAs } from '../support/audit-actor';

export interface V1AppOptions {
  service: V1Service;
  /** The channel's source for records created here: `api` for the sandbox and the local API. */
  source: Source;
  /** The key callers must present, read per request (the local API's can be regenerated); null refuses everyone. */
  apiKey(): string | null;
  /**
   * Other keys that are let in (the local API's named integrations): who the caller is, as
   * the audit should name them, or null. The request then runs as that actor (`actingAs`).
   */
  callerOf?(given: string): string | null;
  idempotency: IdempotencyStore;
  ids: IdGenerator;
  /** Run before authentication: the TCP guard, the sandbox's fault injection. */
  before?: MiddlewareHandler[];
  /** Told of unexpected errors by request id and error name only: messages may hold PHI. */
  log?(message: string): void;
  /** Routes beyond the /v1 contract, behind the same auth and envelope (the local API's appointments). */
  routes?: V1Routes;
}

export type AppEnv = { Variables: { requestId: string; caller?: string } };
/** What extra routes may use of the app's own machinery: `Idempotency-Key` replay for their creates. */
export interface RouteTools {
  /** Answers 201 with what `run` made, at most once per key and JSON body; `commit` stores the answer in the create's own transaction. */
  idempotent(c: Context<AppEnv>, body: unknown, run: (commit?: (resource: unknown) => void) => Promise<unknown>): Promise<Response>;
}
export type V1Routes = (app: Hono<AppEnv>, tools: RouteTools) => void;

/**
 * The /v1 contract over HTTP (docs/decisions.md, contract decisions), for any V1Service:
 * routes from COLLECTIONS, one error envelope, bearer auth, Idempotency-Key replay and
 * conflicts, body limits, content-type checks, request ids. The sandbox and the local API
 * are this app over different services.
 */
export function createV1App(options: V1AppOptions): Hono<AppEnv> {
  const { service, idempotency } = options;
  const app = new Hono<AppEnv>();
  const keyMatches = keyMatcher();

  // A caller's own Request-Id is never taken: ids are ours (`req_`), and they are what
  // reaches the logs. Every answer carries it and `Cache-Control: no-store` (every answer may
  // carry PHI: nothing in between keeps a copy); `answer` writes both with the rest of its
  // headers, and any other answer (errors, replays, extra routes) gets them here.
  app.use('*', async (c, next) => {
    const id = options.ids.next('req');
    c.set('requestId', id);
    await next();
    if (!answered.has(c.res)) {
      // Our own answers, never a fetched one, so their headers can be changed in place.
      const headers = c.res.headers;
      headers.set('Request-Id', id);
      headers.set('Cache-Control', 'no-store');
    }
  });
  app.onError((error, c) => errorResponse(c, asServiceError(error, c, options.log)));
  app.notFound((c) => errorResponse(c, new ServiceError('route_not_found', `There is no route ${c.req.method} ${c.req.path}.`)));
  for (const middleware of options.before ?? []) app.use('*', middleware);
  // One step for the key and who it names. A header that is not `Bearer <token>` (e.g. Basic)
  // is a bad key like any other: 401.
  app.use('*', (c, next) => {
    const given = bearerToken(c.req.header('authorization'));
    if (given !== null) {
      if (keyMatches(options.apiKey(), given)) return next();
      const caller = options.callerOf?.(given) ?? null;
      if (caller !== null) {
        c.set('caller', caller);
        return actingAs(caller, next);
      }
    }
    throw new ServiceError('unauthorized', UNAUTHORIZED, undefined, { status: 401 });
  });

  /**
   * Runs a create at most once per Idempotency-Key, replaying its first success. `run` gets
   * a `commit` to hand the service: the answer is stored in the create's own transaction,
   * so a crash can never leave a record whose key would let it be created again. The
   * request's hash is only worked out when there is a key to tie it to.
   */
  async function idempotent(c: Context<AppEnv>, requestHash: () => string, run: (commit?: (resource: unknown) => void) => Promise<unknown>): Promise<Response> {
    const key = c.req.header('idempotency-key');
    if (key === undefined) return answer(c, 201, JSON.stringify(await run()));
    if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
      throw validationFailed([
        { path: 'Idempotency-Key', code: 'invalid_format', message: 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.' },
      ]);
    }
    // Keys are per caller and per route: two integrations can never collide.
    const scope = `${sha256(c.req.header('authorization') ?? '').slice(0, 16)} ${c.req.method} ${c.req.path}`;
    const begun = await idempotency.begin(scope, key, requestHash());
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
    let stored: string | undefined;
    const commit = (resource: unknown) => {
      stored = JSON.stringify(resource);
      idempotency.complete(scope, key, 201, stored);
    };
    let body: string;
    try {
      const result = await run(commit);
      // The bytes stored for replay are the bytes answered now.
      body = stored ?? JSON.stringify(result);
      // Photo uploads store their answer here: the same bytes again are the same photo anyway.
      if (stored === undefined) await idempotency.store(scope, key, 201, body);
    } finally {
      // The claim goes however the request ended. Only successes are kept: their stored
      // answer is replayed from now on, while a refused request created nothing and may be
      // sent again once fixed (e.g. a reference that now exists).
      await idempotency.release(scope, key);
    }
    return answer(c, 201, body);
  }

  // The type is checked before the body is read; the limit refuses a declared length
  // before reading and cuts a chunked body off at the limit.
  const photoBody = bodyGuard((type) => (PHOTO_CONTENT_TYPES as readonly string[]).includes(type), `Photos must be sent as ${PHOTO_CONTENT_TYPES.join(' or ')}.`, MAX_PHOTO_BYTES);
  const jsonBody = bodyGuard((type) => type === 'application/json', 'Send the body as JSON with "Content-Type: application/json".', MAX_JSON_BYTES);
  app.post('/v1/photos', photoBody, async (c) => {
    const type = mediaType(c);
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    return idempotent(c, () => sha256(Buffer.concat([Buffer.from(`${type}\n`), bytes])), () => service.uploadPhoto({ content_type: type, bytes }));
  });
  app.get('/v1/photos/:object_key', async (c) => {
    const photo = await service.readPhoto(c.req.param('object_key'));
    c.header('Content-Type', photo.content_type);
    return c.body(Buffer.from(photo.bytes), 200);
  });

  // The contract this server speaks, generated from the same zod schemas it validates with.
  let documentJson: string | undefined;
  app.get(OPENAPI_DOCUMENT_PATH, (c) => {
    documentJson ??= JSON.stringify(openApiDocument());
    c.header('Content-Type', 'application/json');
    return c.body(documentJson, 200);
  });

  // The practice's feed: a desk's own service has none, and says so as an unknown route.
  app.get(CHANGES_PATH, async (c) => {
    if (!service.changes) throw new ServiceError('route_not_found', `There is no route GET ${CHANGES_PATH}: this service has no changes feed.`);
    return answer(c, 200, JSON.stringify(await service.changes(c.req.query())));
  });

  for (const collection of COLLECTION_NAMES) {
    app.get(`/v1/${collection}`, async (c) => answer(c, 200, JSON.stringify(await service.list(collection, c.req.query()))));
    app.get(`/v1/${collection}/:id`, async (c) => answer(c, 200, JSON.stringify(await service.get(collection, c.req.param('id')))));
    if (COLLECTIONS[collection].create === null) continue;
    app.post(`/v1/${collection}`, jsonBody, async (c) => {
      const input = parseJson(await c.req.arrayBuffer());
      const context: CallContext = { source: options.source, idempotency_key: c.req.header('idempotency-key') };
      return idempotent(c, () => sha256(canonicalJson(input)), (commit) =>
        service.create(collection as CreatableCollection, input as never, { ...context, commit }),
      );
    });
  }

  options.routes?.(app, { idempotent: (c, body, run) => idempotent(c, () => sha256(canonicalJson(body)), run) });

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
  if (`/v1/${name}` === CHANGES_PATH || `/v1/${name}` === OPENAPI_DOCUMENT_PATH) return id ? null : 'GET';
  if (!COLLECTION_NAMES.includes(name as Collection)) return null;
  return id || COLLECTIONS[name as Collection].create === null ? 'GET' : 'GET, POST';
}

const UNAUTHORIZED = 'Send a valid key as "Authorization: Bearer <key>".';

/** Answers made by `answer`: they already carry the headers every answer needs. */
const answered = new WeakSet<Response>();

/**
 * A JSON answer with every header it needs in one plain object (`Request-Id`,
 * `Cache-Control`, the type): the node adapter writes such an answer's headers as they are,
 * where `c.header`/`c.json` build a `Headers` to be copied out again for every request.
 */
function answer(c: Context<AppEnv>, status: number, json: string): Response {
  const response = new Response(json, { status, headers: { 'Content-Type': 'application/json', 'Request-Id': c.get('requestId'), 'Cache-Control': 'no-store' } });
  answered.add(response);
  return response;
}

/** RFC 6750's token characters, as Hono's bearerAuth accepts them. */
const BEARER_TOKEN = /^[A-Za-z0-9._~+/-]+=*$/;

/** The token of `Authorization: Bearer <token>` (the scheme in any case), or null for anything else. */
function bearerToken(header: string | undefined): string | null {
  if (header === undefined || header[6] !== ' ' || header.slice(0, 6).toLowerCase() !== 'bearer') return null;
  const token = header.slice(7).trimStart();
  return BEARER_TOKEN.test(token) ? token : null;
}

/**
 * Compares digests, so neither the key's bytes nor its length show in the timing. The
 * expected key's digest is kept until the key changes (a regenerated token): hashing our
 * own key again on every request would tell a caller nothing, and costs every request.
 */
function keyMatcher(): (expected: string | null, given: string) => boolean {
  let known: { key: string; digest: Buffer } | null = null;
  return (expected, given) => {
    if (expected === null) return false;
    if (known?.key !== expected) known = { key: expected, digest: hash('sha256', expected, 'buffer') };
    return timingSafeEqual(known.digest, hash('sha256', given, 'buffer'));
  };
}

const mediaType = (c: Context) => (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();

/** The body's type, checked before it is read, then its size (`limit`): one step, not two. */
function bodyGuard(accepts: (type: string) => boolean, message: string, maxSize: number): MiddlewareHandler {
  const sized = limit(maxSize);
  return (c, next) => {
    if (!accepts(mediaType(c))) throw new ServiceError('unsupported_media_type', message);
    return sized(c, next);
  };
}

function limit(maxSize: number): MiddlewareHandler {
  const tooLarge = () => new ServiceError('payload_too_large', `The body must be at most ${maxSize / 1024 / 1024} MiB.`);
  const streamed = bodyLimit({
    maxSize,
    onError: () => {
      throw tooLarge();
    },
  });
  return async (c, next) => {
    // A declared length is all Hono's bodyLimit checks too; deciding here without touching
    // `c.req.raw.body` keeps the node adapter's direct read of the body, instead of a web
    // stream and a full Request built for every create.
    const declared = c.req.header('content-length');
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (parseInt(declared, 10) > maxSize) throw tooLarge();
      return next();
    }
    // No length declared (chunked): read as a stream and cut off at the limit.
    return streamed(c, next);
  };
}

function errorResponse(c: Context<AppEnv>, error: ServiceError): Response {
  if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(Math.max(0, Math.ceil(error.retryAfterSeconds))));
  if (error.status === 401) c.header('WWW-Authenticate', 'Bearer realm="coverdesk"');
  return c.json({ error: error.toBody(c.get('requestId')) }, error.status as 400);
}

const INTERNAL = 'Something went wrong on our side. Retry with the same Idempotency-Key: what was created is answered again, never created twice.';

/** The contract's code for the statuses Hono's middleware refuse with. */
const HTTP_EXCEPTION_CODES: Partial<Record<number, ErrorCode>> = { 401: 'unauthorized', 403: 'forbidden', 413: 'payload_too_large', 429: 'rate_limited', 503: 'service_unavailable' };

function asServiceError(error: unknown, c: Context<AppEnv>, log?: (message: string) => void): ServiceError {
  if (isServiceError(error)) return error;
  // A full disk is the desk's to fix, on every route of this one layer (507, nothing stored:
  // SQLite rolled the transaction back).
  if (isDiskFull(error)) return diskFullError();
  const status = error instanceof HTTPException ? error.status : 500;
  if (status >= 500) {
    log?.(`internal error in request ${c.get('requestId')}: ${error instanceof Error ? error.name : typeof error}`);
    return new ServiceError(HTTP_EXCEPTION_CODES[status] ?? 'internal_error', INTERNAL, undefined, { status });
  }
  // A middleware's refusal (an HTTPException) keeps its status: a 4xx is the caller's to fix.
  // Its message is the middleware's own sentence, never request data.
  const code = HTTP_EXCEPTION_CODES[status];
  const message = status === 401 ? UNAUTHORIZED : (error as HTTPException).message || `The request was refused (HTTP ${status}).`;
  return new ServiceError(code ?? 'invalid_request', message, undefined, { status, ...(code ? {} : { type: 'invalid_request_error' }) });
}

function parseJson(bytes: ArrayBuffer): unknown {
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
  return hash('sha256', data);
}
