import { z } from 'zod';
import { Appointment, AppointmentCreate, AppointmentWritten, ImportResult, LocalDate } from '../bridge/appointment-contract';
import { Estimate, EstimateQuery, FeeScheduleImported } from '../bridge/estimate-contract';
import { GoodFaithEstimate } from '../bridge/gfe-contract';
import { Collection as CollectionEntry, CollectionCreate, CollectionDay, CollectionVoid } from '../bridge/collection-contract';
import { BarcodeReading, BarcodeReadingCreate } from './barcode';
import { Change, CHANGES_PATH, ChangesPage, ChangesParams } from './changes';
import { Id, SyncInfo } from './common';
import { createReferences } from './create-references';
import { ERROR_CODES, ErrorBody, ErrorEnvelope, FieldError } from './errors';
import { IdempotencyKey, IdempotentReplayed, RequestId, RetryAfter } from './http-headers';
import { ListPage, ListParams } from './list';
import { MAX_JSON_BYTES, MAX_PHOTO_BYTES, ObjectKey, PHOTO_CONTENT_TYPES, PhotoObject } from './photo';
import { COLLECTION_NAMES, COLLECTIONS, CREATABLE_COLLECTIONS, type Collection } from './resources';

/**
 * The /v1 contract as an OpenAPI 3.1 document, built from the zod schemas so there is no
 * second, hand-written schema to drift: request bodies from each collection's `create`
 * schema (as zod reads input), answers from its `resource` schema (as zod writes output),
 * paths from COLLECTIONS, errors from ERROR_CODES. The HTTP layer serves it; the reference
 * page, the typed client and the tests' validators are generated from it.
 */

export const OPENAPI_DOCUMENT_PATH = '/v1/openapi.json';

type Json = Record<string, unknown>;

export interface OpenApiOperation extends Json {
  operationId: string;
  parameters?: Json[];
  requestBody?: Json;
  responses: Record<string, Json>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: Json;
  servers: Json[];
  security: Json[];
  tags: Json[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, Json>;
    responses: Record<string, Json>;
    parameters: Record<string, Json>;
    headers: Record<string, Json>;
    securitySchemes: Record<string, Json>;
  };
}

const SCHEMAS = '#/components/schemas/';
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

function pascal(words: string): string {
  return words
    .split(/[ _]/)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');
}

/** Component names for a collection: `Patient`, `PatientCreate`, `PatientList`. */
export function collectionSchemaNames(collection: Collection) {
  const noun = pascal(COLLECTIONS[collection].noun);
  return { resource: noun, create: `${noun}Create`, list: `${noun}List` };
}

/**
 * JSON Schema 2020-12 (OpenAPI 3.1's dialect) for named zod schemas: one registry per
 * direction, so a schema used in another registered schema becomes a `$ref`.
 */
function toComponents(entries: [string, z.ZodType][], io: 'input' | 'output'): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of entries) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io, unrepresentable: 'throw', uri: (id) => `${SCHEMAS}${id}` });
  // `$id`s of the form `#/…` are not valid 2020-12 identifiers and `$schema` is implied.
  return Object.fromEntries(Object.entries(schemas).map(([id, { $id: _id, $schema: _schema, ...schema }]) => [id, schema as Json]));
}

/** One schema without a name, inline (a header's or a parameter's). */
function inline(schema: z.ZodType, io: 'input' | 'output' = 'input'): Json {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'throw' });
  return rest;
}

const STATUS_NAMES: Record<number, string> = {
  400: 'MalformedJson',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'IdempotencyConflict',
  410: 'CursorExpired',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'ValidationFailed',
  429: 'RateLimited',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  507: 'DiskFull',
};

/** Every error status the HTTP layer answers, with the codes it answers it with. */
function errorStatuses(): Map<number, string[]> {
  const byStatus = new Map<number, string[]>();
  for (const [code, { status }] of Object.entries(ERROR_CODES)) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  return byStatus;
}

export function errorResponseName(status: number): string {
  return STATUS_NAMES[status] ?? `Error${status}`;
}

