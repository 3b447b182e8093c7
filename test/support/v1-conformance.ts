import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChangesPage,
  Check,
  CREATABLE_COLLECTIONS,
  Discovery,
  ErrorEnvelope,
  Extraction,
  InsuranceCard,
  ListPage,
  MAX_JSON_BYTES,
  MAX_PHOTO_BYTES,
  Patient,
  type CreatableCollection,
  type Source,
} from '@src/shared/contract';
import { v1Caller as plainCaller, type HttpAnswer, type HttpTarget } from './http-request';
import { expectAnswerMatchesDocument } from './openapi-validator';
import { OPENAPI_DOCUMENT_PATH, openApiDocument } from '../../src/shared/contract/openapi-document';
import { makePng } from './images';

/** The suite's request helper: every answer it receives must match the OpenAPI document. */
function v1Caller(target: HttpTarget, apiKey: string): ReturnType<typeof plainCaller> {
  const call = plainCaller(target, apiKey);
  return async (method, path, body, headers) => {
    const answer = await call(method, path, body, headers);
    expectAnswerMatchesDocument(method, path, answer);
    return answer;
  };
}

/** What a /v1 server under test offers the suite. */
export interface ConformanceTarget {
  target: HttpTarget;
  apiKey: string;
  /** A provider and a clearinghouse entity the service knows. */
  providerId: string;
  clearinghouseEntityId: string;
  /** The `source` records created here carry (the channel's, never the caller's). */
  source: Source;
  /** Whether it serves the practice's changes feed (the sandbox) or answers 404 for it (a desk's local API). */
  changesFeed: boolean;
  /** The service's stored state: equal before and after means nothing was written. */
  snapshot(): unknown;
  close(): Promise<void>;
}

/**
 * One suite for every implementation of the /v1 HTTP contract (docs/decisions.md, contract decisions): the sandbox
 * over loopback TCP and the local API over its Unix socket run it unchanged.
 */
