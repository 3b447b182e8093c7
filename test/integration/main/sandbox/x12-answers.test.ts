import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '@src/main/sandbox/start-sandbox';
import { SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { read271 } from '@src/main/x12/read-271';
import { X12FileError } from '@src/main/x12/x12-interchange';
import { Check, ClearinghouseEntity, InsuranceCard, ListPage } from '@src/shared/contract';
import { directoryEntityId, payerDirectory } from '@src/shared/payers/payer-directory';
import { makeTempDir } from '@test/support/temp-dir';
import { manualClock, type ManualClock } from '@test/support/manual-clock';
import { API_KEY, startTestSandbox, type SandboxFixture } from '@test/support/sandbox-fixture';

/** The 271 fixtures (scripts/copy-x12-fixtures.cjs); each test copies the ones it serves into a folder of its own. */
const FIXTURES = path.resolve(__dirname, '../../../fixtures/x12-271');
const DELAY = 1000;

const temps: { cleanup(): void }[] = [];
let fx: SandboxFixture | undefined;
let clock: ManualClock;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
  for (const t of temps.splice(0)) t.cleanup();
});

function folder(files: Record<string, string>): string {
  const temp = makeTempDir('coverdesk-x12-');
  temps.push(temp);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(temp.dir, name), text);
  return temp.dir;
}
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

async function start(files: Record<string, string>) {
  clock = manualClock();
  fx = await startTestSandbox({ clock, delayMs: DELAY, x12: folder(files) });
}

async function post(collection: string, body: unknown) {
  const answer = await fx!.call('POST', `/v1/${collection}`, body);
  expect(answer.status, answer.text).toBe(201);
  return answer.json;
}

async function check(person: { first_name: string; last_name: string; date_of_birth: string }, memberId: string, payerId = directoryEntityId('CMS')) {
  const patient = await post('patients', person);
  const card = InsuranceCard.parse(await post('insurance_cards', { patient_id: patient.id, member_id: memberId }));
  const created = Check.parse(
    await post('electronic_eligibility_checks', { insurance_card_id: card.id, provider_id: SEED_PROVIDERS[0].id, clearinghouse_entity_id: payerId, service_type: 'hospital' }),
  );
  clock.advance(DELAY);
  const read = await fx!.call('GET', `/v1/electronic_eligibility_checks/${created.id}`);
  const cardNow = InsuranceCard.parse((await fx!.call('GET', `/v1/insurance_cards/${card.id}`)).json);
  return { check: Check.parse(read.json), card: cardNow };
}

