import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { COLLECTIONS, CREATABLE_COLLECTIONS, ErrorEnvelope, type CreatableCollection } from '@src/shared/contract';
import { makePng } from '@test/support/images';
import { startTestSandbox, type SandboxFixture } from '@test/support/sandbox-fixture';

/**
 * Generated invalid bodies at every create endpoint over real HTTP: the answer is always a
 * 4xx error envelope, never a 5xx, and the sandbox's database never changes.
 */

let fx: SandboxFixture;
const valid = {} as Record<CreatableCollection, Record<string, unknown>>;
/** Every id and object key the sandbox holds: a body is valid only if it refers to these. */
const existing = new Set<string>();

beforeAll(async () => {
  fx = await startTestSandbox({ delayMs: 60_000 });
  const post = async (collection: string, body: unknown) => (await fx.call('POST', `/v1/${collection}`, body)).json;
  const patient = await post('patients', { first_name: 'Prop', last_name: 'Erty', date_of_birth: '1990-05-06' });
  const photo = (await fx.call('POST', '/v1/photos', makePng(), { 'content-type': 'image/png' })).json.object_key as string;
  const card = await post('insurance_cards', { patient_id: patient.id, member_id: 'W1' });
  valid.patients = { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' };
  valid.insurance_cards = {
    patient_id: patient.id,
    network_status: 'in_network',
    front_photo_object_key: photo,
    insurance_carrier_ids: [SEED_CLEARINGHOUSE_ENTITIES[0].id],
    member_id: 'W123',
  };
  valid.extractions = { insurance_card_id: card.id };
  valid.electronic_eligibility_discoveries = { insurance_card_id: card.id, source: 'api' };
  valid.electronic_eligibility_checks = {
    insurance_card_id: card.id,
    provider_id: SEED_PROVIDERS[0].id,
    clearinghouse_entity_id: SEED_CLEARINGHOUSE_ENTITIES[0].id,
    service_type: 'chiropractic',
  };
  for (const id of [patient.id, photo, card.id, ...SEED_PROVIDERS.map((p) => p.id), ...SEED_CLEARINGHOUSE_ENTITIES.map((e) => e.id)]) existing.add(id);
});
afterAll(async () => {
  await fx?.close();
});

const REFERENCE_FIELDS = ['patient_id', 'insurance_card_id', 'provider_id', 'clearinghouse_entity_id', 'front_photo_object_key', 'back_photo_object_key'];

/** The oracle: a body the service must refuse (schema broken, or a reference it does not hold). */
function isInvalid(collection: CreatableCollection, body: unknown): boolean {
  const parsed = COLLECTIONS[collection].create.safeParse(body);
  if (!parsed.success) return true;
  const data = parsed.data as Record<string, unknown>;
  const refs = [...REFERENCE_FIELDS.map((f) => data[f]), ...((data.insurance_carrier_ids as string[] | undefined) ?? [])];
  return refs.some((ref) => ref !== undefined && !existing.has(ref as string));
}

function invalidRequests(collection: CreatableCollection) {
  const base = valid[collection];
  const keys = Object.keys(base);
  const known = Object.keys(COLLECTIONS[collection].create.shape);
  const json = fc.jsonValue({ maxDepth: 2 });
  const body = fc
    .oneof(
      // Not an object at all.
      fc.oneof(fc.array(json, { maxLength: 3 }), fc.string(), fc.double(), fc.boolean(), fc.constant(null)),
      // An object of anything.
      fc.dictionary(fc.string({ maxLength: 12 }), json, { maxKeys: 5 }),
      // A required or given field left out.
      fc.constantFrom(...keys).map((key) => Object.fromEntries(Object.entries(base).filter(([k]) => k !== key))),
      // A field set to any JSON value (wrong types, unknown enum values, unknown ids, bad dates).
      fc.record({ key: fc.constantFrom(...keys), value: fc.oneof(json, fc.string({ maxLength: 40 })) }).map(({ key, value }) => ({ ...base, [key]: value })),
      // A field nobody asked for.
      fc
        .record({ key: fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !known.includes(k)), value: json })
        .map(({ key, value }) => ({ ...base, [key]: value })),
    )
    .filter((candidate) => isInvalid(collection, candidate))
    .map((candidate) => ({ text: JSON.stringify(candidate), contentType: 'application/json' }));
  const malformed = fc
    .string({ maxLength: 30 })
    .filter((text) => {
      try {
        JSON.parse(text);
        return false;
      } catch {
        return true;
      }
    })
    .map((text) => ({ text, contentType: 'application/json' }));
  const wrongType = fc
    .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/jsonp', 'image/png')
    .map((contentType) => ({ text: JSON.stringify(base), contentType }));
  return fc.oneof({ arbitrary: body, weight: 6 }, { arbitrary: malformed, weight: 1 }, { arbitrary: wrongType, weight: 1 });
}

describe('generated invalid bodies at every create endpoint', () => {
  it.each(CREATABLE_COLLECTIONS)('POST /v1/%s: a 4xx error envelope, never a 5xx, nothing written', async (collection) => {
    const before = fx.snapshot();
    await fc.assert(
      fc.asyncProperty(invalidRequests(collection), async ({ text, contentType }) => {
        const answer = await fx.call('POST', `/v1/${collection}`, text, { 'content-type': contentType, 'idempotency-key': `prop-${Math.random()}` });
        expect([400, 415, 422], answer.text).toContain(answer.status);
        expect(ErrorEnvelope.parse(answer.json).error.request_id).toMatch(/^req_/);
        expect(fx.snapshot()).toEqual(before);
      }),
      { numRuns: 60, seed: 20261123 },
    );
  });
});
