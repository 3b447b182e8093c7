import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checks } from '@src/main/db/schema';
import type { HotFolderExtractor } from '@src/main/inbox/hot-folder';
import { SANDBOX_AAA_CODES, SCENARIO_PREFIXES } from '@src/main/sandbox/scenarios';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS, SEED_ROSTER } from '@src/main/reference/seed-data';
import { directoryEntities } from '@src/shared/payers/payer-directory';
import {
  AAA_REASONS,
  Check,
  ClearinghouseEntityError,
  Discovery,
  Extraction,
  InsuranceCard,
  ListPage,
  type ServiceType,
} from '@src/shared/contract';
import { makePng } from '@test/support/images';
import { manualClock, type ManualClock } from '@test/support/manual-clock';
import { startTestSandbox, type SandboxFixture } from '@test/support/sandbox-fixture';

const DELAY = 1000;
const provider = SEED_PROVIDERS[1];
const payer = SEED_CLEARINGHOUSE_ENTITIES[2];

let fx: SandboxFixture;
let clock: ManualClock;

async function start(options: Parameters<typeof startTestSandbox>[0] = {}) {
  clock = manualClock();
  fx = await startTestSandbox({ clock, delayMs: DELAY, ...options });
}
afterEach(async () => {
  await fx?.close();
});

async function post(collection: string, body: unknown) {
  const answer = await fx.call('POST', `/v1/${collection}`, body);
  expect(answer.status, answer.text).toBe(201);
  return answer.json;
}

