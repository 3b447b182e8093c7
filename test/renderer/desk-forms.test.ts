import { describe, expect, it } from 'vitest';
import { parseDeskQuery, matchesDeskQuery } from '@src/shared/bridge/desk-search';
import type { DeskPatientRow } from '@src/shared/bridge/desk-contract';
import { formMessage, plainFieldErrors } from '@src/renderer/src/forms/field-errors';
import { CARD_FIELD_LABELS, EMPTY_CARD, cardCreateInput, cardFieldErrors, matchPayer, patientCreateInput, prefillCard } from '@src/renderer/src/intake/intake-form';
import { checkPhotoFile, objectKeyFromUrl } from '@src/renderer/src/intake/photo-file';
import { SERVICE_TYPE_OPTIONS, filterServiceTypes } from '@src/renderer/src/eligibility/service-type-options';
import { todayMatches, visibleRange } from '@src/renderer/src/today/today-rows';
import { formatCents, formatDob, formatPercent } from '@src/renderer/src/format';
import { SERVICE_TYPES } from '@src/shared/contract';

const KEY = `${'a'.repeat(64)}.jpg`;
const SEED_CLEARINGHOUSE_ENTITIES = [
  { id: 'che_aetna', name: 'Aetna', payer_id: '60054' },
  { id: 'che_cigna', name: 'Cigna', payer_id: '62308' },
  { id: 'che_bcbstx', name: 'Blue Cross Blue Shield of Texas', payer_id: '84980' },
];

describe('field errors in plain words', () => {
  it('puts the label where the field name was and keeps what is allowed', () => {
    const messages = plainFieldErrors(
      {
        errors: [
          { path: 'member_id', code: 'too_big', message: 'member_id must be at most 200 characters.' },
          { path: 'member_id', code: 'invalid_format', message: 'second problem, not shown' },
          { path: 'date_of_birth', code: 'invalid_format', message: 'date_of_birth must not be in the future.' },
          { path: 'insurance_carrier_ids.0', code: 'not_found', message: 'No clearinghouse entity with id che_x exists.' },
          { path: 'first_name', code: 'required', message: 'first_name is required.' },
        ],
      },
      { ...CARD_FIELD_LABELS, date_of_birth: 'Date of birth', first_name: 'First name' },
    );
    expect(messages).toEqual({
      member_id: 'Member id must be at most 200 characters.',
      date_of_birth: 'Date of birth must not be in the future.',
      insurance_carrier_ids: 'Payer: that choice no longer exists. Choose again.',
      first_name: 'First name is required.',
    });
  });

  it('says where to look when fields are named, and hides internal errors', () => {
    expect(formMessage({ type: 'invalid_request_error', code: 'validation_failed', message: 'x', errors: [{ path: 'a', code: 'required', message: '' }], status: 422 })).toMatch(/below each one/);
    expect(formMessage({ type: 'api_error', code: 'internal_error', message: 'boom', status: 500 })).toMatch(/Nothing you entered was lost/);
  });
});

