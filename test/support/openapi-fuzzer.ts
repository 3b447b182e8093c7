import { generate, type JsonSchema } from 'json-schema-faker';
import { seededRandom } from '@src/main/sandbox/fault-injection';
import { MAX_JSON_BYTES, MAX_PHOTO_BYTES } from '@src/shared/contract';
import { openApiDocument, type OpenApiDocument, type OpenApiOperation } from '@src/shared/contract/openapi-document';
import { httpRequest, type HttpAnswer, type HttpTarget } from './http-request';
import { makePng } from './images';
import { createAnswerValidator } from './openapi-validator';

/**
 * A request fuzzer driven by the OpenAPI document: json-schema-faker generates parameters
 * and bodies from the document's schemas, and each is then sent as is (valid by the
 * document) or broken in one way the document forbids (a required field missing, a wrong
 * type, an unknown field, a value past a limit or outside an enum, a body that is not the
 * declared type, a wrong content type, a malformed Idempotency-Key, no token, a method or
 * path the document does not have). Every answer is checked against the document, no
 * answer may be a 5xx, and a request the document forbids must be refused and write nothing.
 */

export interface FuzzTarget {
  target: HttpTarget;
  apiKey: string;
  /** The server's stored state (row counts and files): equal means nothing was written. */
  snapshot(): unknown;
}

export interface FuzzOptions {
  seed: number;
  maxRequests: number;
  maxMs: number;
  doc?: OpenApiDocument;
}

export interface FuzzFinding {
  request: string;
  status: number;
  problem: string;
}

export interface FuzzReport {
  sent: number;
  ms: number;
  /** Answers by kind of case (`valid`, `missing-required`, `wrong-method`, …) and status. */
  byKind: Record<string, Record<string, number>>;
  byStatus: Record<string, number>;
  findings: FuzzFinding[];
}

type Json = Record<string, unknown>;

interface FuzzRequest {
  method: string;
  path: string;
  headers?: Record<string, string | undefined>;
  body?: string | Uint8Array;
}

interface FuzzCase {
  kind: string;
  /** The document forbids it: it must be refused (4xx) and write nothing. */
  invalid: boolean;
  build(): Promise<FuzzRequest>;
}

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const WRONG_VALUES: unknown[] = [12345, -1.5, true, null, [], {}, 'fuzz'];
const HOSTILE_STRINGS = ['a\u0000b', 'tab\there', 'line\nbreak', '\ud800', 'x\u202Ey', '😀'.repeat(60), "Robert'); DROP TABLE patients;--", '  padded  '];

function typeMatches(schema: Json, value: unknown): boolean {
  if (Array.isArray(schema.enum)) return schema.enum.includes(value);
  if ('const' in schema) return schema.const === value;
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [String(schema.type)] : null;
  if (!types) return true;
  return types.some((type) => {
    switch (type) {
      case 'null':
        return value === null;
      case 'array':
        return Array.isArray(value);
      case 'object':
        return value !== null && typeof value === 'object' && !Array.isArray(value);
      case 'integer':
        return Number.isInteger(value);
      default:
        return typeof value === type;
    }
  });
}

