import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPI } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { CHANGES_PATH, COLLECTION_NAMES, COLLECTIONS, CREATABLE_COLLECTIONS, createReferences, ERROR_CODES } from '@src/shared/contract';
import { collectionSchemaNames, errorResponseName, openApiDocument, type OpenApiDocument } from '@src/shared/contract/openapi-document';
import type { HttpAnswer } from '@test/support/http-request';
import { createAnswerValidator } from '@test/support/openapi-validator';

const copy = (): OpenApiDocument => structuredClone(openApiDocument());
const validate = (doc: OpenApiDocument) => SwaggerParser.validate(doc as unknown as OpenAPI.Document);

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 for @apidevtools/swagger-parser, $refs and all', async () => {
    const api = await validate(copy());
    expect((api as { openapi?: string }).openapi).toBe('3.1.0');
  });

  it('is refused by the same validator when broken, so the check above can fail', async () => {
    const dangling = copy();
    dangling.paths['/v1/patients'].post.requestBody = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Nothing' } } } };
    await expect(validate(dangling)).rejects.toThrow(/Nothing/);
    const badParameter = copy();
    badParameter.paths['/v1/patients'].get.parameters = [{ name: 'limit', in: 'body', schema: { type: 'integer' } }];
    await expect(validate(badParameter)).rejects.toThrow();
  });

  it('has every collection once: list and get for all, create only where the contract has one', () => {
    const doc = openApiDocument();
    for (const collection of COLLECTION_NAMES) {
      const names = collectionSchemaNames(collection);
      expect(doc.paths[`/v1/${collection}`].get.responses['200']).toMatchObject({ content: { 'application/json': { schema: { $ref: `#/components/schemas/${names.list}` } } } });
      expect(doc.paths[`/v1/${collection}/{id}`].get.responses['200']).toMatchObject({ content: { 'application/json': { schema: { $ref: `#/components/schemas/${names.resource}` } } } });
      if (COLLECTIONS[collection].create === null) {
        expect(doc.paths[`/v1/${collection}`].post).toBeUndefined();
      } else {
        const post = doc.paths[`/v1/${collection}`].post;
        expect(post.requestBody).toMatchObject({ required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${names.create}` } } } });
        expect(post.responses['201']).toMatchObject({ headers: { 'Idempotent-Replayed': {}, 'Request-Id': {} } });
        expect(post.parameters).toContainEqual({ $ref: '#/components/parameters/Idempotency-Key' });
      }
    }
    expect(Object.keys(doc.paths).sort()).toEqual(
      ['/v1/openapi.json', CHANGES_PATH, '/v1/appointments', '/v1/appointments/import', '/v1/fee_schedule/import', '/v1/estimates', '/v1/good_faith_estimates/{id}', '/v1/collections', '/v1/collections/{id}/void', '/v1/barcode_readings', '/v1/photos', '/v1/photos/{object_key}', ...COLLECTION_NAMES.flatMap((c) => [`/v1/${c}`, `/v1/${c}/{id}`])].sort(),
    );
    const operationIds = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  it('takes request bodies from the create schemas as zod reads them: required fields, no unknown fields', () => {
    const { schemas } = openApiDocument().components;
    expect(schemas.PatientCreate).toMatchObject({ required: ['first_name', 'last_name', 'date_of_birth'], additionalProperties: false });
    const check = schemas.ElectronicEligibilityCheckCreate as { properties: Record<string, { enum?: string[] }> };
    expect(check.properties.service_type.enum).toContain('health_benefit_plan_coverage');
    expect(check.properties.source).toBeUndefined(); // the channel sets it, never the caller
    expect(schemas.Patient).toMatchObject({ properties: { sync: { $ref: '#/components/schemas/SyncInfo' } } });
  });

  it('marks every reference field with the collection it names, as CREATE_REFERENCES declares', () => {
    const { schemas } = openApiDocument().components;
    for (const collection of CREATABLE_COLLECTIONS) {
      const properties = (schemas[collectionSchemaNames(collection).create] as { properties: Record<string, Record<string, unknown>> }).properties;
      const marked = Object.entries(properties).filter(([, p]) => p['x-coverdesk-reference']);
      expect(Object.fromEntries(marked.map(([field, p]) => [field, p['x-coverdesk-reference']]))).toEqual(
        Object.fromEntries(createReferences(collection).map(([field, { target }]) => [field, target])),
      );
    }
    expect((schemas.InsuranceCardCreate as { properties: Record<string, { description: string }> }).properties.patient_id.description).toMatch(/GET \/v1\/patients/);
  });

  it('describes one error envelope for every error status, with its codes, headers and Request-Id', () => {
    const { responses } = openApiDocument().components;
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      const response = responses[errorResponseName(status)] as { description: string; headers: Record<string, unknown>; content: Record<string, { schema: { allOf: unknown[] } }> };
      expect(response.description).toContain(`\`${code}\``);
      expect(response.headers['Request-Id']).toEqual({ $ref: '#/components/headers/Request-Id' });
      expect(response.content['application/json'].schema.allOf[0]).toEqual({ $ref: '#/components/schemas/Error' });
    }
    for (const status of [429, 503]) expect(responses[errorResponseName(status)]).toMatchObject({ headers: { 'Retry-After': {} } });
    expect(responses.Unauthorized).toMatchObject({ headers: { 'WWW-Authenticate': {} } });
    expect(responses.MethodNotAllowed).toMatchObject({ headers: { Allow: {} } });
  });

  it('declares bearer security for every operation and the contract headers', () => {
    const doc = openApiDocument();
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(doc.components.headers)).toEqual(expect.arrayContaining(['Request-Id', 'Idempotent-Replayed', 'Retry-After']));
    expect(doc.components.parameters['Idempotency-Key']).toMatchObject({ in: 'header', schema: { pattern: expect.any(String) } });
  });
});

