import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { PatientCorrected } from '../../../shared/bridge/desk-contract';
import type { Patient } from '../../../shared/contract';
import { useBridge } from '../bridge/bridge-provider';
import { formMessage, plainFieldErrors, type FieldMessages } from '../forms/field-errors';
import { formatDob } from '../format';
import { PATIENT_FIELD_LABELS, patientCreateInput, type PatientFormValues } from '../intake/intake-form';
import { Button } from './button';
import { DateOfBirthField } from './date-of-birth-field';
import { TextField } from './field';
import { Notice } from './notice';

/** The label of the one action that corrects a patient's name or date of birth, wherever it is offered. */
export const CORRECT_PATIENT = 'Correct the patient’s details';

/** What happened, in plain words: on this desk, in the audit log, and at the eligibility service. */
export function correctionNote(result: Pick<PatientCorrected, 'upstream' | 'cards_resent'>): string {
  const here = 'Saved the corrected name and date of birth on this patient’s chart (recorded in the audit log).';
  if (result.upstream === 'not_sent_yet') return `${here} The eligibility service had not received this patient yet: it receives the corrected details.`;
  const cards = result.cards_resent === 1 ? 'their card' : result.cards_resent > 1 ? `their ${result.cards_resent} cards` : null;
  return `${here} The eligibility service cannot change a patient it already has, so ${cards ? `the corrected patient and ${cards} are sent to it as new records` : 'the corrected patient is sent to it as a new record'}: every check and discovery sent from now on uses the corrected details. Run it again.`;
}

/**
 * Corrects a patient's name or date of birth on their chart (never a second chart). Opens
 * with the details on file; focus starts on the field the payer refused, when one is named.
 */
export function CorrectPatientForm({
  patient,
  focus = 'first_name',
  onCancel,
  onSaved,
}: {
  patient: Patient;
  focus?: keyof PatientFormValues;
  onCancel(): void;
  onSaved(result: PatientCorrected): void;
}) {
  const bridge = useBridge();
  const [values, setValues] = useState<PatientFormValues>({ first_name: patient.first_name, last_name: patient.last_name, date_of_birth: formatDob(patient.date_of_birth) });
  const [errors, setErrors] = useState<FieldMessages>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    formRef.current?.querySelector<HTMLInputElement>(`#correct-patient-${focus.replace(/_/g, '-')}`)?.focus();
  }, [focus]);

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
      const result = await bridge.patients.correct({ id: patient.id, ...checked.input });
      if (!result.ok) {
        setErrors(plainFieldErrors(result.error, PATIENT_FIELD_LABELS));
        setFailure(result.error.code === 'nothing_to_correct' ? result.error.message : formMessage(result.error));
        return;
      }
      onSaved(result.value);
    } finally {
      setBusy(false);
    }
  };

  const set = (field: keyof PatientFormValues) => (value: string) => setValues((current) => ({ ...current, [field]: value }));
  return (
    <form ref={formRef} className="panel stack" onSubmit={(event) => void submit(event)} aria-labelledby="correct-patient-title" noValidate>
      <h2 id="correct-patient-title">{CORRECT_PATIENT}</h2>
      <p className="muted">
        Type the name and date of birth exactly as the patient’s ID or card shows them. This corrects this chart; no second patient is made.
      </p>
      <div className="grid-3">
        <TextField id="correct-patient-first-name" label="First name" autoComplete="off" value={values.first_name} error={errors.first_name} onChange={set('first_name')} />
        <TextField id="correct-patient-last-name" label="Last name" autoComplete="off" value={values.last_name} error={errors.last_name} onChange={set('last_name')} />
        <DateOfBirthField id="correct-patient-date-of-birth" value={values.date_of_birth} error={errors.date_of_birth} onChange={set('date_of_birth')} />
      </div>
      {failure && (
        <Notice tone="bad" live>
          {failure}
        </Notice>
      )}
      <div className="row">
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save the corrected details'}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