export async function fuzzAgainstDocument(t: FuzzTarget, options: FuzzOptions): Promise<FuzzReport> {
  const doc = options.doc ?? openApiDocument();
  const random = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const check = createAnswerValidator(doc);
  let seed = options.seed;
  const fake = async (schema: unknown): Promise<unknown> => generate(schema as JsonSchema, { seed: ++seed, optionalsProbability: 0.5, refResolver: resolveRef });

  /** Ids (and photo object keys) seen in answers, by collection: the path segment after /v1/. */
  const pool = new Map<string, string[]>();
  const collectionOf = (path: string) => path.split('?')[0].split('/')[2] ?? '';
  const remember = (collection: string, id: unknown) => {
    const known = pool.get(collection) ?? [];
    if (typeof id === 'string' && !known.includes(id)) pool.set(collection, [...known, id]);
  };

  function resolveRef(ref: string): JsonSchema {
    const [, , kind, name] = ref.split('/');
    return (doc.components as unknown as Record<string, Record<string, JsonSchema>>)[kind][name];
  }
  const resolve = (value: unknown): Json => ((value as Json).$ref ? (resolveRef(String((value as Json).$ref)) as Json) : (value as Json));

  /** Points reference fields (`x-coverdesk-reference`) at records the server has, and patterned dates at real ones. */
  function grounded(body: Json, schema: Json): Json {
    const out = { ...body };
    for (const [field, property] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
      if (!(field in out)) continue;
      const target = property['x-coverdesk-reference'];
      if (typeof target === 'string') {
        const known = pool.get(target);
        if (property.type === 'array') out[field] = known ? [pick(known)] : [];
        else if (known) out[field] = pick(known);
      }
      if (property.pattern === DATE_PATTERN) {
        out[field] = new Date(Date.UTC(1930 + Math.floor(random() * 90), Math.floor(random() * 12), 1 + Math.floor(random() * 28))).toISOString().slice(0, 10);
      }
    }
    return out;
  }

  const auth = { authorization: `Bearer ${t.apiKey}` };
  const fill = (template: string, values: Record<string, string>) => template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name]));

  /** Path values: mostly ids the server has (of the collection in the path), else generated. */
  async function pathValues(template: string, operation: OpenApiOperation): Promise<Record<string, string>> {
    const values: Record<string, string> = {};
    for (const parameter of (operation.parameters ?? []).map(resolve).filter((p) => p.in === 'path')) {
      const known = pool.get(collectionOf(template));
      values[String(parameter.name)] = known && random() < 0.7 ? pick(known) : String(await fake(parameter.schema));
    }
    return values;
  }

  const cases: FuzzCase[] = [];
  const twins: (() => Promise<FuzzRequest>)[] = [];
  const add = (kind: string, invalid: boolean, build: () => Promise<FuzzRequest> | FuzzRequest) => cases.push({ kind, invalid, build: async () => build() });

  // Paths the document does not have, and methods it does not allow (openapi-fuzzer-core's PATH and METHOD cases).
  add('unknown-path', true, () => ({ method: 'GET', path: '/v1/ROOT/INVALID/PATH', headers: auth }));
  for (const [template, item] of Object.entries(doc.paths)) {
    const operation = Object.values(item)[0];
    add('unknown-path', true, async () => ({ method: pick(Object.keys(item)).toUpperCase(), path: `${fill(template, await pathValues(template, operation))}/INVALID/PATH`, headers: auth }));
    for (const method of ['put', 'patch', 'delete', 'post', 'get'].filter((m) => !(m in item))) {
      add('wrong-method', true, async () => ({ method: method.toUpperCase(), path: fill(template, await pathValues(template, operation)), headers: { ...auth, 'content-type': 'application/json' }, body: '{}' }));
    }
  }

  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const M = method.toUpperCase();
      const base = async (headers: Record<string, string | undefined> = {}) => ({ method: M, path: fill(template, await pathValues(template, operation)), headers: { ...auth, ...headers } });
      add('no-token', true, async () => ({ ...(await base({ authorization: undefined })), ...(M === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}) }));
      add('wrong-token', true, async () => ({ ...(await base({ authorization: `Bearer ${t.apiKey}x` })) }));

      const parameters = (operation.parameters ?? []).map(resolve);
      const query = parameters.filter((p) => p.in === 'query');
      if (M === 'GET') {
        for (let i = 0; i < 3; i++) {
          add('valid', false, async () => {
            const values: string[] = [];
            for (const p of query) if (random() < 0.5) values.push(`${String(p.name)}=${encodeURIComponent(String(await fake(p.schema)))}`);
            return { ...(await base()), path: `${fill(template, await pathValues(template, operation))}${values.length ? `?${values.join('&')}` : ''}` };
          });
        }
        for (const p of query) {
          const schema = p.schema as Json;
          const bad = [
            ...(schema.minimum !== undefined ? [Number(schema.minimum) - 1] : []),
            ...(schema.maximum !== undefined ? [Number(schema.maximum) + 1] : []),
            ...(schema.type === 'integer' ? ['ten', '1.5'] : []),
            ...(schema.minLength ? [''] : []),
            ...(schema.maxLength ? ['c'.repeat(Number(schema.maxLength) + 1)] : []),
          ];
          for (const value of bad) add('bad-query', true, async () => ({ ...(await base()), path: `${fill(template, await pathValues(template, operation))}?${String(p.name)}=${encodeURIComponent(String(value))}` }));
          // Broken percent-encoding and repeats: any answer the document allows, but never a 5xx.
          for (const raw of ['%ZZ', '%E0%A4%A', '1&limit=2', '%00', '1e309']) {
            add('bad-encoding', false, async () => ({ ...(await base()), path: `${fill(template, await pathValues(template, operation))}?${String(p.name)}=${raw}` }));
          }
        }
        for (const p of parameters.filter((q) => q.in === 'path')) {
          for (const value of ['x'.repeat(300), 'a b', '../..', '%00', 'ü'.repeat(10)]) {
            add('odd-path-param', false, async () => ({ ...(await base()), path: fill(template, { ...(await pathValues(template, operation)), [String(p.name)]: value }) }));
          }
          add('bad-encoding', false, async () => ({ ...(await base()), path: template.replace(`{${String(p.name)}}`, '%E0%A4%A') }));
        }
      }

      const content = (operation.requestBody as { content?: Record<string, { schema: Json }> } | undefined)?.content;
      if (!content) continue;
      const idempotencyKey = parameters.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      if (idempotencyKey) {
        for (const key of ['k'.repeat(256), 'has space', '']) {
          add('bad-idempotency-key', true, async () => ({ ...(await base({ 'idempotency-key': key, 'content-type': Object.keys(content)[0] })), body: Object.keys(content)[0].startsWith('image/') ? makePng() : '{}' }));
        }
      }
      const json = content['application/json'];
      if (!json) {
        // A body that is not JSON (photos, schedule files): declared types with good and bad
        // content, and types the document does not declare, which must be refused.
        const types = Object.keys(content);
        const images = types.every((type) => type.startsWith('image/'));
        for (let i = 0; i < 3; i++) {
          add('valid', false, async () => ({
            method: M,
            path: template,
            headers: { ...auth, 'content-type': images ? 'image/png' : pick(types), 'idempotency-key': idempotencyKey && random() < 0.3 ? `fuzz-${seed}` : undefined },
            body: images ? makePng(4 + Math.floor(random() * 8), 4, [Math.floor(random() * 256), 0, 0]) : String(await fake(content[types[0]].schema)),
          }));
        }
        for (const type of types) {
          add('damaged-bytes', false, () => ({ method: M, path: template, headers: { ...auth, 'content-type': type }, body: new Uint8Array(64).map(() => Math.floor(random() * 256)) }));
          add('damaged-bytes', false, () => ({ method: M, path: template, headers: { ...auth, 'content-type': type }, body: makePng(16, 16).slice(0, 50) }));
        }
        for (const type of ['image/gif', 'application/json', 'text/plain', 'image/png', undefined].filter((type) => type === undefined || !types.includes(type))) {
          add('wrong-content-type', true, () => ({ method: M, path: template, headers: { ...auth, 'content-type': type }, body: makePng() }));
        }
        if (images) add('too-large', true, () => ({ method: M, path: template, headers: { ...auth, 'content-type': types[0] }, body: new Uint8Array(MAX_PHOTO_BYTES + 1) }));
        continue;
      }
      const schema = resolve(json.schema);
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      const body = async () => grounded((await fake(json.schema)) as Json, schema);
      const send = async (payload: unknown, headers: Record<string, string | undefined> = {}) => ({
        ...(await base({ 'content-type': 'application/json', ...headers })),
        body: typeof payload === 'string' ? payload : JSON.stringify(payload),
      });
      for (let i = 0; i < 4; i++) add('valid', false, async () => send(await body(), random() < 0.3 ? { 'idempotency-key': `fuzz-${options.seed}-${i}-${template}` } : {}));
      twins.push(async () => send(await body(), { 'idempotency-key': `fuzz-twins-${options.seed}-${template}` }));
      for (const field of (schema.required ?? []) as string[]) {
        add('missing-required', true, async () => {
          const { [field]: _dropped, ...rest } = await body();
          return send(rest);
        });
      }
      for (const [field, property] of Object.entries(properties)) {
        const resolved = resolve(property);
        const wrong = WRONG_VALUES.filter((value) => !typeMatches(resolved, value));
        add('wrong-type', true, async () => send({ ...(await body()), [field]: pick(wrong) }));
        if (Array.isArray(resolved.enum)) add('outside-enum', true, async () => send({ ...(await body()), [field]: 'fuzz_not_a_member' }));
        if (typeof resolved.maxLength === 'number') add('too-long', true, async () => send({ ...(await body()), [field]: 'L'.repeat(Number(resolved.maxLength) + 1) }));
        if (typeof resolved.maxItems === 'number') add('too-many-items', true, async () => send({ ...(await body()), [field]: Array.from({ length: Number(resolved.maxItems) + 1 }, () => 'x') }));
        if (resolved.type === 'string') {
          // Text the pattern forbids must be refused; text it allows (lone surrogates, bidi
          // overrides, astral characters, NUL-free but odd) may be refused but never a 5xx.
          const patterns = [resolved, ...((resolved.allOf ?? []) as Json[])].flatMap((part) => (typeof part.pattern === 'string' ? [new RegExp(part.pattern, 'u')] : []));
          for (const text of HOSTILE_STRINGS) {
            const forbidden = patterns.some((pattern) => !pattern.test(text));
            add(forbidden ? 'pattern-violation' : 'hostile-string', forbidden, async () => send({ ...(await body()), [field]: text }));
          }
        }
      }
      if (schema.additionalProperties === false) add('unknown-field', true, async () => send({ ...(await body()), [`fuzz_${Math.floor(random() * 1e6)}`]: 'x' }));
      for (const payload of ['[]', '"text"', '42', 'null', 'true']) add('not-an-object', true, () => send(payload));
      for (const payload of ['{"a":', '{]', '\u00ff\u00fe', '']) add('malformed-json', true, () => send(payload));
      add('wrong-content-type', true, async () => send(await body(), { 'content-type': 'text/plain' }));
      add('wrong-content-type', true, async () => send(await body(), { 'content-type': undefined }));
      add('too-large', true, () => send(JSON.stringify({ pad: 'x'.repeat(MAX_JSON_BYTES) })));
    }
  }

  // Reference data first, so valid bodies can point at records that exist.
  for (const [template, item] of Object.entries(doc.paths)) {
    if (!template.includes('{') && item.get && !item.post && template !== '/v1/openapi.json') cases.unshift({ kind: 'valid', invalid: false, build: async () => ({ method: 'GET', path: template, headers: auth }) });
  }
  const [first, rest] = [cases.filter((c) => c.kind === 'valid' && !c.invalid).slice(0, 2), cases];
  const order = [...first, ...rest.filter((c) => !first.includes(c)).sort(() => random() - 0.5)].slice(0, options.maxRequests);

  const report: FuzzReport = { sent: 0, ms: 0, byKind: {}, byStatus: {}, findings: [] };

  /** Sends one request and records what breaks the rules; `alone` means no other request runs meanwhile. */
  async function exchange(fuzzCase: Pick<FuzzCase, 'kind' | 'invalid'>, request: FuzzRequest, alone = true): Promise<HttpAnswer | undefined> {
    // Node sends a DELETE/PUT/… body with neither length nor chunking unless told: say how long it is.
    if (request.body !== undefined && request.method !== 'POST') request.headers = { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) };
    const before = alone ? t.snapshot() : undefined;
    let answer: HttpAnswer;
    try {
      answer = await httpRequest(t.target, request);
    } catch (error) {
      // A body the server refused mid-upload may reset the connection: only a refusal is allowed then.
      if (!(fuzzCase.kind === 'too-large' && (error as NodeJS.ErrnoException).code === 'EPIPE')) {
        report.findings.push({ request: `${request.method} ${request.path}`, status: 0, problem: `no answer: ${(error as Error).message}` });
      }
      return undefined;
    }
    report.sent += 1;
    const kind = (report.byKind[fuzzCase.kind] ??= {});
    kind[answer.status] = (kind[answer.status] ?? 0) + 1;
    report.byStatus[answer.status] = (report.byStatus[answer.status] ?? 0) + 1;
    const label = `${fuzzCase.kind}: ${request.method} ${request.path.slice(0, 120)}`;
    const finding = (problem: string) => report.findings.push({ request: label, status: answer.status, problem });
    if (answer.status >= 500) finding(`a ${answer.status}: ${answer.text.slice(0, 200)}`);
    for (const problem of check(request.method, request.path, answer).problems) finding(problem);
    if (fuzzCase.invalid && (answer.status < 400 || answer.status >= 500)) finding('the document forbids this request, but it was not refused');
    if (before !== undefined && (fuzzCase.invalid || answer.status >= 300)) {
      const after = t.snapshot() as Record<string, unknown>;
      const changed = Object.keys(after).filter((key) => JSON.stringify(after[key]) !== JSON.stringify((before as Record<string, unknown>)[key]));
      if (changed.length > 0) finding(`a refused request wrote something (${changed.join(', ')})`);
    }
    if (answer.status < 300 && answer.json) {
      const collection = collectionOf(request.path);
      if (Array.isArray(answer.json.data)) for (const record of answer.json.data) remember(collection, record.id);
      else remember(collection, answer.json.id ?? answer.json.object_key);
    }
    return answer;
  }

  const started = Date.now();
  for (const fuzzCase of order) {
    if (Date.now() - started > options.maxMs) break;
    await exchange(fuzzCase, await fuzzCase.build());
  }

  // Twins: one valid create sent four times at once under one Idempotency-Key. Every answer
  // must be documented (201, or 409 while the first still runs) and every 201 the same record.
  for (const twin of twins) {
    if (Date.now() - started > options.maxMs) break;
    const request = await twin();
    const answers = await Promise.all(Array.from({ length: 4 }, () => exchange({ kind: 'concurrent-twins', invalid: false }, structuredClone(request), false)));
    const ids = new Set(answers.filter((a) => a?.status === 201).map((a) => a!.json.id));
    if (ids.size > 1) report.findings.push({ request: `concurrent-twins: POST ${request.path}`, status: 201, problem: `one Idempotency-Key created ${ids.size} records` });
  }
  report.ms = Date.now() - started;
  return report;
}
