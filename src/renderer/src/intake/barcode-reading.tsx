import type { BarcodeReading, ExtractedFields, LicenceDetails } from '../../../shared/contract';
import { formatDob } from '../format';
import { Button } from '../ui/button';
import { splitMemberName } from './member-name';

export type FieldSource = 'barcode' | 'digital_card';

/** The marker under a field a barcode filled: exact, not read by eye. */
export const SOURCE_WORDS: Record<FieldSource, string> = {
  barcode: 'From the card’s barcode.',
  digital_card: 'From the digital card.',
};

export const WAITING_NOTICE = 'Waiting for the digital card: completes when the desk is back online. You can save the card with what you have: its details are offered when it arrives.';

/** What the desk is told about a barcode read, or null when the fields or the offer say it all. */
export function barcodeNotice(reading: BarcodeReading): string | null {
  if (reading.status === 'invalid' || reading.status === 'failed') return `The barcode could not be used: ${reading.reason ?? 'it could not be read'} Nothing was filled from it.`;
  if (reading.kind === 'unknown') return 'A barcode of no layout Coverdesk knows was read: it is kept as it is, and nothing was filled from it.';
  if (reading.kind === 'digital_card' && reading.status === 'not_verified') return `The digital card is not verified${reading.reason ? `: ${reading.reason}` : ''}. Check its values against the card before saving.`;
  // A link with its id: Intake shows that it waits for as long as it does (WAITING_NOTICE).
  if (reading.kind === 'digital_card' && reading.status === 'waiting') return reading.waiting_id ? null : (reading.reason ?? WAITING_NOTICE);
  return null;
}

/** A card's fields from a barcode, as the reader's fields (exact: confidence 1, with their source). */
export function readingAsFields(reading: BarcodeReading): ExtractedFields | null {
  if (reading.status === 'invalid' || reading.status === 'failed' || reading.status === 'waiting' || !reading.fields) return null;
  const source: FieldSource = reading.kind === 'digital_card' ? 'digital_card' : 'barcode';
  const fields: ExtractedFields = {};
  for (const [name, value] of Object.entries(reading.fields)) if (value) fields[name as keyof ExtractedFields] = { value, confidence: 1, source };
  return Object.keys(fields).length > 0 ? fields : null;
}

/** The patient form's values from a licence: the names as a person writes them, the date of birth as the form shows it. */
export function licencePatient(licence: LicenceDetails): { first_name: string; last_name: string; date_of_birth: string } {
  const split = splitMemberName(`${licence.family_name}, ${licence.first_name}`);
  return { first_name: split?.first ?? licence.first_name, last_name: split?.last ?? licence.family_name, date_of_birth: formatDob(licence.date_of_birth) };
}

const SEX_WORDS = { male: 'male', female: 'female', unspecified: 'sex not specified' } as const;

/** "Use these details?": a licence's details offered for the new patient, never filled silently. */
export function LicenceOffer({ licence, onUse, onDecline }: { licence: LicenceDetails; onUse: () => void; onDecline: () => void }) {
  const p = licencePatient(licence);
  const middle = licence.middle_name?.toLowerCase().replace(/(^|[\s-])\p{L}/gu, (c) => c.toUpperCase());
  const address = licence.address ? [licence.address.street, licence.address.city, [licence.address.state, licence.address.postal_code].filter(Boolean).join(' ')].filter(Boolean).join(', ') : null;
  return (
    <div className="name-offer" role="group" aria-labelledby="licence-offer-text" data-testid="licence-offer">
      <p id="licence-offer-text">
        Read from a {licence.document === 'id_card' ? 'state ID' : 'driver’s licence'}: <strong>{[p.first_name, middle, p.last_name].filter(Boolean).join(' ')}</strong>, born {p.date_of_birth}
        {licence.sex ? `, ${SEX_WORDS[licence.sex]}` : ''}
        {address ? `; ${address}` : ''}. Use these details for the new patient?
      </p>
      <div className="row">
        <Button size="small" variant="primary" onClick={onUse}>
          Use these details
        </Button>
        <Button size="small" onClick={onDecline}>
          No, not this patient
        </Button>
      </div>
    </div>
  );
}

type PatientDetails = { first_name: string; last_name: string; date_of_birth: string };

const sameName = (a: string, b: string) => a.normalize('NFKD').replace(/[^\p{L}]/gu, '').toLowerCase() === b.normalize('NFKD').replace(/[^\p{L}]/gu, '').toLowerCase();

/** Where a licence and the patient's record disagree (name, date of birth), in words; empty when they agree. */
export function licenceDifferences(licence: LicenceDetails, patient: PatientDetails): string[] {
  const read = licencePatient(licence);
  const differ: string[] = [];
  if (!sameName(read.first_name, patient.first_name)) differ.push(`first name ${read.first_name} (the record: ${patient.first_name})`);
  if (!sameName(read.last_name, patient.last_name)) differ.push(`last name ${read.last_name} (the record: ${patient.last_name})`);
  if (licence.date_of_birth !== patient.date_of_birth) differ.push(`date of birth ${read.date_of_birth} (the record: ${formatDob(patient.date_of_birth)})`);
  return differ;
}

/** A licence scanned for a patient already chosen: confirms them, or says what differs. The record is never changed by it. */
export function LicenceCheck({ licence, patient, onDismiss }: { licence: LicenceDetails; patient: PatientDetails; onDismiss: () => void }) {
  const differ = licenceDifferences(licence, patient);
  const what = licence.document === 'id_card' ? 'state ID' : 'licence';
  return (
    <div className={`notice notice--${differ.length > 0 ? 'warn' : 'ok'} row`} role="status" data-testid="licence-check">
      <span>
        {differ.length > 0
          ? `Details on the ${what} differ: ${differ.join('; ')}. The record is not changed: if the ${what} is right, correct the patient’s details.`
          : `The ${what} matches ${patient.first_name} ${patient.last_name}, born ${formatDob(patient.date_of_birth)}.`}
      </span>
      <Button size="small" onClick={onDismiss}>
        Dismiss
      </Button>
    </div>
  );
}