describe('intake form', () => {
  it('reads the date of birth as typed at a desk and names each missing field', () => {
    expect(patientCreateInput({ first_name: ' Ada ', last_name: 'Lovelace', date_of_birth: '12/10/1985' })).toEqual({
      ok: true,
      input: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' },
    });
    expect(patientCreateInput({ first_name: '', last_name: ' ', date_of_birth: '02/30/1985' })).toEqual({
      ok: false,
      errors: { first_name: 'First name is required.', last_name: 'Last name is required.', date_of_birth: 'Date of birth must be a real date, written like 03/07/1984.' },
    });
  });

  it('pre-fills untouched fields from the card, marks low confidence and unmatched payers for review', () => {
    const { values, review } = prefillCard({
      values: { ...EMPTY_CARD, group_number: 'typed' },
      touched: new Set(['group_number']),
      fields: {
        member_id: { value: 'XJ4410', confidence: 0.97 },
        member_name: { value: 'ADA LOVELACE', confidence: 0.62 },
        group_number: { value: '999', confidence: 0.99 },
        payer_name: { value: 'AETNA', confidence: 0.95 },
      },
      entities: SEED_CLEARINGHOUSE_ENTITIES,
    });
    expect(values).toMatchObject({ member_id: 'XJ4410', member_name: 'ADA LOVELACE', group_number: 'typed', payer_id: SEED_CLEARINGHOUSE_ENTITIES[0].id });
    expect([...review]).toEqual(['member_name']);
    const unknownPayer = prefillCard({ values: EMPTY_CARD, touched: new Set(), fields: { payer_name: { value: 'Acme Health', confidence: 0.99 } }, entities: SEED_CLEARINGHOUSE_ENTITIES });
    expect(unknownPayer.values.payer_id).toBe('');
    expect([...unknownPayer.review]).toEqual(['payer_id']);
    expect(matchPayer('blue cross blue shield of texas', SEED_CLEARINGHOUSE_ENTITIES)?.payer_id).toBe('84980');
  });

  it('keeps what the reading\'s payer rests on, for the desk to see beside it', () => {
    const aetna = SEED_CLEARINGHOUSE_ENTITIES.find((e) => e.name === 'Aetna')!;
    const read = prefillCard({ values: EMPTY_CARD, touched: new Set(), fields: { payer_name: { value: 'Aetna', confidence: 0.97, evidence: 'the website aetna.com' } }, entities: SEED_CLEARINGHOUSE_ENTITIES });
    expect(read.payer).toEqual({ id: aetna.id, evidence: 'the website aetna.com' });
    // A payer the person typed is theirs: the reading's evidence is not shown for it.
    const typed = prefillCard({ values: { ...EMPTY_CARD, payer_id: 'che_x' }, touched: new Set(['payer_id']), fields: { payer_name: { value: 'Aetna', confidence: 0.97, evidence: 'the website aetna.com' } }, entities: SEED_CLEARINGHOUSE_ENTITIES });
    expect(typed.payer).toBeUndefined();
  });

  it('builds the card request without empty fields', () => {
    expect(cardCreateInput('pat_1', { ...EMPTY_CARD, member_id: ' M1 ', payer_id: 'che_1' }, { front: KEY })).toEqual({
      patient_id: 'pat_1',
      member_id: 'M1',
      insurance_carrier_ids: ['che_1'],
      front_photo_object_key: KEY,
    });
  });

  it('checks a photo before uploading it', () => {
    expect(checkPhotoFile({ type: 'image/png', size: 10 })).toEqual({ ok: true, content_type: 'image/png' });
    expect(checkPhotoFile({ type: 'image/gif', size: 10 })).toMatchObject({ ok: false, message: expect.stringMatching(/JPEG or PNG/) });
    expect(checkPhotoFile({ type: 'image/jpeg', size: 11 * 1024 * 1024 })).toMatchObject({ ok: false });
    expect(objectKeyFromUrl(`/v1/photos/${KEY}`)).toBe(KEY);
    expect(objectKeyFromUrl('https://up.example/files/x.jpg')).toBeUndefined();
  });
});