describe('the sandbox serves the payer directory', () => {
  it('lists every payer that answers eligibility, paged, the eight old entity ids among them', async () => {
    clock = manualClock();
    fx = await startTestSandbox({ clock });
    const seen: ClearinghouseEntity[] = [];
    let cursor: string | null = null;
    do {
      const page = ListPage(ClearinghouseEntity).parse((await fx.call('GET', `/v1/clearinghouse_entities?limit=100${cursor ? `&cursor=${cursor}` : ''}`)).json);
      seen.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(payerDirectory().length);
    expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
    expect(seen.find((e) => e.payer_id === '84980')?.id).toBe('che_01JD0000000000000000000005');
    expect(seen.find((e) => e.payer_id === '00430')).toEqual({ id: 'che_00430', name: 'Premera Blue Cross of Washington', payer_id: '00430' });
    expect(seen.find((e) => e.payer_id === 'CMS')?.name).toBe('National Centers for Medicare & Medicaid Services');
  });

  it('refuses a check naming a payer it does not know: 422 naming the field, nothing created', async () => {
    clock = manualClock();
    fx = await startTestSandbox({ clock });
    const patient = await post('patients', { first_name: 'A', last_name: 'B', date_of_birth: '1990-01-01' });
    const card = await post('insurance_cards', { patient_id: patient.id, member_id: 'M1' });
    const before = fx.snapshot();
    const answer = await fx.call('POST', '/v1/electronic_eligibility_checks', {
      insurance_card_id: card.id,
      provider_id: SEED_PROVIDERS[0].id,
      clearinghouse_entity_id: 'che_NOSUCHPAYER',
      service_type: 'health_benefit_plan_coverage',
    });
    expect(answer.status).toBe(422);
    expect(JSON.stringify(answer.json)).toContain('clearinghouse_entity_id');
    expect(fx.snapshot()).toEqual(before);
  });
});

describe('npm run sandbox -- --x12 DIR: real 271s answer checks', () => {
  it('a check for a member of a 271 answers with that 271: every EB a benefit, the card active', async () => {
    await start({ 'hets.x12': fixture('oophipaa_4010_Example3_CMS_HETS.x12'), 'uhc.x12': fixture('tigershark_271-example-2.x12') });
    const expected = read271('hets.x12', fixture('oophipaa_4010_Example3_CMS_HETS.x12')).people[0];
    // The 271's names are upper case; the desk's are not: matched as a person would.
    const { check: answer, card } = await check({ first_name: 'Fname', last_name: 'Lname', date_of_birth: '1920-04-01' }, 'hicn');
    expect(answer.status).toBe('success');
    expect(answer.benefits).toEqual(expected.benefits);
    expect(answer.benefits).toHaveLength(26);
    expect(card.plan_status).toBe('active');
  });

  it('where the 271 names the person, another name or date of birth is refused as the payer would (73, 71)', async () => {
    await start({ 'hets.x12': fixture('oophipaa_4010_Example3_CMS_HETS.x12') });
    const wrongName = await check({ first_name: 'Other', last_name: 'Person', date_of_birth: '1920-04-01' }, 'HICN');
    expect(wrongName.check).toMatchObject({ status: 'failure', failure_reason: 'clearinghouse_entity_error', clearinghouse_entity_errors: [{ code: '73', field: 'member_name' }] });
    const wrongBirth = await check({ first_name: 'FNAME', last_name: 'LNAME', date_of_birth: '1921-04-01' }, 'HICN');
    expect(wrongBirth.check.clearinghouse_entity_errors).toMatchObject([{ code: '71', field: 'date_of_birth' }]);
    // A member id no 271 has: the sandbox's own answers, as before.
    const other = await check({ first_name: 'A', last_name: 'B', date_of_birth: '1990-01-01' }, 'W100200300');
    expect(other.check.status).toBe('success');
  });

  it('AAA rejections are entity errors at their levels, with the reason the desk fixes', async () => {
    await start({ 'rej.x12': fixture('tigershark_271-example.x12'), 'dep.x12': fixture('oophipaa_5010_ValidationForDependentName.x12') });
    // The 271 gives no name for this subscriber: the member id alone finds it.
    const subscriber = await check({ first_name: 'Any', last_name: 'Body', date_of_birth: '1970-01-01' }, 'R11111111');
    expect(subscriber.check).toMatchObject({ status: 'failure', failure_reason: 'clearinghouse_entity_error' });
    expect(subscriber.check.clearinghouse_entity_errors?.map((e) => [e.code, e.level, e.field, e.follow_up_action])).toEqual([
      ['72', 'subscriber', 'member_id', 'please_correct_and_resubmit'],
      ['73', 'subscriber', 'member_name', 'please_correct_and_resubmit'],
      ['73', 'subscriber', 'member_name', 'please_correct_and_resubmit'],
      ['58', 'subscriber', 'date_of_birth', 'please_correct_and_resubmit'],
    ]);
    expect(subscriber.check.benefits).toBeUndefined();
    // A dependent-level AAA beside an EB: refused, the EB kept.
    const dependent = await check({ first_name: 'Mary', last_name: 'Smith', date_of_birth: '1965-09-19' }, '123456789');
    expect(dependent.check.clearinghouse_entity_errors?.map((e) => [e.code, e.level])).toEqual([['58', 'dependent']]);
    expect(dependent.check.benefits).toHaveLength(1);
  });
});

describe('bad 271 folders refuse to start, naming the file and the reason, and write nothing', () => {
  const good = () => fixture('oop_5010_Example_3_1_2.x12');
  const cases: [string, Record<string, string>, string][] = [
    ['a file that is not X12', { 'notes.x12': 'hello' }, 'notes.x12: is not X12: it does not begin with an ISA segment'],
    ['a 270', { 'request.x12': good().replace('ST*271*', 'ST*270*') }, 'request.x12: is a 270 (an eligibility request), not a 271 response'],
    ['a truncated file', { 'cut.x12': good().slice(0, good().indexOf('EB*B') + 12) }, 'cut.x12: is truncated: it ends inside a segment (EB) with no segment terminator'],
    ['too many elements', { 'wide.x12': good().replace('N3*15197 BROADWAY AVENUE*APT 215', 'N3*15197 BROADWAY AVENUE*APT 215*X') }, 'wide.x12: has a N3 segment with 3 elements; X12 allows at most 2'],
    [
      'two files about the same person',
      { 'a.x12': good(), 'b.x12': fixture('imsweb_x271.x12') },
      'a.x12 and b.x12: describe the same person (same member id, name and date of birth); keep one answer per person',
    ],
    ['an empty folder', {}, 'holds no 271 file (.x12, .edi, .txt, .271)'],
  ];
  it.each(cases)('%s', async (_name, files, message) => {
    const dir = folder(files);
    const data = makeTempDir();
    temps.push(data);
    const dbFile = path.join(data.dir, 'sandbox.sqlite');
    const started = startSandbox({ apiKey: API_KEY, dbFile, x12: dir });
    await expect(started).rejects.toBeInstanceOf(X12FileError);
    await expect(started).rejects.toThrow(message);
    expect(fs.readdirSync(data.dir)).toEqual([]);
  });
});