describe('the answer validator the suites use', () => {
  const check = createAnswerValidator();
  const answer = (status: number, json: unknown, headers: Record<string, string> = {}): HttpAnswer => ({
    status,
    headers: { 'content-type': 'application/json', 'request-id': 'req_01JD0000000000000000000000', 'cache-control': 'no-store', ...headers },
    text: JSON.stringify(json),
    json,
  });
  const patient = { id: 'pat_01JD0000000000000000000000', first_name: 'A', last_name: 'B', date_of_birth: '1990-01-01', created_at: '2026-01-01T00:00:00.000Z' };
  const error = (code: string) => ({ error: { type: 'invalid_request_error', code, message: 'No.', request_id: 'req_01JD0000000000000000000000' } });

  it('passes answers that match', () => {
    expect(check('GET', '/v1/patients/pat_1', answer(200, patient)).problems).toEqual([]);
    expect(check('GET', '/v1/patients?limit=1', answer(200, { data: [patient], has_more: false, next_cursor: null })).problems).toEqual([]);
    expect(check('GET', '/v1/patients/x', answer(404, error('resource_not_found'))).problems).toEqual([]);
    expect(check('DELETE', '/v1/patients', answer(405, error('method_not_allowed'), { allow: 'GET, POST' })).problems).toEqual([]);
    expect(check('GET', '/v1/nothing/at/all', answer(404, error('route_not_found'))).problems).toEqual([]);
  });

  it('catches each way an answer can break the document', () => {
    const problems = (method: string, path: string, a: HttpAnswer) => check(method, path, a).problems.join('\n');
    expect(problems('GET', '/v1/patients/x', answer(200, { ...patient, first_name: 7 }))).toMatch(/first_name/);
    expect(problems('GET', '/v1/patients/x', answer(200, { ...patient, extra: 1 }))).toMatch(/additional/);
    expect(problems('GET', '/v1/patients/x', answer(200, { ...patient, id: undefined }))).toMatch(/id/);
    expect(problems('GET', '/v1/patients/x', answer(418, patient))).toMatch(/not documented/);
    expect(problems('GET', '/v1/patients/x', answer(404, error('made_up')))).toMatch(/code/);
    const noRequestId = answer(200, patient);
    delete noRequestId.headers['request-id'];
    expect(problems('GET', '/v1/patients/x', noRequestId)).toMatch(/Request-Id is required/);
    expect(problems('GET', '/v1/patients/x', answer(200, patient, { 'content-type': 'text/html' }))).toMatch(/content type/);
    expect(problems('POST', '/v1/patients', answer(201, patient, { 'idempotent-replayed': 'yes' }))).toMatch(/Idempotent-Replayed/);
    expect(problems('POST', '/v1/patients', answer(429, { error: { ...error('rate_limited').error, type: 'rate_limit_error' } }, { 'retry-after': 'soon' }))).toMatch(/Retry-After/);
    expect(problems('DELETE', '/v1/patients', answer(405, error('method_not_allowed')))).toMatch(/Allow/);
    expect(problems('DELETE', '/v1/patients', answer(404, error('route_not_found')))).toMatch(/expected 405/);
  });
});