describe('search and lists', () => {
  const row = (first: string, last: string, dob: string, member_id?: string): DeskPatientRow => ({
    patient_id: `pat_${first}`,
    first_name: first,
    last_name: last,
    date_of_birth: dob,
    member_id,
    eligibility: 'none',
    last_activity_at: '2026-01-01T00:00:00.000Z',
    sync_state: 'synced',
  });
  const rows = [row('Mary', "O'Brien-Smith", '1984-03-07', 'XJ-44 102'), row('Marty', 'McFly', '1968-06-12', 'BTTF 1985')];

  it('reads a query as a date of birth, a member id or name words', () => {
    expect(parseDeskQuery('3/7/1984')).toEqual({ kind: 'date_of_birth', date_of_birth: '1984-03-07' });
    expect(parseDeskQuery('xj-44 1')).toEqual({ kind: 'member_id', member_id: 'XJ441' });
    expect(parseDeskQuery('Smith, Mary')).toEqual({ kind: 'name', tokens: ['smith', 'mary'] });
    expect(parseDeskQuery('  ')).toEqual({ kind: 'empty' });
    expect(matchesDeskQuery(rows[0], parseDeskQuery('obrien'))).toBe(true);
    expect(matchesDeskQuery(rows[0], parseDeskQuery('brien'))).toBe(false);
  });

  it("filters today's rows and adds the host's other matches once", () => {
    expect(todayMatches(rows, '').length).toBe(2);
    expect(todayMatches(rows, 'mar').map((r) => r.first_name)).toEqual(['Mary', 'Marty']);
    expect(todayMatches(rows, 'bttf').map((r) => r.first_name)).toEqual([]);
    expect(todayMatches(rows, 'bttf1', [rows[1], row('Other', 'Person', '2000-01-01', 'BTTF 12')]).map((r) => r.first_name)).toEqual(['Marty', 'Other']);
  });

  it('renders only the visible slice of 10,000 rows', () => {
    expect(visibleRange({ scrollTop: 0, viewportHeight: 600, rowHeight: 60, count: 10_000 })).toEqual({ start: 0, end: 16 });
    expect(visibleRange({ scrollTop: 300_000, viewportHeight: 600, rowHeight: 60, count: 10_000 })).toEqual({ start: 4994, end: 5016 });
    expect(visibleRange({ scrollTop: 10_000_000, viewportHeight: 600, rowHeight: 60, count: 10_000 }).end).toBe(10_000);
    expect(visibleRange({ scrollTop: 0, viewportHeight: 600, rowHeight: 60, count: 0 })).toEqual({ start: 0, end: 0 });
  });

  it('offers all service types, common ones first, searchable by words or X12 code', () => {
    expect(SERVICE_TYPE_OPTIONS.length).toBe(SERVICE_TYPES.length);
    expect(SERVICE_TYPE_OPTIONS[0].value).toBe('health_benefit_plan_coverage');
    expect(filterServiceTypes('office sick').map((o) => o.value)).toEqual(['physician_visit_office_sick']);
    expect(filterServiceTypes('UC').map((o) => o.value)).toEqual(['urgent_care']);
    expect(filterServiceTypes('urg')[0].value).toBe('urgent_care');
  });

  it('formats money, percentages and dates of birth for the desk', () => {
    expect(formatCents(112550)).toBe('$1,125.50');
    expect(formatCents(0)).toBe('$0.00');
    expect(formatPercent(0.2)).toBe('20%');
    expect(formatPercent(0.125)).toBe('12.5%');
    expect(formatDob('1984-03-07')).toBe('03/07/1984');
  });
});

describe('intake checked against the contract before anything is saved', () => {
  it('refuses a date of birth in the future or before 1900 in the host’s words', () => {
    const future = new Date(Date.now() + 3 * 86_400_000);
    const typed = `${String(future.getMonth() + 1).padStart(2, '0')}/${String(future.getDate()).padStart(2, '0')}/${future.getFullYear()}`;
    expect(patientCreateInput({ first_name: 'A', last_name: 'B', date_of_birth: typed })).toEqual({ ok: false, errors: { date_of_birth: 'Date of birth must not be in the future.' } });
    expect(patientCreateInput({ first_name: 'A', last_name: 'B', date_of_birth: '12/31/1899' })).toEqual({ ok: false, errors: { date_of_birth: 'Date of birth must not be before 1900-01-01.' } });
    expect(patientCreateInput({ first_name: 'x'.repeat(101), last_name: 'B', date_of_birth: '01/01/1990' })).toEqual({ ok: false, errors: { first_name: 'First name must be at most 100 characters.' } });
  });

  it('names each card field the contract refuses', () => {
    expect(cardFieldErrors({ ...EMPTY_CARD, member_id: 'M'.repeat(201), rx_bin: 'a\u0007b' })).toEqual({
      member_id: 'Member id must be at most 200 characters.',
      rx_bin: 'Rx BIN must not contain control characters.',
    });
    expect(cardFieldErrors({ ...EMPTY_CARD, member_id: 'W123' })).toEqual({});
  });
});