/** Extra headers some error answers carry. */
const ERROR_HEADERS: Record<number, Record<string, Json>> = {
  401: { 'WWW-Authenticate': { description: 'The scheme to use: `Bearer realm="coverdesk"`.', schema: { type: 'string' } } },
  405: { Allow: { description: 'The methods the path accepts, e.g. `GET, POST`.', schema: { type: 'string' } } },
  409: { 'Retry-After': ref('headers', 'Retry-After') },
  429: { 'Retry-After': ref('headers', 'Retry-After') },
  503: { 'Retry-After': ref('headers', 'Retry-After') },
};

/** Errors every authenticated route can answer: auth, the TCP guard, limits, faults. */
const COMMON_ERRORS = [401, 403, 429, 500, 503];

function responses(success: Record<string, Json>, errors: number[]): Record<string, Json> {
  const all = [...new Set([...errors, ...COMMON_ERRORS])].sort((a, b) => a - b);
  return { ...success, ...Object.fromEntries(all.map((status) => [String(status), ref('responses', errorResponseName(status))])) };
}

function jsonContent(schemaName: string): Json {
  return { 'application/json': { schema: { $ref: `${SCHEMAS}${schemaName}` } } };
}

function success(description: string, content: Json, extraHeaders: Json = {}): Json {
  return { description, headers: { 'Request-Id': ref('headers', 'Request-Id'), 'Cache-Control': ref('headers', 'Cache-Control'), ...extraHeaders }, content };
}