async function read(collection: string, id: string) {
  const answer = await fx.call('GET', `/v1/${collection}/${id}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.json;
}

async function newCard(card: Record<string, unknown> = {}, person = { first_name: 'Pat', last_name: 'Example', date_of_birth: '1980-01-02' }) {
  const patient = await post('patients', person);
  return InsuranceCard.parse(await post('insurance_cards', { patient_id: patient.id, ...card }));
}

async function newCheck(cardId: string, service_type: ServiceType = 'health_benefit_plan_coverage') {
  const check = Check.parse(
    await post('electronic_eligibility_checks', { insurance_card_id: cardId, provider_id: provider.id, clearinghouse_entity_id: payer.id, service_type }),
  );
  expect(check).toMatchObject({ status: 'pending', source: 'api' });
  expect(check.finished_at).toBeUndefined();
  return check;
}

/** A check on a fresh card with this member id, resolved by advancing the clock past the delay. */
async function resolvedCheck(memberId: string | undefined, serviceType?: ServiceType) {
  const card = await newCard(memberId ? { member_id: memberId } : {});
  const created = await newCheck(card.id, serviceType);
  clock.advance(DELAY - 1);
  expect((await read('electronic_eligibility_checks', created.id)).status).toBe('pending');
  clock.advance(1);
  const check = Check.parse(await read('electronic_eligibility_checks', created.id));
  return { check, card: InsuranceCard.parse(await read('insurance_cards', card.id)) };
}

describe('checks: the member id picks the outcome (docs/sandbox.md)', () => {
  beforeEach(() => start());

  it('an ordinary member id: active coverage with 271 benefits, and the card says active', async () => {
    const { check, card } = await resolvedCheck('W100200300', 'professional_physician_visit_office');
    expect(check.status).toBe('success');
    expect(check.finished_at).toBe(clock.now().toISOString());
    expect(check.failure_reason).toBeUndefined();
    const benefits = check.benefits!;
    expect(benefits[0]).toMatchObject({ code: 'active_coverage', x12_code: '1', service_types: ['professional_physician_visit_office'] });
    const deductibles = benefits.filter((b) => b.code === 'deductible' && b.coverage_level === 'individual' && b.in_network === 'yes');
    expect(deductibles.map((b) => b.time_period).sort()).toEqual(['calendar_year', 'remaining']);
    const [year, remaining] = ['calendar_year', 'remaining'].map((p) => Number(deductibles.find((b) => b.time_period === p)!.amount));
    expect(remaining).toBeLessThanOrEqual(year);
    expect(benefits.some((b) => b.code === 'out_of_pocket_stop_loss' && b.time_period === 'remaining')).toBe(true);
    expect(benefits.some((b) => b.code === 'co_payment' || b.code === 'co_insurance')).toBe(true);
    expect(card.plan_status).toBe('active');
    expect(card.plan_status_fetched_at).toBe(check.finished_at);
  });

  it('benefits vary by service type', async () => {
    const codes = async (serviceType: ServiceType) => (await resolvedCheck('W100200300', serviceType)).check.benefits!.filter((b) => b.service_types.includes(serviceType));
    expect((await codes('dental_care')).map((b) => b.code)).toEqual(['active_coverage', 'non_covered']);
    expect((await codes('physical_therapy')).filter((b) => b.code === 'limitations').map((b) => b.quantity?.qualifier)).toEqual(['VS', 'VS']);
    expect((await codes('mri_cat_scan')).filter((b) => b.code === 'co_insurance').every((b) => b.authorization_required === 'yes')).toBe(true);
    const pharmacy = await codes('generic_prescription_drug');
    expect(pharmacy.find((b) => b.code === 'co_payment')?.amount).toBe('10.00');
  });

  it('INACTIVE…: the check succeeds with an inactive plan, and the card says inactive', async () => {
    const { check, card } = await resolvedCheck('INACTIVE0001');
    expect(check.status).toBe('success');
    expect(check.benefits).toEqual([expect.objectContaining({ code: 'inactive', x12_code: '6', service_types: ['health_benefit_plan_coverage'] })]);
    expect(card.plan_status).toBe('inactive');
    expect(card.plan_status_fetched_at).toBe(check.finished_at);
  });

  it.each(SANDBOX_AAA_CODES)('AAA%s…: failure with that AAA rejection, and the card is untouched', async (code) => {
    const { check, card } = await resolvedCheck(`aaa${code}-0001`);
    expect(check.status).toBe('failure');
    expect(check.failure_reason).toBe('clearinghouse_entity_error');
    expect(check.benefits).toBeUndefined();
    expect(check.clearinghouse_entity_errors).toHaveLength(1);
    const error = ClearinghouseEntityError.parse(check.clearinghouse_entity_errors![0]);
    expect(error).toMatchObject({ code, reason: AAA_REASONS[code].reason, field: AAA_REASONS[code].field });
    expect(error.description.length).toBeGreaterThan(10);
    expect(error.follow_up_action).toMatch(/^[a-z_0-9]+$/);
    expect(card.plan_status).toBeUndefined();
  });

  it('no member id on the card: AAA 72 (invalid/missing subscriber id)', async () => {
    const { check } = await resolvedCheck(undefined);
    expect(check).toMatchObject({ status: 'failure', failure_reason: 'clearinghouse_entity_error' });
    expect(check.clearinghouse_entity_errors?.[0]).toMatchObject({ code: '72', field: 'member_id' });
  });

  it('CHERROR…: failure with clearinghouse_error and no entity errors', async () => {
    const { check, card } = await resolvedCheck('CHERROR-77');
    expect(check).toMatchObject({ status: 'failure', failure_reason: 'clearinghouse_error' });
    expect(check.clearinghouse_entity_errors).toBeUndefined();
    expect(card.plan_status).toBeUndefined();
  });

  it('PENDING…: stays pending for an hour, then resolves as active coverage', async () => {
    const card = await newCard({ member_id: 'PENDING-123' });
    const created = await newCheck(card.id);
    clock.advance(59 * 60 * 1000);
    expect((await read('electronic_eligibility_checks', created.id)).status).toBe('pending');
    clock.advance(60 * 1000);
    const check = Check.parse(await read('electronic_eligibility_checks', created.id));
    expect(check.status).toBe('success');
    expect(check.benefits?.[0].code).toBe('active_coverage');
  });

  it('terminal states never change', async () => {
    const { check } = await resolvedCheck('AAA42X');
    clock.advance(24 * 60 * 60 * 1000);
    fx.sandbox.service.clearinghouse.resolveDue();
    expect(await read('electronic_eligibility_checks', check.id)).toEqual(check);
    // Even a row forced back through the resolver keeps its first answer.
    fx.sandbox.database.db.update(checks).set({ insurance_card_member_id: 'W999' }).run();
    fx.sandbox.service.clearinghouse.resolveDue();
    expect((await read('electronic_eligibility_checks', check.id)).status).toBe('failure');
  });

  it('the docs list every scenario prefix', () => {
    const doc = fs.readFileSync(path.resolve(__dirname, '../../../../docs/sandbox.md'), 'utf8');
    for (const { prefix } of SCENARIO_PREFIXES) expect(doc).toContain(`\`${prefix}\``);
  });
});

