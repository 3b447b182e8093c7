import { useState, type FormEvent } from 'react';
import type { Patient } from '../../../shared/contract';
import { dateOfBirthToIso } from '../../../shared/date-of-birth';
import { useBridge } from '../bridge/bridge-provider';
import { formMessage, plainFieldErrors, type FieldMessages } from '../forms/field-errors';
import { formatDob, localDate } from '../format';
import { EMPTY_PATIENT, PATIENT_FIELD_LABELS, patientCreateInput, type PatientFormValues } from '../intake/intake-form';
import { Button } from './button';
import { DateOfBirthField } from './date-of-birth-field';
import { TextField } from './field';
import { Notice } from './notice';

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
  const [values, setValues] = useState<PatientFormValues>(() => patientFromQuery(query));
  const [errors, setErrors] = useState<FieldMessages>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    const checked = patientCreateInput(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const patient = await bridge.patients.create(checked.input);
      if (!patient.ok) {
        setErrors(plainFieldErrors(patient.error, PATIENT_FIELD_LABELS));
        setFailure(formMessage(patient.error));
        return;
      }
      const card = await bridge.cards.create({ patient_id: patient.value.id });
      if (!card.ok) {
        setFailure(`The patient was registered, but their blank card was not: ${card.error.message}`);
        return;
      }
      await onRegistered(patient.value, card.value.id);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="stack" onSubmit={(event) => void submit(event)} aria-labelledby="register-here-title" noValidate>
      <h2 id="register-here-title">Register a new patient</h2>
      <p className="muted">For a patient with no card: register them here, then Coverdesk asks payers which coverage they have.</p>
      <div className="grid-3">
        <TextField id="register-first" label="First name" autoComplete="off" value={values.first_name} error={errors.first_name} onChange={(v) => setValues((p) => ({ ...p, first_name: v }))} />
        <TextField id="register-last" label="Last name" autoComplete="off" value={values.last_name} error={errors.last_name} onChange={(v) => setValues((p) => ({ ...p, last_name: v }))} />
        <DateOfBirthField id="register-dob" value={values.date_of_birth} error={errors.date_of_birth} onChange={(v) => setValues((p) => ({ ...p, date_of_birth: v }))} />
      </div>
      {failure && (
        <Notice tone="bad" live>
          {failure}
        </Notice>
      )}
      <div className="row">
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Registering…' : submitLabel}
        </Button>
      </div>
    </form>
  );
}