const photoContent = (description: string): Json =>
  Object.fromEntries(PHOTO_CONTENT_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary', description } }]));

/** Desk-local routes the upstream contract does not have: servers without them answer 404 `route_not_found`. */
const LOCAL_API_ONLY = { 'x-coverdesk-only': 'local API' };

function buildPaths(): OpenApiDocument['paths'] {
  const paths: OpenApiDocument['paths'] = {};
  paths[OPENAPI_DOCUMENT_PATH] = {
    get: {
      operationId: 'getOpenApiDocument',
      tags: ['meta'],
      summary: 'This document',
      description: 'The OpenAPI 3.1 description of the /v1 contract this server speaks.',
      responses: responses({ '200': success('The document.', { 'application/json': { schema: { type: 'object' } } }) }, []),
    },
  };
  paths['/v1/photos'] = {
    post: {
      operationId: 'uploadPhoto',
      tags: ['photos'],
      summary: 'Store a card photo',
      description: `The photo's bytes as the body, at most ${MAX_PHOTO_BYTES / 1024 / 1024} MiB. The same bytes are always the same object: uploading them again answers the same \`object_key\`.`,
      parameters: [ref('parameters', 'Idempotency-Key')],
      requestBody: { required: true, content: photoContent('The image file.') },
      responses: responses(
        { '201': success('Stored. Use `object_key` in an insurance card.', jsonContent('PhotoObject'), { 'Idempotent-Replayed': ref('headers', 'Idempotent-Replayed') }) },
        [409, 413, 415, 422, 507],
      ),
    },
  };
  paths['/v1/photos/{object_key}'] = {
    get: {
      operationId: 'readPhoto',
      tags: ['photos'],
      summary: "A stored photo's bytes",
      parameters: [{ name: 'object_key', in: 'path', required: true, description: 'As answered by `POST /v1/photos`.', schema: inline(ObjectKey) }],
      responses: responses({ '200': success('The photo, with its content type.', photoContent('The image file.')) }, [404]),
    },
  };
  const changesParams = inline(ChangesParams) as { properties: Record<string, Json> };
  paths[CHANGES_PATH] = {
    get: {
      operationId: 'listChanges',
      tags: ['changes'],
      summary: 'The changes feed',
      description:
        'Every record any caller created or changed, in the order the service committed it: keep a copy of the whole practice with one cursor. Pass `next_cursor` back as `after`. A server without a feed (the local API) answers 404.',
      parameters: [
        { name: 'after', in: 'query', required: false, description: 'Continue after this position (`next_cursor` of the previous page); leave out to start from the beginning.', schema: changesParams.properties.after },
        { name: 'limit', in: 'query', required: false, description: 'Changes per page.', schema: changesParams.properties.limit },
      ],
      responses: responses({ '200': success('A page of changes.', jsonContent('ChangesPage')) }, [404, 410, 422]),
    },
  };
  paths['/v1/appointments'] = {
    get: {
      operationId: 'listAppointments',
      tags: ['appointments'],
      summary: "A day's appointments",
      description: 'In time order, with the patient each was matched to.',
      ...LOCAL_API_ONLY,
      parameters: [{ name: 'date', in: 'query', required: true, description: "The practice's local date.", schema: inline(LocalDate) }],
      responses: responses({ '200': success("The day's appointments.", jsonContent('AppointmentDay')) }, [404, 422]),
    },
    post: {
      operationId: 'createAppointment',
      tags: ['appointments'],
      summary: 'Send one appointment',
      description: `A JSON body of at most ${MAX_JSON_BYTES / 1024 / 1024} MiB. Safe to send again without an Idempotency-Key: \`external_id\` (else date, time and patient) is its key, so a second send updates (a reschedule) or changes nothing.`,
      ...LOCAL_API_ONLY,
      requestBody: { required: true, content: jsonContent('AppointmentCreate') },
      responses: responses(
        {
          '200': success('It was there already: `result` says `updated` or `unchanged`.', jsonContent('AppointmentWritten')),
          '201': success('Created (`result: created`).', jsonContent('AppointmentWritten')),
        },
        [400, 404, 413, 415, 422, 507],
      ),
    },
  };
  paths['/v1/appointments/import'] = {
    post: {
      operationId: 'importSchedule',
      tags: ['appointments'],
      summary: 'Import a schedule export',
      description: "The practice-management system's schedule export as CSV or TSV (UTF-8 or Windows-1252), at most 10 MiB; columns are matched by their headers.",
      ...LOCAL_API_ONLY,
      requestBody: { required: true, content: Object.fromEntries(['text/csv', 'text/tab-separated-values', 'text/plain'].map((type) => [type, { schema: { type: 'string' } }])) },
      responses: responses({ '200': success('What each row became, and the counts.', jsonContent('ImportResult')) }, [404, 413, 415, 422, 507]),
    },
  };
  paths['/v1/fee_schedule/import'] = {
    post: {
      operationId: 'importFeeSchedule',
      tags: ['estimates'],
      summary: "Replace the practice's fee schedule",
      description:
        'The expected allowed amounts as CSV or TSV with a header row: a visit type or procedure code column ("Visit type", "Procedure code", "CPT"), a payer column ("Payer": a name or payer id from the payer directory; empty or `default` for every other payer) and an amount column ("Allowed", in dollars). The whole file replaces the fee schedule; any bad row refuses the file (422, every bad row named as `rows[N].field`) and nothing is written, so sending it again is safe.',
      ...LOCAL_API_ONLY,
      requestBody: { required: true, content: Object.fromEntries(['text/csv', 'text/tab-separated-values', 'text/plain'].map((type) => [type, { schema: { type: 'string' } }])) },
      responses: responses({ '200': success('The fee schedule now in force.', jsonContent('FeeScheduleImported')) }, [404, 413, 415, 422, 507]),
    },
  };
  paths['/v1/barcode_readings'] = {
    post: {
      operationId: 'readBarcode',
      tags: ['barcodes'],
      summary: 'Read a barcode scanner software decoded',
      description:
        'The text a barcode held, as scanner software decoded it (a driver\'s licence\'s AAMVA PDF417, a health card\'s PDF417, a SMART Health Card `shc:/` or Link `shlink:/`): read as a photo\'s barcode is, and nothing stored. A licence answers its details (never its number); a card its fields; a payload of no known layout `kind: unknown` with the text as it was; a damaged one `status: invalid` with the reason.',
      ...LOCAL_API_ONLY,
      requestBody: { required: true, content: jsonContent('BarcodeReadingCreate') },
      responses: responses({ '200': success('What the barcode is and what it carries.', jsonContent('BarcodeReading')) }, [400, 404, 413, 415, 422, 507]),
    },
  };
  const estimateParams = inline(EstimateQuery) as { properties: Record<string, Json> };
  paths['/v1/estimates'] = {
    get: {
      operationId: 'getEstimate',
      tags: ['estimates'],
      summary: 'What the patient owes today for a visit',
      description:
        "From a successful check's benefits and the fee schedule's allowed amount for the visit type at the check's payer (else the default row; without one, the copay alone). Amounts are integer cents; `min_cents` and `max_cents` differ where the payer's figures leave it open, and `steps` say how the figure was reached. A check with no answer yet, or a failed one, is refused (422, `check_not_successful`).",
      ...LOCAL_API_ONLY,
      parameters: [
        { name: 'check_id', in: 'query', required: true, description: 'A check of `GET /v1/electronic_eligibility_checks`.', schema: estimateParams.properties.check_id },
        { name: 'visit_type', in: 'query', required: false, description: 'The visit type or procedure code the fee schedule is looked up by.', schema: estimateParams.properties.visit_type },
        { name: 'network', in: 'query', required: false, description: "The network to read the benefits for; without it, the one the check's figures speak of (in network first).", schema: estimateParams.properties.network },
      ],
      responses: responses({ '200': success('The estimate.', jsonContent('Estimate')) }, [404, 422]),
    },
  };
  paths['/v1/good_faith_estimates/{id}'] = {
    get: {
      operationId: 'getGoodFaithEstimate',
      tags: ['estimates'],
      summary: 'A Good Faith Estimate for a self-pay visit',
      description:
        'The GFE a desk issued for an uninsured or self-pay visit (No Surprises Act, 45 CFR 149.610), with its deadline (`rule`, `due_on`: 1 business day after scheduling for a visit booked 3 to 9 business days ahead, 3 for 10 or more or on request) and, once issued, the `document` exactly as printed: the patient, the primary service, each item with its CPT/HCPCS code and expected charge in integer cents, the provider and facility with NPI and TIN, diagnosis codes, items scheduled separately, and the disclaimers. Reading it is recorded in the audit log.',
      ...LOCAL_API_ONLY,
      parameters: [{ name: 'id', in: 'path', required: true, description: 'A GFE id (`gfe_…`), as the worklist gives it.', schema: inline(Id) }],
      responses: responses({ '200': success('The GFE.', jsonContent('GoodFaithEstimate')) }, [404]),
    },
  };
  paths['/v1/collections'] = {
    get: {
      operationId: 'listCollections',
      tags: ['collections'],
      summary: 'What the desk collected on a day',
      description:
        'Every entry recorded on the desk\'s local day `date`, oldest first: payments, visits marked declined or waived, and voids (each with `voids_id`, the entry it undoes; the entry undone names it in `voided_by_id`). Amounts are integer cents; a void carries the amount it takes back.',
      ...LOCAL_API_ONLY,
      parameters: [{ name: 'date', in: 'query', required: true, description: "The desk's local date the entries were recorded on.", schema: inline(LocalDate) }],
      responses: responses({ '200': success("The day's entries.", jsonContent('CollectionDay')) }, [404, 422]),
    },
    post: {
      operationId: 'createCollection',
      tags: ['collections'],
      summary: 'Record a payment, or a visit where nothing was collected',
      description: `A JSON body of at most ${MAX_JSON_BYTES / 1024 / 1024} MiB. \`amount_cents\` is a whole number of cents above zero (a declined or waived visit: 0 or left out); \`method\` cash, check (with \`check_number\`) or card (with the terminal's \`card_reference\`: anything that looks like a card number, 13–19 digits passing Luhn, is refused in every field). With \`check_id\` the estimate it gives for the visit is kept with the entry, and an amount above its most is refused (422, \`over_estimate\`) unless \`confirm_over_estimate\` is true. Every problem is named (\`errors[].path\`) and nothing is written. With an \`Idempotency-Key\`, a retry answers the first entry and records nothing more.`,
      ...LOCAL_API_ONLY,
      parameters: [ref('parameters', 'Idempotency-Key')],
      requestBody: { required: true, content: jsonContent('CollectionCreate') },
      responses: responses(
        { '201': success('Recorded.', jsonContent('Collection'), { 'Idempotent-Replayed': ref('headers', 'Idempotent-Replayed') }) },
        [400, 404, 409, 413, 415, 422, 507],
      ),
    },
  };
  paths['/v1/collections/{id}/void'] = {
    post: {
      operationId: 'voidCollection',
      tags: ['collections'],
      summary: 'Void an entry',
      description:
        'Records a new `void` entry that undoes entry `id` (its amount and method, taken back); nothing is edited or deleted. A void cannot be voided (422, `void_of_void`: record the payment again instead), and an entry is voided once (422, `already_voided`). Honours `Idempotency-Key`.',
      ...LOCAL_API_ONLY,
      parameters: [ref('parameters', 'id'), ref('parameters', 'Idempotency-Key')],
      requestBody: { required: true, content: jsonContent('CollectionVoid') },
      responses: responses(
        { '201': success('The void entry.', jsonContent('Collection'), { 'Idempotent-Replayed': ref('headers', 'Idempotent-Replayed') }) },
        [400, 404, 409, 413, 415, 422, 507],
      ),
    },
  };
  for (const collection of COLLECTION_NAMES) {
    const { noun, create } = COLLECTIONS[collection];
    const names = collectionSchemaNames(collection);
    const item: Record<string, OpenApiOperation> = {
      get: {
        operationId: `list${pascal(collection)}`,
        tags: [collection],
        summary: `List ${collection.replaceAll('_', ' ')}`,
        description: 'Newest first. Pass `next_cursor` back as `cursor` for the next page; pages never repeat a record.',
        parameters: [ref('parameters', 'limit'), ref('parameters', 'cursor')],
        responses: responses({ '200': success(`A page of ${collection.replaceAll('_', ' ')}.`, jsonContent(names.list)) }, [422]),
      },
    };
    if (create !== null) {
      item.post = {
        operationId: `create${names.resource}`,
        tags: [collection],
        summary: `Create ${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`,
        description: `A JSON body of at most ${MAX_JSON_BYTES / 1024 / 1024} MiB. With an \`Idempotency-Key\`, the same key and body again answer the first result (with \`Idempotent-Replayed: true\`) and create nothing.`,
        parameters: [ref('parameters', 'Idempotency-Key')],
        requestBody: { required: true, content: jsonContent(names.create) },
        responses: responses(
          { '201': success(`The new ${noun}.`, jsonContent(names.resource), { 'Idempotent-Replayed': ref('headers', 'Idempotent-Replayed') }) },
          [400, 409, 413, 415, 422, 507],
        ),
      };
    }
    paths[`/v1/${collection}`] = item;
    paths[`/v1/${collection}/{id}`] = {
      get: {
        operationId: `get${names.resource}`,
        tags: [collection],
        summary: `Get one ${noun}`,
        parameters: [ref('parameters', 'id')],
        responses: responses({ '200': success(`The ${noun}.`, jsonContent(names.resource)) }, [404]),
      },
    };
  }
  return paths;
}

function buildComponents(): OpenApiDocument['components'] {
  const inputs: [string, z.ZodType][] = [
    ['AppointmentCreate', AppointmentCreate],
    ['CollectionCreate', CollectionCreate],
    ['CollectionVoid', CollectionVoid],
    ['BarcodeReadingCreate', BarcodeReadingCreate],
  ];
  const outputs: [string, z.ZodType][] = [
    ['Error', ErrorEnvelope],
    ['ErrorBody', ErrorBody],
    ['FieldError', FieldError],
    ['SyncInfo', SyncInfo],
    ['PhotoObject', PhotoObject],
    ['Change', Change],
    ['ChangesPage', ChangesPage],
    ['Appointment', Appointment],
    ['AppointmentDay', z.object({ data: z.array(Appointment) })],
    ['AppointmentWritten', AppointmentWritten],
    ['ImportResult', ImportResult],
    ['FeeScheduleImported', FeeScheduleImported],
    ['Estimate', Estimate],
    ['GoodFaithEstimate', GoodFaithEstimate],
    ['Collection', CollectionEntry],
    ['CollectionDay', CollectionDay],
    ['BarcodeReading', BarcodeReading],
  ];
  for (const collection of COLLECTION_NAMES) {
    const { resource, create } = COLLECTIONS[collection];
    const names = collectionSchemaNames(collection);
    outputs.push([names.resource, resource], [names.list, ListPage(resource)]);
    if (create !== null) inputs.push([names.create, create]);
  }
  const schemas = { ...toComponents(outputs, 'output'), ...toComponents(inputs, 'input') };
  // Which record each reference field names, as the contract declares it: for readers, and
  // for tools that build requests from the document (`x-coverdesk-reference`).
  for (const collection of CREATABLE_COLLECTIONS) {
    const properties = schemas[collectionSchemaNames(collection).create].properties as Record<string, Json>;
    for (const [field, { target, many }] of createReferences(collection)) {
      const source =
        target === 'photos' ? 'An `object_key` answered by `POST /v1/photos`' : `${many ? 'Ids of records' : 'The id of a record'} of \`GET /v1/${target}\``;
      const description = `${source}; one that does not exist is refused (422, \`not_found\`).`;
      properties[field] = { ...properties[field], description, 'x-coverdesk-reference': target };
    }
  }

  const responses: Record<string, Json> = {};
  for (const [status, codes] of errorStatuses()) {
    responses[errorResponseName(status)] = {
      description: `Error envelope with \`error.code\` one of: ${codes.map((code) => `\`${code}\``).join(', ')}.`,
      headers: { 'Request-Id': ref('headers', 'Request-Id'), ...ERROR_HEADERS[status] },
      content: {
        'application/json': {
          schema: {
            allOf: [{ $ref: `${SCHEMAS}Error` }, { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: codes } } } } }],
          },
        },
      },
    };
  }

  const listParams = inline(ListParams) as { properties: Record<string, Json> };
  return {
    schemas,
    responses,
    parameters: {
      id: { name: 'id', in: 'path', required: true, description: 'The record id.', schema: inline(Id) },
      limit: { name: 'limit', in: 'query', required: false, description: 'Records per page.', schema: listParams.properties.limit },
      cursor: { name: 'cursor', in: 'query', required: false, description: '`next_cursor` of the previous page.', schema: listParams.properties.cursor },
      'Idempotency-Key': {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: 'Makes a create safe to retry: per caller and route, the first success is kept and answered again for the same body; another body is a 409.',
        schema: inline(IdempotencyKey),
      },
    },
    headers: {
      'Request-Id': { description: 'This request, as `error.request_id` repeats it. Quote it when reporting a problem.', required: true, schema: inline(RequestId) },
      'Idempotent-Replayed': { description: 'Present when the answer is the stored first answer for this Idempotency-Key.', schema: inline(IdempotentReplayed) },
      'Retry-After': { description: 'Seconds to wait before retrying.', schema: inline(RetryAfter) },
      'Cache-Control': { description: 'Always `no-store`: answers may carry patient data.', schema: { type: 'string', const: 'no-store' } },
    },
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description: "The local API's token (256 random bits in `<data-dir>/local-api.token`), or the sandbox's API key.",
      },
    },
  };
}

let built: OpenApiDocument | undefined;

/** The document; built once, it never changes while the process runs. */
export function openApiDocument(): OpenApiDocument {
  built ??= {
    openapi: '3.1.0',
    info: {
      title: 'Coverdesk /v1 API',
      version: '1.0.0',
      description:
        'The /v1 contract spoken by the Coverdesk local API (for scanner and practice-management integrations) and by the sandbox. Every answer carries `Request-Id`; every error is the one envelope `{"error": {type, code, message, errors?, request_id}}`. A known path with a method it does not accept answers 405 (MethodNotAllowed, with `Allow`); an unknown path 404 (`route_not_found`).',
    },
    servers: [
      { url: 'http://localhost', description: 'The local API over its Unix socket or Windows named pipe (see docs/local-api.md).' },
      { url: 'http://127.0.0.1:{port}', description: 'The local API over TCP, or the sandbox.', variables: { port: { default: '7780' } } },
    ],
    security: [{ bearer: [] }],
    tags: [
      { name: 'photos', description: 'Card photos, stored by content.' },
      ...COLLECTION_NAMES.map((name) => ({ name, description: `${pascal(COLLECTIONS[name].noun)} records${COLLECTIONS[name].create === null ? ' (read-only reference data)' : ''}.` })),
      { name: 'changes', description: 'The changes feed (the sandbox and upstreams; not the local API).' },
      { name: 'appointments', description: "The practice's schedule, from its practice-management system (the local API only)." },
      { name: 'estimates', description: "The practice's fee schedule and what a patient owes for a visit (the local API only)." },
      { name: 'collections', description: 'What the desk collected at the window: payments, visits marked declined or waived, and voids (the local API only).' },
      { name: 'barcodes', description: 'Barcodes scanner software decoded: licences, health cards, digital cards (the local API only).' },
      { name: 'meta', description: 'About the API itself.' },
    ],
    paths: buildPaths(),
    components: buildComponents(),
  };
  return built;
}
