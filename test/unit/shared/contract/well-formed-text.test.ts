import { describe, expect, it } from 'vitest';
import { InsuranceCardCreate, PatientCreate } from '@src/shared/contract';
import { fieldErrorsFromZod } from '@src/shared/service-error';
import { AppointmentCreate } from '@src/shared/bridge/appointment-contract';

/**
 * A lone UTF-16 surrogate is valid JSON (`"\ud800"`) but not text storage can keep: SQLite
 * would store U+FFFD in its place, and the record read back would not be the one sent.
 * Found by the OpenAPI fuzzer; refused here, naming the field.
 */
describe('free text refuses broken Unicode', () => {
  const patient = { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' };

  it.each(['\ud800', 'A\udc00b', 'x\ud83d'])('refuses %j in names, card text and reference ids', (text) => {
    const bad = PatientCreate.safeParse({ ...patient, first_name: text });
    expect(bad.success).toBe(false);
    expect(fieldErrorsFromZod(bad.error!, { ...patient, first_name: text })).toEqual([
      { path: 'first_name', code: 'invalid_format', message: 'first_name must not contain broken Unicode (a lone surrogate).' },
    ]);
    for (const field of ['member_id', 'plan_name', 'reference_id']) {
      const card = InsuranceCardCreate.safeParse({ patient_id: 'pat_1', [field]: text });
      expect(card.success, field).toBe(false);
      expect(card.error!.issues[0].path).toEqual([field]);
    }
    const appointment = { date: '2026-11-24', time: '09:30', ...patient };
    for (const field of ['phone', 'provider', 'visit_type', 'location', 'external_id']) {
      const bad = AppointmentCreate.safeParse({ ...appointment, [field]: text });
      expect(bad.success, field).toBe(false);
      expect(bad.error!.issues[0].path).toEqual([field]);
    }
  });

  it('keeps well-formed text outside the basic plane (emoji, CJK extension B) as sent', () => {
    const text = '😀 𠀋 Zoë';
    expect(PatientCreate.parse({ ...patient, first_name: text }).first_name).toBe(text);
    expect(InsuranceCardCreate.parse({ patient_id: 'pat_1', member_id: text, reference_id: text })).toMatchObject({ member_id: text, reference_id: text });
  });
});
