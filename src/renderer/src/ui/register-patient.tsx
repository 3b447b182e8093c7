import type { Patient } from '../../../shared/contract';
import { dateOfBirthToIso } from '../../../shared/date-of-birth';
import { useBridge } from '../bridge/bridge-provider';
import { formMessage } from '../forms/field-errors';
import { formatDob, localDate } from '../format';
import { EMPTY_PATIENT, type PatientFormValues } from '../intake/intake-form';
import { Button } from './button';
import { PatientDetailsFields, usePatientDetailsForm } from './patient-details-form';

/** What was searched, as a start for the form: "Okafor, Ines", "Ines Okafor" or a date of birth. */
export function patientFromQuery(query: string): PatientFormValues {
  const text = query.trim();
  const dob = dateOfBirthToIso(text, localDate());
  if (dob) return { ...EMPTY_PATIENT, date_of_birth: formatDob(dob) };
  if (/\d/.test(text)) return EMPTY_PATIENT;
  if (text.includes(',')) {
    const [last, first] = text.split(',', 2).map((part) => part.trim()) as [string, string];
    return { ...EMPTY_PATIENT, first_name: first, last_name: last };
  }
  // One word is the last name (what a desk searches by); more: the last word is.
  const words = text.split(/\s+/).filter(Boolean);
  return { ...EMPTY_PATIENT, first_name: words.slice(0, -1).join(' '), last_name: words[words.length - 1] ?? '' };
}

/**
 * Registers a patient where the search came up empty (Discovery, for a patient with no
 * card): the patient and a blank card, so a discovery can start from them at once.
 */
export function RegisterPatient({ query, submitLabel, onRegistered }: { query: string; submitLabel: string; onRegistered(patient: Patient, cardId: string): Promise<void> | void }) {
  const bridge = useBridge();
  const form = usePatientDetailsForm(
    () => patientFromQuery(query),
    async (input) => {
      const patient = await bridge.patients.create(input);
      if (!patient.ok) return { error: patient.error, message: formMessage(patient.error) };
      const card = await bridge.cards.create({ patient_id: patient.value.id });
      if (!card.ok) return { message: `The patient was registered, but their blank card was not: ${card.error.message}` };
      await onRegistered(patient.value, card.value.id);
      return undefined;
    },
  );

  return (
    <form className="stack" onSubmit={(event) => void form.submit(event)} aria-labelledby="register-here-title" noValidate>
      <h2 id="register-here-title">Register a new patient</h2>
      <p className="muted">For a patient with no card: register them here, then Coverdesk asks payers which coverage they have.</p>
      <PatientDetailsFields form={form} idPrefix="register" />
      <div className="row">
        <Button type="submit" variant="primary" disabled={form.busy}>
          {form.busy ? 'Registering…' : submitLabel}
        </Button>
      </div>
    </form>
  );
}