describe('discoveries: the roster, by name and date of birth', () => {
  beforeEach(() => start());
  const person = SEED_ROSTER.find((p) => p.id === 'rst_01')!;

  async function discover(cardId: string) {
    const created = Discovery.parse(await post('electronic_eligibility_discoveries', { insurance_card_id: cardId, source: 'dashboard' }));
    expect(created).toMatchObject({ status: 'pending', source: 'dashboard' });
    clock.advance(DELAY);
    return Discovery.parse(await read('electronic_eligibility_discoveries', created.id));
  }

  async function spawnedChecks(discoveryId: string) {
    const page = ListPage(Check).parse((await fx.call('GET', '/v1/electronic_eligibility_checks?limit=100')).json);
    return page.data.filter((c) => c.electronic_eligibility_discovery_id === discoveryId);
  }

  it('a match fills the card and spawns a system check that resolves in turn', async () => {
    // Case and spacing differ from the roster: a desk types names as it hears them.
    const card = await newCard({}, { first_name: ' maria ', last_name: 'GARCIA', date_of_birth: person.date_of_birth });
    const discovery = await discover(card.id);
    expect(discovery).toMatchObject({ status: 'success', insurance_card_member_id: person.member_id });
    expect(discovery.finished_at).toBe(clock.now().toISOString());
    const filled = InsuranceCard.parse(await read('insurance_cards', card.id));
    expect(filled).toMatchObject({ member_id: person.member_id, insurance_carrier_ids: [person.clearinghouse_entity_id] });

    const [spawned] = await spawnedChecks(discovery.id);
    expect(spawned).toMatchObject({
      status: 'pending',
      source: 'system',
      electronic_eligibility_discovery_id: discovery.id,
      clearinghouse_entity_id: person.clearinghouse_entity_id,
      insurance_card_member_id: person.member_id,
      service_type: 'health_benefit_plan_coverage',
      provider_id: SEED_PROVIDERS[0].id,
    });
    clock.advance(DELAY);
    const check = Check.parse(await read('electronic_eligibility_checks', spawned.id));
    expect(check.status).toBe('success');
    expect(check.benefits?.[0].messages).toEqual([person.plan_name]);
    expect((await read('insurance_cards', card.id)).plan_status).toBe('active');
  });

  it("keeps the member id the desk typed, and uses the card's latest provider for the spawned check", async () => {
    const card = await newCard({ member_id: 'TYPED-123' }, { first_name: 'Maria', last_name: 'Garcia', date_of_birth: person.date_of_birth });
    await newCheck(card.id);
    const discovery = await discover(card.id);
    expect(discovery).toMatchObject({ status: 'success', insurance_card_member_id: 'TYPED-123' });
    expect((await read('insurance_cards', card.id)).member_id).toBe('TYPED-123');
    const [spawned] = await spawnedChecks(discovery.id);
    expect(spawned).toMatchObject({ provider_id: provider.id, insurance_card_member_id: 'TYPED-123' });
  });

  it('a roster member with a reserved id leads to that outcome (INACTIVE…)', async () => {
    const walter = SEED_ROSTER.find((p) => p.member_id.startsWith('INACTIVE'))!;
    const card = await newCard({}, { first_name: walter.first_name, last_name: walter.last_name, date_of_birth: walter.date_of_birth });
    const discovery = await discover(card.id);
    const [spawned] = await spawnedChecks(discovery.id);
    clock.advance(DELAY);
    expect((await read('electronic_eligibility_checks', spawned.id)).benefits[0].code).toBe('inactive');
    expect((await read('insurance_cards', card.id)).plan_status).toBe('inactive');
  });

  it('no match: failure, the card unchanged, no checks spawned', async () => {
    const card = await newCard({}, { first_name: 'Maria', last_name: 'Garcia', date_of_birth: '1978-03-15' });
    const discovery = await discover(card.id);
    expect(discovery.status).toBe('failure');
    expect(discovery.finished_at).toBeDefined();
    expect(await read('insurance_cards', card.id)).toEqual(card);
    expect(await spawnedChecks(discovery.id)).toEqual([]);
  });
});