export function describeV1Conformance(name: string, setup: () => Promise<ConformanceTarget>): void {
  describe(`/v1 conformance: ${name}`, () => {
    let t: ConformanceTarget;
    let call: ReturnType<typeof v1Caller>;
    let seq = 0;
    beforeAll(async () => {
      t = await setup();
      call = v1Caller(t.target, t.apiKey);
    });
    afterAll(async () => {
      await t?.close();
    });

    function expectError(answer: HttpAnswer, status: number, code: string) {
      expect(answer.status, answer.text).toBe(status);
      const envelope = ErrorEnvelope.parse(answer.json);
      expect(envelope.error.code).toBe(code);
      expect(envelope.error.message.length).toBeGreaterThan(10);
      expect(envelope.error.request_id).toBe(answer.headers['request-id']);
      expect(answer.text).not.toMatch(/\n\s+at /); // never a stack trace
      return envelope.error;
    }

    /** Runs a request that must be refused and proves it wrote nothing. */
    async function refused(run: () => Promise<HttpAnswer>, status: number, code: string) {
      const before = t.snapshot();
      const error = expectError(await run(), status, code);
      expect(t.snapshot()).toEqual(before);
      return error;
    }

    async function created<T>(path: string, body: unknown, schema: { parse(v: unknown): T }, headers?: Record<string, string>): Promise<T> {
      const answer = await call('POST', path, body, headers);
      expect(answer.status, answer.text).toBe(201);
      return schema.parse(answer.json);
    }

    async function patient() {
      seq += 1;
      return created('/v1/patients', { first_name: 'Ada', last_name: `Conformance${seq}`, date_of_birth: '1985-12-10' }, Patient);
    }

    async function photo(seed = seq) {
      const answer = await call('POST', '/v1/photos', makePng(8, 8, [seed % 256, 40, 90]), { 'content-type': 'image/png' });
      expect(answer.status, answer.text).toBe(201);
      return answer.json.object_key as string;
    }

    async function card(extra: Record<string, unknown> = {}) {
      const p = await patient();
      const front = await photo(seq + 1000);
      const c = await created('/v1/insurance_cards', { patient_id: p.id, member_id: 'XGH123456789', front_photo_object_key: front, ...extra }, InsuranceCard);
      return { patient: p, card: c, front };
    }

    /** A valid body for each create endpoint, made fresh. */
    async function validBody(collection: CreatableCollection): Promise<Record<string, unknown>> {
      switch (collection) {
        case 'patients':
          return { first_name: 'Grace', last_name: 'Hopper', date_of_birth: '1906-12-09' };
        case 'insurance_cards':
          return { patient_id: (await patient()).id };
        case 'extractions':
          return { insurance_card_id: (await card()).card.id };
        case 'electronic_eligibility_discoveries':
          return { insurance_card_id: (await card()).card.id, source: 'api' };
        case 'electronic_eligibility_checks':
          return {
            insurance_card_id: (await card()).card.id,
            provider_id: t.providerId,
            clearinghouse_entity_id: t.clearinghouseEntityId,
            service_type: 'health_benefit_plan_coverage',
          };
      }
    }

    describe('authentication', () => {
      it('refuses a request without a key, or with a wrong one, with 401 and writes nothing', async () => {
        const body = await validBody('patients');
        const anonymous = v1Caller(t.target, '');
        const none = await refused(() => anonymous('POST', '/v1/patients', body, { authorization: undefined }), 401, 'unauthorized');
        expect(none.type).toBe('authentication_error');
        await refused(() => v1Caller(t.target, `${t.apiKey}x`)('POST', '/v1/patients', body), 401, 'unauthorized');
        await refused(() => call('POST', '/v1/patients', body, { authorization: `Basic ${t.apiKey}` }), 401, 'unauthorized');
        const read = await v1Caller(t.target, 'wrong')('GET', '/v1/patients');
        expectError(read, 401, 'unauthorized');
        expect(read.headers['www-authenticate']).toMatch(/^Bearer/);
      });
    });

    describe('the four operations and their records', () => {
      it('creates, reads and lists patients', async () => {
        const p = await patient();
        expect(p.id).toBeTruthy();
        const read = await call('GET', `/v1/patients/${p.id}`);
        expect(read.status).toBe(200);
        expect(Patient.parse(read.json)).toMatchObject({ id: p.id, first_name: 'Ada', date_of_birth: '1985-12-10' });
      });

      it('stores a photo and serves its bytes; the same bytes are one object', async () => {
        const bytes = makePng(6, 6, [10, 20, 30]);
        const first = await call('POST', '/v1/photos', bytes, { 'content-type': 'image/png' });
        expect(first.status).toBe(201);
        expect(first.json.object_key).toMatch(/^[0-9a-f]{64}\.png$/);
        const again = await call('POST', '/v1/photos', bytes, { 'content-type': 'image/png' });
        expect(again.json.object_key).toBe(first.json.object_key);
        const read = await call('GET', `/v1/photos/${first.json.object_key}`);
        expect(read.status).toBe(200);
        expect(read.headers['content-type']).toBe('image/png');
      });

      it('creates an insurance card: download URLs in place of object keys, carrier ids default to []', async () => {
        const { card: c, patient: p } = await card({ group_number: 'G-100', network_status: 'in_network' });
        expect(c).toMatchObject({ member_id: 'XGH123456789', group_number: 'G-100', network_status: 'in_network', insurance_carrier_ids: [] });
        expect(c.source).toBe(t.source);
        expect(c.front_photo_download_url).toBeTruthy();
        expect(c).not.toHaveProperty('front_photo_object_key');
        const read = await call('GET', `/v1/insurance_cards/${c.id}`);
        expect(InsuranceCard.parse(read.json).id).toBe(c.id);
        if (read.json.patient_id !== undefined) expect(read.json.patient_id).toBe(p.id);
      });

      it('creates an extraction, pending', async () => {
        const { card: c } = await card();
        const e = await created('/v1/extractions', { insurance_card_id: c.id }, Extraction);
        expect(e).toMatchObject({ insurance_card_id: c.id, status: 'pending' });
        expect(e.finished_at).toBeUndefined();
      });

      it('creates a discovery, pending, with the patient and member id copied in and source as sent', async () => {
        const { card: c, patient: p } = await card();
        const d = await created('/v1/electronic_eligibility_discoveries', { insurance_card_id: c.id, source: 'api' }, Discovery);
        expect(d).toMatchObject({
          insurance_card_id: c.id,
          status: 'pending',
          source: 'api',
          patient_first_name: p.first_name,
          patient_last_name: p.last_name,
          patient_date_of_birth: p.date_of_birth,
          insurance_card_member_id: 'XGH123456789',
        });
        expect(d.finished_at).toBeUndefined();
      });

      it('creates a check, pending, with provider_npi from the provider and source set by the channel', async () => {
        const body = await validBody('electronic_eligibility_checks');
        const c = await created('/v1/electronic_eligibility_checks', { ...body, service_type: 'chiropractic' }, Check);
        expect(c).toMatchObject({ status: 'pending', source: t.source, provider_id: t.providerId, service_type: 'chiropractic' });
        expect(c.provider_npi).toMatch(/^\d{10}$/);
        expect(c.patient_first_name).toBe('Ada');
        expect(c.insurance_card_member_id).toBe('XGH123456789');
      });

      it('lists newest first, pages with a cursor, and never repeats a record', async () => {
        const a = await patient();
        const b = await patient();
        const first = await call('GET', '/v1/patients?limit=1');
        expect(first.status).toBe(200);
        const page1 = ListPage(Patient).parse(first.json);
        expect(page1.data.map((p) => p.id)).toEqual([b.id]);
        expect(page1.has_more).toBe(true);
        const page2 = ListPage(Patient).parse((await call('GET', `/v1/patients?limit=1&cursor=${page1.next_cursor}`)).json);
        expect(page2.data.map((p) => p.id)).toEqual([a.id]);
        const providers = ListPage(Patient.pick({ id: true })).parse((await call('GET', '/v1/providers')).json);
        expect(providers.data.map((p) => p.id)).toContain(t.providerId);
        expect((await call('GET', `/v1/clearinghouse_entities/${t.clearinghouseEntityId}`)).status).toBe(200);
      });
    });

    describe('bad input', () => {
      it.each(CREATABLE_COLLECTIONS)('%s: malformed JSON 400, wrong content type 415, oversized 413, non-object 422', async (collection) => {
        const path = `/v1/${collection}`;
        await refused(() => call('POST', path, '{"first_name": "Ada",'), 400, 'malformed_json');
        const valid = JSON.stringify(await validBody(collection));
        await refused(() => call('POST', path, valid, { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
        await refused(() => call('POST', path, valid, { 'content-type': undefined }), 415, 'unsupported_media_type');
        await refused(() => call('POST', path, JSON.stringify({ pad: 'x'.repeat(MAX_JSON_BYTES) })), 413, 'payload_too_large');
        for (const body of ['[]', '"text"', '42', 'null']) {
          const error = await refused(() => call('POST', path, body), 422, 'validation_failed');
          expect(error.errors?.[0].code).toBe('invalid_type');
        }
      });

      it.each(CREATABLE_COLLECTIONS)('%s: every missing required field is named, nothing written', async (collection) => {
        const error = await refused(() => call('POST', `/v1/${collection}`, {}), 422, 'validation_failed');
        const required = Object.keys(await validBody(collection)).filter((k) => !(collection === 'insurance_cards' && k !== 'patient_id'));
        expect(error.errors?.filter((e) => e.code === 'required').map((e) => e.path).sort()).toEqual(required.sort());
      });

      it.each(CREATABLE_COLLECTIONS)('%s: wrong-typed fields are invalid_type, unknown fields are refused', async (collection) => {
        const body = await validBody(collection);
        const [field] = Object.keys(body);
        const wrong = await refused(() => call('POST', `/v1/${collection}`, { ...body, [field]: 12345 }), 422, 'validation_failed');
        expect(wrong.errors).toEqual([expect.objectContaining({ path: field, code: 'invalid_type' })]);
        const unknown = await refused(() => call('POST', `/v1/${collection}`, { ...body, surprise: 'x' }), 422, 'validation_failed');
        expect(unknown.errors).toEqual([expect.objectContaining({ path: 'surprise', code: 'unknown_field' })]);
      });

      it('refuses values outside an enum and names what is allowed', async () => {
        const check = await validBody('electronic_eligibility_checks');
        const st = await refused(() => call('POST', '/v1/electronic_eligibility_checks', { ...check, service_type: 'haircut' }), 422, 'validation_failed');
        expect(st.errors).toEqual([expect.objectContaining({ path: 'service_type', code: 'invalid_enum_value' })]);
        expect(st.errors?.[0].message).toMatch(/must be one of: abortion, acupuncture, .*190 values/);
        const discovery = await validBody('electronic_eligibility_discoveries');
        const src = await refused(() => call('POST', '/v1/electronic_eligibility_discoveries', { ...discovery, source: 'fax' }), 422, 'validation_failed');
        expect(src.errors?.[0]).toMatchObject({ path: 'source', code: 'invalid_enum_value' });
        const cardBody = await validBody('insurance_cards');
        const ns = await refused(() => call('POST', '/v1/insurance_cards', { ...cardBody, network_status: 'maybe' }), 422, 'validation_failed');
        expect(ns.errors?.[0]).toMatchObject({ path: 'network_status', code: 'invalid_enum_value' });
        const byCaller = await refused(() => call('POST', '/v1/electronic_eligibility_checks', { ...check, source: 'system' }), 422, 'validation_failed');
        expect(byCaller.errors?.[0]).toMatchObject({ path: 'source', code: 'unknown_field' });
      });

      it('refuses malformed and future dates of birth', async () => {
        for (const date_of_birth of ['12/10/1985', '1985-02-30', '2999-01-01', 19851210]) {
          const error = await refused(() => call('POST', '/v1/patients', { first_name: 'A', last_name: 'B', date_of_birth }), 422, 'validation_failed');
          expect(error.errors?.[0].path).toBe('date_of_birth');
        }
      });

      it('names every unknown referenced id with 422 not_found', async () => {
        const cardError = await refused(
          () =>
            call('POST', '/v1/insurance_cards', {
              patient_id: 'pat_missing',
              front_photo_object_key: `${'0'.repeat(64)}.png`,
              insurance_carrier_ids: ['che_missing'],
            }),
          422,
          'validation_failed',
        );
        expect(cardError.errors?.map((e) => [e.path, e.code]).sort()).toEqual([
          ['front_photo_object_key', 'not_found'],
          ['insurance_carrier_ids.0', 'not_found'],
          ['patient_id', 'not_found'],
        ]);
        const checkError = await refused(
          () =>
            call('POST', '/v1/electronic_eligibility_checks', {
              insurance_card_id: 'ic_missing',
              provider_id: 'prv_missing',
              clearinghouse_entity_id: 'che_missing',
              service_type: 'health_benefit_plan_coverage',
            }),
          422,
          'validation_failed',
        );
        expect(checkError.errors?.map((e) => e.path).sort()).toEqual(['clearinghouse_entity_id', 'insurance_card_id', 'provider_id']);
        await refused(() => call('POST', '/v1/extractions', { insurance_card_id: 'ic_missing' }), 422, 'validation_failed');
        await refused(() => call('POST', '/v1/electronic_eligibility_discoveries', { insurance_card_id: 'ic_missing', source: 'api' }), 422, 'validation_failed');
      });

      it('refuses photos of the wrong type (415), too large (413) or damaged (422)', async () => {
        await refused(() => call('POST', '/v1/photos', makePng(), { 'content-type': 'image/gif' }), 415, 'unsupported_media_type');
        await refused(() => call('POST', '/v1/photos', new Uint8Array(MAX_PHOTO_BYTES + 1), { 'content-type': 'image/png' }), 413, 'payload_too_large');
        const damaged = makePng(32, 32).slice(0, 40);
        const error = await refused(() => call('POST', '/v1/photos', damaged, { 'content-type': 'image/png' }), 422, 'validation_failed');
        expect(error.errors?.[0].code).toBe('invalid_image');
        await refused(() => call('POST', '/v1/photos', makePng(), { 'content-type': 'image/jpeg' }), 422, 'validation_failed');
      });

      it('refuses list parameters outside their range', async () => {
        for (const query of ['limit=0', 'limit=101', 'limit=ten', 'colour=red']) {
          const error = expectError(await call('GET', `/v1/patients?${query}`), 422, 'validation_failed');
          expect(error.errors?.length).toBe(1);
        }
      });

      it('answers unknown ids 404, unknown routes 404 and wrong methods 405', async () => {
        expectError(await call('GET', '/v1/patients/pat_01JD0000000000000000000000'), 404, 'resource_not_found');
        expectError(await call('GET', `/v1/photos/${'a'.repeat(64)}.jpg`), 404, 'resource_not_found');
        expectError(await call('GET', '/v1/nothing'), 404, 'route_not_found');
        const wrong = await call('DELETE', '/v1/patients');
        expectError(wrong, 405, 'method_not_allowed');
        expect(wrong.headers.allow).toBe('GET, POST');
        await refused(() => call('POST', '/v1/providers', { name: 'x' }), 405, 'method_not_allowed');
      });
    });

    describe('the changes feed', () => {
      /** Reads the feed to its end from `after`; every page must say where to go on. */
      async function readAll(after?: string, limit = 100) {
        const changes: ChangesPage['data'] = [];
        let cursor = after;
        for (;;) {
          const answer = await call('GET', `/v1/changes?limit=${limit}${cursor ? `&after=${cursor}` : ''}`);
          expect(answer.status, answer.text).toBe(200);
          const page = ChangesPage.parse(answer.json);
          changes.push(...page.data);
          if (page.data.length) expect(page.next_cursor).toBe(page.data[page.data.length - 1].cursor);
          else expect(page.next_cursor).toBe(cursor ?? page.next_cursor);
          cursor = page.next_cursor;
          if (!page.has_more) return { changes, cursor };
        }
      }

      it('lists what was created after a cursor, in order, with the record as served, each once', async ({ skip }) => {
        if (!t.changesFeed) skip();
        const { cursor: head } = await readAll();
        const made = await card();
        const check = await created('/v1/electronic_eligibility_checks', {
          insurance_card_id: made.card.id,
          provider_id: t.providerId,
          clearinghouse_entity_id: t.clearinghouseEntityId,
          service_type: 'health_benefit_plan_coverage',
        }, Check);
        const { changes } = await readAll(head);
        const ids = changes.map((change) => change.record.id);
        // Work the service finishes in the background for earlier tests (a discovery's card and
        // check, made when it completes) can land after `head` too, between or before ours.
        const ours = [made.patient.id, made.card.id, check.id];
        const mine = changes.filter((change) => ours.includes(change.record.id));
        expect(mine.map((change) => change.record.id)).toEqual(ours);
        expect(new Set(ids).size).toBe(ids.length);
        expect(mine.map((change) => change.collection)).toEqual(['patients', 'insurance_cards', 'electronic_eligibility_checks']);
        expect(mine[0].record).toEqual((await call('GET', `/v1/patients/${made.patient.id}`)).json);
        expect(mine[1].record).toMatchObject({ id: made.card.id, patient_id: made.patient.id, member_id: 'XGH123456789' });
        // Page by page gives the same changes as one read.
        const paged = await readAll(head, 1);
        expect(paged.changes.map((change) => change.record.id).filter((id) => ours.includes(id))).toEqual(ours);
        // At the end: an empty page that keeps the cursor. An earlier test's discovery may still
        // finish in the background and land first (CI saw one): read on past such changes, which
        // are never ours again, until the feed is empty.
        let at = paged.cursor;
        let end: unknown;
        for (let reads = 0; reads < 20 && end === undefined; reads++) {
          const answer = await call('GET', `/v1/changes?after=${at}`);
          const page = ChangesPage.parse(answer.json);
          if (page.data.length === 0) end = answer.json;
          else {
            expect(page.data.filter((change) => ours.includes(change.record.id))).toEqual([]);
            at = page.next_cursor;
          }
        }
        expect(end).toEqual({ data: [], next_cursor: at, has_more: false });
      });

      it('answers a cursor it never gave (or no longer keeps) 410 cursor_expired; bad parameters 422; writes nothing', async ({ skip }) => {
        if (!t.changesFeed) skip();
        await refused(() => call('GET', '/v1/changes?after=0.999999999999'), 410, 'cursor_expired');
        await refused(() => call('GET', '/v1/changes?after=not-a-cursor'), 410, 'cursor_expired');
        for (const query of ['limit=0', 'limit=101', 'limit=ten', 'since=1']) {
          const error = await refused(() => call('GET', `/v1/changes?${query}`), 422, 'validation_failed');
          expect(error.errors?.[0].path).toBe(query.startsWith('since') ? 'since' : 'limit');
        }
        const wrong = await call('POST', '/v1/changes', {});
        expectError(wrong, 405, 'method_not_allowed');
        expect(wrong.headers.allow).toBe('GET');
      });

      it('is absent from a service without a feed: 404 route_not_found', async ({ skip }) => {
        if (t.changesFeed) skip();
        await refused(() => call('GET', '/v1/changes'), 404, 'route_not_found');
      });
    });

    describe('the OpenAPI document', () => {
      it('serves the document built from the contract at GET /v1/openapi.json, to a caller with a key only', async () => {
        const answer = await call('GET', OPENAPI_DOCUMENT_PATH);
        expect(answer.status).toBe(200);
        expect(answer.headers['content-type']).toMatch(/^application\/json/);
        expect(answer.json).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
        expectError(await v1Caller(t.target, 'wrong')('GET', OPENAPI_DOCUMENT_PATH), 401, 'unauthorized');
        const wrong = await call('POST', OPENAPI_DOCUMENT_PATH, {});
        expectError(wrong, 405, 'method_not_allowed');
        expect(wrong.headers.allow).toBe('GET');
      });
    });

    describe('idempotency', () => {
      it('replays the first answer for the same key and body, and creates once', async () => {
        const body = await validBody('electronic_eligibility_checks');
        const key = `conformance-${Date.now()}-${Math.random()}`;
        const first = await call('POST', '/v1/electronic_eligibility_checks', body, { 'idempotency-key': key });
        expect(first.status).toBe(201);
        expect(first.headers['idempotent-replayed']).toBeUndefined();
        const before = t.snapshot();
        // Same body, keys in another order: the same request.
        const reordered = Object.fromEntries(Object.entries(body).reverse());
        const again = await call('POST', '/v1/electronic_eligibility_checks', reordered, { 'idempotency-key': key });
        expect(again.status).toBe(201);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.json.id).toBe(first.json.id);
        expect(t.snapshot()).toEqual(before);
      });

      it('refuses the same key with a different body (409 idempotency_key_reused)', async () => {
        const key = `conformance-reuse-${Date.now()}`;
        expect((await call('POST', '/v1/patients', await validBody('patients'), { 'idempotency-key': key })).status).toBe(201);
        await refused(
          () => call('POST', '/v1/patients', { first_name: 'Other', last_name: 'Person', date_of_birth: '1970-01-01' }, { 'idempotency-key': key }),
          409,
          'idempotency_key_reused',
        );
      });

      it('does not keep a refused request: the key works once the request is fixed', async () => {
        const key = `conformance-fix-${Date.now()}`;
        await refused(() => call('POST', '/v1/patients', { first_name: 'A', last_name: 'B' }, { 'idempotency-key': key }), 422, 'validation_failed');
        const fixed = await call('POST', '/v1/patients', { first_name: 'A', last_name: 'B', date_of_birth: '1990-01-01' }, { 'idempotency-key': key });
        expect(fixed.status).toBe(201);
      });

      it('refuses a key longer than 255 characters', async () => {
        const error = await refused(() => call('POST', '/v1/patients', {}, { 'idempotency-key': 'k'.repeat(256) }), 422, 'validation_failed');
        expect(error.errors?.[0].path).toBe('Idempotency-Key');
      });
    });
  });
}
