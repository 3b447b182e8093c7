import { dateOfBirthToIso } from '../../../shared/date-of-birth';
import { InsuranceCardCreate, PatientCreate, type ClearinghouseEntity, type ExtractedFields } from '../../../shared/contract';
import { fieldErrorsFromZod } from '../../../shared/service-error';
import { REVIEW_BELOW } from '../../../shared/review-threshold';
import { plainFieldErrors, type FieldMessages } from '../forms/field-errors';
import { localDate } from '../format';

import { CARD_FIELD_LABELS, CARD_TEXT_FIELDS, EMPTY_CARD, PATIENT_FIELD_LABELS, type CardFormField, type CardFormValues, type CardTextField, type PatientFormValues } from './intake-values';

export { CARD_FIELD_LABELS, CARD_TEXT_FIELDS, EMPTY_CARD, EMPTY_PATIENT, PATIENT_FIELD_LABELS, type CardFormField, type CardFormValues, type CardTextField, type PatientFormValues } from './intake-values';

/**
 * Below this an extracted value is marked for a person to check. Measured OCR of clean
 * synthetic cards sits above 0.9; smudged or angled photos fall to 0.5–0.8.
 */
export const LOW_CONFIDENCE = REVIEW_BELOW;

/** The payer a card names, matched to a clearinghouse entity ("AETNA" → Aetna). */
export function matchPayer(name: string, entities: readonly ClearinghouseEntity[]): ClearinghouseEntity | null {
  const wanted = name.trim().toLowerCase();
  if (!wanted) return null;
  return (
    entities.find((e) => e.name.toLowerCase() === wanted) ??
    entities.find((e) => e.name.toLowerCase().includes(wanted) || wanted.includes(e.name.toLowerCase())) ??
    null
  );
}

/** The payer the reading chose, and what that rests on ("the website bcbsil.com"). */
export interface ReadPayer {
  id: string;
  evidence: string;
}

/**
 * What was read off the card merged into the form: what a person typed wins, read values
 * fill the blanks (a field typed and then emptied is a blank). Says which fields to check
 * (low confidence, or a payer name that matched no payer) and which the card did not give
 * at all (the member id: a card always prints one, so a blank one is never left silent).
 */
export function prefillCard(input: {
  values: CardFormValues;
  touched: ReadonlySet<CardFormField>;
  fields: ExtractedFields;
  entities: readonly ClearinghouseEntity[];
}): { values: CardFormValues; review: Set<CardFormField>; missing: Set<CardFormField>; payer?: ReadPayer } {
  const values = { ...input.values };
  const review = new Set<CardFormField>();
  const typed = (field: CardFormField) => input.touched.has(field) && values[field].trim() !== '';
  for (const field of CARD_TEXT_FIELDS) {
    const read = input.fields[field];
    if (!read || !read.value.trim() || typed(field)) continue;
    values[field] = read.value.trim();
    if (read.confidence < LOW_CONFIDENCE) review.add(field);
  }
  const payer = input.fields.payer_name;
  let read: ReadPayer | undefined;
  if (payer?.value.trim() && !typed('payer_id')) {
    const match = matchPayer(payer.value, input.entities);
    if (match) values.payer_id = match.id;
    if (!match || payer.confidence < LOW_CONFIDENCE) review.add('payer_id');
    if (match && payer.evidence) read = { id: match.id, evidence: payer.evidence };
  }
  const missing = new Set<CardFormField>(values.member_id.trim() ? [] : ['member_id']);
  return { values, review, missing, ...(read ? { payer: read } : {}) };
}

/** A saved card's fields as the form shows them, for correcting it. */
export function cardFormValues(card: Partial<Record<CardTextField, string>> & { insurance_carrier_ids: readonly string[] }): CardFormValues {
  const values: CardFormValues = { ...EMPTY_CARD, payer_id: card.insurance_carrier_ids[0] ?? '' };
  for (const field of CARD_TEXT_FIELDS) values[field] = card[field] ?? '';
  return values;
}

/** The card request: trimmed, empty fields left out (the contract refuses empty strings). */
export function cardCreateInput(patientId: string, values: CardFormValues, photos: { front?: string; back?: string }): InsuranceCardCreate {
  const input: InsuranceCardCreate = { patient_id: patientId };
  for (const field of CARD_TEXT_FIELDS) {
    const value = values[field].trim();
    if (value) input[field] = value;
  }
  if (values.payer_id) input.insurance_carrier_ids = [values.payer_id];
  if (photos.front) input.front_photo_object_key = photos.front;
  if (photos.back) input.back_photo_object_key = photos.back;
  return input;
}

/**
 * The patient request, or what to fix first in plain words. The date of birth is typed as
 * a desk writes it (03/07/1984) and sent as the contract wants it (1984-03-07).
 */
export function patientCreateInput(values: PatientFormValues): { ok: true; input: PatientCreate } | { ok: false; errors: FieldMessages } {
  const errors: FieldMessages = {};
  const first = values.first_name.trim();
  const last = values.last_name.trim();
  if (!first) errors.first_name = 'First name is required.';
  if (!last) errors.last_name = 'Last name is required.';
  const dob = dateOfBirthToIso(values.date_of_birth, localDate());
  if (!values.date_of_birth.trim()) errors.date_of_birth = 'Date of birth is required.';
  else if (!dob) errors.date_of_birth = 'Date of birth must be a real date, written like 03/07/1984.';
  if (Object.keys(errors).length > 0 || !dob) return { ok: false, errors };
  const input = { first_name: first, last_name: last, date_of_birth: dob };
  // The contract's own rules (not in the future, not before 1900, length), in the host's words.
  const checked = PatientCreate.safeParse(input);
  if (!checked.success) return { ok: false, errors: plainFieldErrors({ errors: fieldErrorsFromZod(checked.error, input) }, PATIENT_FIELD_LABELS) };
  return { ok: true, input: checked.data };
}

/**
 * The card's fields against the contract before anything is saved: a new patient is
 * registered only once the card that goes with them would be accepted too, so a refused
 * intake writes nothing. (The patient id is not known yet; any well-formed one stands in.)
 */
export function cardFieldErrors(values: CardFormValues): FieldMessages {
  const input = cardCreateInput('pat_pending', values, {});
  const checked = InsuranceCardCreate.safeParse(input);
  return checked.success ? {} : plainFieldErrors({ errors: fieldErrorsFromZod(checked.error, input) }, CARD_FIELD_LABELS);
}
