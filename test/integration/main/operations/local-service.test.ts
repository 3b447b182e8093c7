import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CREATABLE_COLLECTIONS,
  CREATE_REFERENCES,
  Check,
  CheckFailureReason,
  Discovery,
  Extraction,
  InsuranceCard,
  SERVICE_TYPES,
  Source,
  Status,
  type CallContext,
} from '@src/shared/contract';
import { ServiceError } from '@src/shared/service-error';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { clearinghouse_entities } from '@src/main/db/schema';
import { directoryEntities } from '@src/shared/payers/payer-directory';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { makePng } from '@test/support/images';

const DESK: CallContext = { source: 'dashboard' };
const API: CallContext = { source: 'api' };
const provider = SEED_PROVIDERS[0];
const payer = SEED_CLEARINGHOUSE_ENTITIES[0];

let fx: HostFixture;
beforeEach(() => {
  fx = startTestHost();
});
afterEach(async () => {
  await fx.cleanup();
});

async function patientAndCard(overrides: Record<string, unknown> = {}) {
  const { service } = fx.host;
  const patient = await service.create('patients', { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' }, DESK);
  const front = await service.uploadPhoto({ content_type: 'image/png', bytes: makePng(4, 4, [1, 2, 3]) });
  const card = await service.create(
    'insurance_cards',
    { patient_id: patient.id, member_id: 'XGH123456789', group_number: 'G-100', front_photo_object_key: front.object_key, ...overrides },
    DESK,
  );
  return { patient, card, front };
}

/** Asserts a create failed with 422 naming exactly these paths, and wrote nothing. */
async function expectRejected(run: () => Promise<unknown>, paths: string[], codes?: string[]) {
  const before = fx.snapshot();
  const error = await run().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  const serviceError = error as ServiceError;
  expect(serviceError.status).toBe(422);
  expect(serviceError.code).toBe('validation_failed');
  expect(serviceError.errors?.map((e) => e.path).sort()).toEqual([...paths].sort());
  if (codes) expect(serviceError.errors?.map((e) => e.code).sort()).toEqual([...codes].sort());
  for (const e of serviceError.errors ?? []) expect(e.message.length).toBeGreaterThan(10);
  expect(fx.snapshot()).toEqual(before);
  return serviceError;
}

describe('the four operations', () => {
  it('creates an insurance card with download URLs in place of object keys and carriers defaulting to []', async () => {
    const { card, front, patient } = await patientAndCard();
    expect(InsuranceCard.parse(card)).toBeTruthy();
    expect(card.id).toMatch(/^ic_[0-9A-Z]{26}$/);
    expect(card.source).toBe('dashboard');
    expect(card.insurance_carrier_ids).toEqual([]);
    expect(card.patient_id).toBe(patient.id);
    expect(card.front_photo_download_url).toBe(`/v1/photos/${front.object_key}`);
    expect(card).not.toHaveProperty('front_photo_object_key');
    expect(card).not.toHaveProperty('back_photo_download_url');
    expect(card.sync).toEqual({ state: 'queued', remote_id: null, error: null });
  });

  it('creates a pending extraction', async () => {
    const { card } = await patientAndCard();
    const extraction = await fx.host.service.create('extractions', { insurance_card_id: card.id }, DESK);
    expect(Extraction.parse(extraction)).toBeTruthy();
    expect(extraction).toMatchObject({ insurance_card_id: card.id, status: 'pending', engine: 'on_device' });
    expect(extraction).not.toHaveProperty('finished_at');
  });

  it('creates a pending discovery with the patient and member id copied in and the source as sent', async () => {
    const { card } = await patientAndCard();
    const discovery = await fx.host.service.create(
      'electronic_eligibility_discoveries',
      { insurance_card_id: card.id, source: 'api' },
      DESK,
    );
    expect(Discovery.parse(discovery)).toBeTruthy();
    expect(discovery).toMatchObject({
      status: 'pending',
      source: 'api',
      patient_first_name: 'Ada',
      patient_last_name: 'Lovelace',
      patient_date_of_birth: '1985-12-10',
      insurance_card_member_id: 'XGH123456789',
    });
    expect(discovery.id).toMatch(/^eed_/);
    expect(Status.options).toContain(discovery.status);
    expect(Source.options).toContain(discovery.source);
  });

  it('creates a pending check with provider_npi from the provider and the source from the channel', async () => {
    const { card } = await patientAndCard();
    const input = { insurance_card_id: card.id, provider_id: provider.id, clearinghouse_entity_id: payer.id, service_type: 'chiropractic' as const };
    const fromDesk = await fx.host.service.create('electronic_eligibility_checks', input, DESK);
    const fromApi = await fx.host.service.create('electronic_eligibility_checks', input, API);
    expect(Check.parse(fromDesk)).toBeTruthy();
    expect(fromDesk).toMatchObject({
      status: 'pending',
      source: 'dashboard',
      provider_npi: provider.npi,
      patient_first_name: 'Ada',
      insurance_card_member_id: 'XGH123456789',
      service_type: 'chiropractic',
    });
    expect(fromDesk).not.toHaveProperty('finished_at');
    expect(fromDesk).not.toHaveProperty('failure_reason');
    expect(fromApi.source).toBe('api');
    expect(CheckFailureReason.options).toEqual(['clearinghouse_error', 'clearinghouse_entity_error']);
  });

  it('refuses a caller-supplied source on a check: the channel sets it', async () => {
    const { card } = await patientAndCard();
    await expectRejected(
      () =>
        fx.host.service.create(
          'electronic_eligibility_checks',
          { insurance_card_id: card.id, provider_id: provider.id, clearinghouse_entity_id: payer.id, service_type: 'chiropractic', source: 'system' } as never,
          API,
        ),
      ['source'],
      ['unknown_field'],
    );
  });

  it('accepts every one of the 190 service types', async () => {
    const { card } = await patientAndCard();
    expect(SERVICE_TYPES).toHaveLength(190);
    for (const service_type of SERVICE_TYPES) {
      const check = await fx.host.service.create(
        'electronic_eligibility_checks',
        { insurance_card_id: card.id, provider_id: provider.id, clearinghouse_entity_id: payer.id, service_type },
        DESK,
      );
      expect(check.service_type).toBe(service_type);
    }
  });

  it('writes the record and its outbox entry together, card depending on its patient and photo', async () => {
    const { card, patient, front } = await patientAndCard();
    const entries = fx.host.database.sqlite.prepare('SELECT id, collection, record_id, depends_on, state FROM outbox ORDER BY id').all() as {
      id: string;
      collection: string;
      record_id: string;
      depends_on: string;
      state: string;
    }[];
    expect(entries.map((e) => [e.collection, e.record_id, e.state])).toEqual([
      ['patients', patient.id, 'queued'],
      ['photos', front.object_key, 'queued'],
      ['insurance_cards', card.id, 'queued'],
    ]);
    expect(JSON.parse(entries[2].depends_on).sort()).toEqual([entries[0].id, entries[1].id].sort());
  });

  it('stores the same photo once', async () => {
    const bytes = makePng(3, 3);
    const a = await fx.host.service.uploadPhoto({ content_type: 'image/png', bytes });
    const b = await fx.host.service.uploadPhoto({ content_type: 'image/png', bytes });
    expect(a.object_key).toBe(b.object_key);
    expect(a.object_key).toMatch(/^[0-9a-f]{64}\.png$/);
    expect(fx.snapshot().photos).toBe(1);
    expect(fx.snapshot().outbox).toBe(1);
    const read = await fx.host.service.readPhoto(a.object_key);
    expect(Buffer.from(read.bytes).equals(Buffer.from(bytes))).toBe(true);
  });
});

describe('reads', () => {
  it('gets each record and 404s an unknown id', async () => {
    const { card, patient } = await patientAndCard();
    expect((await fx.host.service.get('patients', patient.id)).first_name).toBe('Ada');
    expect((await fx.host.service.get('insurance_cards', card.id)).member_id).toBe('XGH123456789');
    const missing = await fx.host.service.get('insurance_cards', 'ic_nope').catch((e: ServiceError) => e);
    expect(missing).toBeInstanceOf(ServiceError);
    expect((missing as ServiceError).status).toBe(404);
    expect((missing as ServiceError).code).toBe('resource_not_found');
  });

  it('lists newest first with cursor pagination that visits every record once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push((await fx.host.service.create('patients', { first_name: `P${i}`, last_name: 'Test', date_of_birth: '2000-01-01' }, DESK)).id);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await fx.host.service.list('patients', { limit: 3, cursor });
      seen.push(...page.data.map((p) => p.id));
      cursor = page.next_cursor ?? undefined;
      expect(page.has_more).toBe(page.next_cursor !== null);
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  it('rejects a list limit outside 1..100', async () => {
    for (const limit of [0, 101, 2.5]) {
      const error = await fx.host.service.list('patients', { limit }).catch((e: ServiceError) => e);
      expect((error as ServiceError).errors?.[0].path).toBe('limit');
    }
  });

  it('serves the seeded providers and clearinghouse entities', async () => {
    const providers = await fx.host.service.list('providers', { limit: 100 });
    expect(providers.data.map((p) => p.id).sort()).toEqual(SEED_PROVIDERS.map((p) => p.id).sort());
    // The whole payer directory, the eight fixed entity ids among them (pages of 100).
    const entities = await fx.host.service.list('clearinghouse_entities', { limit: 100 });
    expect(entities.data).toHaveLength(100);
    expect(entities.next_cursor).not.toBeNull();
    const ids = new Set(fx.host.database.db.select({ id: clearinghouse_entities.id }).from(clearinghouse_entities).all().map((e) => e.id));
    expect(ids.size).toBe(directoryEntities().length);
    for (const entity of SEED_CLEARINGHOUSE_ENTITIES) expect(ids.has(entity.id)).toBe(true);
  });
});

describe('bad input: a named error and nothing written', () => {
  it('patients: missing, wrong type, malformed and future dates of birth, non-object body', async () => {
    const create = (input: unknown) => () => fx.host.service.create('patients', input as never, DESK);
    await expectRejected(create({ last_name: 'X', date_of_birth: '2000-01-01' }), ['first_name'], ['required']);
    await expectRejected(create({ first_name: 7, last_name: 'X', date_of_birth: '2000-01-01' }), ['first_name'], ['invalid_type']);
    for (const dob of ['12/10/1985', '1985-02-30', '1985-13-01', '2999-01-01', '']) {
      await expectRejected(create({ first_name: 'A', last_name: 'B', date_of_birth: dob }), ['date_of_birth']);
    }
    for (const body of [null, [], 'text', 42]) {
      const error = await expectRejected(create(body), ['']);
      expect(error.errors?.[0].message).toMatch(/JSON object/);
    }
  });

  it('cards: unknown patient, photo keys and carriers are each named', async () => {
    const { patient } = await patientAndCard();
    await expectRejected(
      () =>
        fx.host.service.create(
          'insurance_cards',
          {
            patient_id: 'pat_01JD00000000000000000000ZZ',
            front_photo_object_key: `${'a'.repeat(64)}.jpg`,
            insurance_carrier_ids: [payer.id, 'che_unknown'],
          },
          DESK,
        ),
      ['patient_id', 'front_photo_object_key', 'insurance_carrier_ids.1'],
      ['not_found', 'not_found', 'not_found'],
    );
    await expectRejected(
      () => fx.host.service.create('insurance_cards', { patient_id: patient.id, network_status: 'partly', member_id: 12 } as never, DESK),
      ['network_status', 'member_id'],
      ['invalid_enum_value', 'invalid_type'],
    );
    await expectRejected(() => fx.host.service.create('insurance_cards', {} as never, DESK), ['patient_id'], ['required']);
    await expectRejected(
      () => fx.host.service.create('insurance_cards', { patient_id: patient.id, back_photo_object_key: 'photo.jpg' }, DESK),
      ['back_photo_object_key'],
    );
  });

  it('extractions and discoveries: unknown card, missing field, bad source', async () => {
    await expectRejected(() => fx.host.service.create('extractions', { insurance_card_id: 'ic_missing' }, DESK), ['insurance_card_id'], ['not_found']);
    await expectRejected(() => fx.host.service.create('extractions', {} as never, DESK), ['insurance_card_id'], ['required']);
    const { card } = await patientAndCard();
    await expectRejected(
      () => fx.host.service.create('electronic_eligibility_discoveries', { insurance_card_id: card.id, source: 'scanner' } as never, DESK),
      ['source'],
      ['invalid_enum_value'],
    );
    await expectRejected(
      () => fx.host.service.create('electronic_eligibility_discoveries', { insurance_card_id: card.id } as never, DESK),
      ['source'],
      ['required'],
    );
  });

  it('checks: unknown service type, unknown references, all four required', async () => {
    const { card } = await patientAndCard();
    const error = await expectRejected(
      () =>
        fx.host.service.create(
          'electronic_eligibility_checks',
          { insurance_card_id: card.id, provider_id: provider.id, clearinghouse_entity_id: payer.id, service_type: 'teleportation' } as never,
          DESK,
        ),
      ['service_type'],
      ['invalid_enum_value'],
    );
    expect(error.errors?.[0].message).toMatch(/must be one of: abortion, acupuncture/);
    await expectRejected(
      () =>
        fx.host.service.create(
          'electronic_eligibility_checks',
          { insurance_card_id: 'ic_x', provider_id: 'prv_x', clearinghouse_entity_id: 'che_x', service_type: 'chiropractic' },
          DESK,
        ),
      ['insurance_card_id', 'provider_id', 'clearinghouse_entity_id'],
      ['not_found', 'not_found', 'not_found'],
    );
    await expectRejected(
      () => fx.host.service.create('electronic_eligibility_checks', {} as never, DESK),
      ['insurance_card_id', 'provider_id', 'clearinghouse_entity_id', 'service_type'],
    );
  });

  it('checks every reference the contract declares: each one unknown in turn is refused, naming its field, writing nothing', async () => {
    const { patient, card, front } = await patientAndCard();
    // A valid create per collection, with every reference field of CREATE_REFERENCES set.
    const valid: Record<string, Record<string, unknown>> = {
      patients: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' },
      insurance_cards: { patient_id: patient.id, front_photo_object_key: front.object_key, back_photo_object_key: front.object_key, insurance_carrier_ids: [payer.id] },
      extractions: { insurance_card_id: card.id },
      electronic_eligibility_discoveries: { insurance_card_id: card.id, source: 'api' },
      electronic_eligibility_checks: { insurance_card_id: card.id, provider_id: provider.id, clearinghouse_entity_id: payer.id, service_type: 'chiropractic' },
    };
    let checked = 0;
    for (const collection of CREATABLE_COLLECTIONS) {
      for (const [field, reference] of Object.entries(CREATE_REFERENCES[collection])) {
        expect(valid[collection], `a valid ${collection} create sets ${field}`).toHaveProperty(field);
        const unknown = reference.target === 'photos' ? `${'b'.repeat(64)}.png` : 'zz_01JD0000000000000000000000';
        const input = { ...valid[collection], [field]: reference.many ? [unknown] : unknown };
        await expectRejected(() => fx.host.service.create(collection, input as never, DESK), [reference.many ? `${field}.0` : field], ['not_found']);
        checked += 1;
      }
    }
    expect(checked).toBe(9);
  });

  it('photos: wrong type, not an image, too large — and no file is written', async () => {
    const before = fx.snapshot();
    const attempts = [
      { content_type: 'image/gif', bytes: new Uint8Array([0x47, 0x49, 0x46, 0x38]), code: 'unsupported_media_type' },
      { content_type: 'image/png', bytes: new Uint8Array([0xff, 0xd8, 0xff, 0x00]), code: 'validation_failed' },
      { content_type: 'image/jpeg', bytes: new Uint8Array(10 * 1024 * 1024 + 1).fill(0xff), code: 'payload_too_large' },
    ];
    for (const attempt of attempts) {
      const error = await fx.host.service.uploadPhoto(attempt).catch((e: ServiceError) => e);
      expect((error as ServiceError).code).toBe(attempt.code);
    }
    expect(fx.snapshot()).toEqual(before);
  });
});

describe('atomicity and durability', () => {
  it('a failure in the middle of a create leaves no trace', async () => {
    const { card } = await patientAndCard();
    // The record's id is minted, then the outbox entry's id fails: the record must go too.
    let calls = 0;
    const failing = {
      next(prefix: string) {
        calls++;
        if (prefix === 'obx') throw new Error('disk on fire');
        return `${prefix}_01JD0000000000000000000${String(calls).padStart(3, '0')}`;
      },
    };
    const host = fx.host as unknown as { database: { db: unknown } };
    const { createLocalService } = await import('@src/main/operations/local-service');
    const { createPhotoStore } = await import('@src/main/photos/photo-store');
    const { systemClock } = await import('@src/main/support/clock');
    const service = createLocalService({
      db: host.database.db as never,
      clock: systemClock,
      ids: failing as never,
      photos: createPhotoStore(`${fx.dataDir}/photos`),
      photoUrl: (k) => k,
    });
    const before = fx.snapshot();
    await expect(service.create('extractions', { insurance_card_id: card.id }, DESK)).rejects.toThrow('disk on fire');
    await expect(service.create('patients', { first_name: 'A', last_name: 'B', date_of_birth: '2000-01-01' }, DESK)).rejects.toThrow();
    expect(fx.snapshot()).toEqual(before);
  });

  it('data survives closing and reopening', async () => {
    const { card, patient } = await patientAndCard();
    const host = fx.reopen();
    expect((await host.service.get('patients', patient.id)).last_name).toBe('Lovelace');
    expect((await host.service.get('insurance_cards', card.id)).member_id).toBe('XGH123456789');
    expect(fx.snapshot().outbox).toBe(3);
  });
});