describe('extractions', () => {
  const fields = { member_id: { value: 'W100200300', confidence: 0.97 }, payer_name: { value: 'Aetna', confidence: 0.9 } };

  it('complete from the card photos with the extractor, engine upstream', async () => {
    const seen: number[] = [];
    const extractor: HotFolderExtractor = {
      async extract(images, context) {
        seen.push(images.length, context.entities.length);
        return { fields };
      },
    };
    await start({ extractor });
    const front = (await fx.call('POST', '/v1/photos', makePng(8, 8, [1, 2, 3]), { 'content-type': 'image/png' })).json.object_key;
    const back = (await fx.call('POST', '/v1/photos', makePng(8, 8, [4, 5, 6]), { 'content-type': 'image/png' })).json.object_key;
    const card = await newCard({ front_photo_object_key: front, back_photo_object_key: back });
    const created = Extraction.parse(await post('extractions', { insurance_card_id: card.id }));
    expect(created).toMatchObject({ status: 'pending', engine: 'upstream' });
    clock.advance(DELAY);
    fx.sandbox.service.clearinghouse.resolveDue();
    await fx.sandbox.service.clearinghouse.idle();
    const done = Extraction.parse(await read('extractions', created.id));
    expect(done).toMatchObject({ status: 'success', fields, engine: 'upstream' });
    expect(done.finished_at).toBeDefined();
    // Every payer of the directory the sandbox serves, the eight old ones among them.
    expect(seen).toEqual([2, directoryEntities().length]);
  });

  it('fail with a reason: no engine, no photos, or the engine gave up', async () => {
    await start();
    const front = (await fx.call('POST', '/v1/photos', makePng(), { 'content-type': 'image/png' })).json.object_key;
    const withPhoto = await newCard({ front_photo_object_key: front });
    const noEngine = await post('extractions', { insurance_card_id: withPhoto.id });
    clock.advance(DELAY);
    expect(await read('extractions', noEngine.id)).toMatchObject({ status: 'failure', failure_reason: 'no_engine' });
    await fx.close();

    const failing: HotFolderExtractor = {
      extract: async () => {
        throw Object.assign(new Error('unreadable'), { reason: 'unreadable_image' });
      },
    };
    await start({ extractor: failing });
    const noPhotos = await post('extractions', { insurance_card_id: (await newCard()).id });
    const key = (await fx.call('POST', '/v1/photos', makePng(), { 'content-type': 'image/png' })).json.object_key;
    const unreadable = await post('extractions', { insurance_card_id: (await newCard({ front_photo_object_key: key })).id });
    clock.advance(DELAY);
    fx.sandbox.service.clearinghouse.resolveDue();
    await fx.sandbox.service.clearinghouse.idle();
    expect(await read('extractions', noPhotos.id)).toMatchObject({ status: 'failure', failure_reason: 'no_photos' });
    expect(await read('extractions', unreadable.id)).toMatchObject({ status: 'failure', failure_reason: 'unreadable_image' });
  });
});

describe('timing', () => {
  it('the delay is configurable', async () => {
    await start({ delayMs: 5000 });
    const check = await newCheck((await newCard({ member_id: 'W1' })).id);
    clock.advance(4999);
    expect((await read('electronic_eligibility_checks', check.id)).status).toBe('pending');
    clock.advance(1);
    expect((await read('electronic_eligibility_checks', check.id)).status).toBe('success');
  });

  it('with the real clock, the timer resolves records nobody reads', async () => {
    fx = await startTestSandbox({ delayMs: 30 });
    const check = await newCheck((await newCard({ member_id: 'W1' })).id);
    const row = () => fx.sandbox.database.sqlite.prepare('SELECT status FROM electronic_eligibility_checks WHERE id = ?').get(check.id) as { status: string };
    const deadline = Date.now() + 5000;
    while (row().status === 'pending' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(row().status).toBe('success');
  });
});
