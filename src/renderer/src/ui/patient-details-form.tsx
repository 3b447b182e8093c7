import { useState, type FormEvent } from 'react';
import type { BridgeError } from '../../../shared/bridge/contract';
import type { PatientCreate } from '../../../shared/contract';
import { plainFieldErrors, type FieldMessages } from '../forms/field-errors';
import { PATIENT_FIELD_LABELS, patientCreateInput, type PatientFormValues } from '../intake/intake-form';
import { DateOfBirthField } from './date-of-birth-field';
import { TextField } from './field';
import { Notice } from './notice';

/** Why a save did not happen: the bridge's error (its field messages go under each field) and the line shown to the person. */
export interface PatientDetailsRefusal {
  error?: BridgeError;
  message: string;
}

export interface PatientDetailsForm {
  values: PatientFormValues;
  errors: FieldMessages;
  failure: string | null;
  busy: boolean;
  set(field: keyof PatientFormValues): (value: string) => void;
  submit(event: FormEvent): Promise<void>;
}

/**
 * A patient's name and date of birth being typed, checked here first and then saved by
 * `save` (registering or correcting). One submit at a time; what was typed stays in the form
 * whatever the answer, so a refusal never loses it.
 */
export function usePatientDetailsForm(initial: () => PatientFormValues, save: (input: PatientCreate) => Promise<PatientDetailsRefusal | undefined>): PatientDetailsForm {
  const [values, setValues] = useState<PatientFormValues>(initial);
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
      const refused = await save(checked.input);
      if (refused) {
        if (refused.error) setErrors(plainFieldErrors(refused.error, PATIENT_FIELD_LABELS));
        setFailure(refused.message);
      }
    } finally {
      setBusy(false);
    }
  };

  const set = (field: keyof PatientFormValues) => (value: string) => setValues((current) => ({ ...current, [field]: value }));
  return { values, errors, failure, busy, set, submit };
}

/** The three fields and the form's failure line; `idPrefix` keeps two such forms on one page apart. */
export function PatientDetailsFields({ form, idPrefix }: { form: PatientDetailsForm; idPrefix: string }) {
  const { values, errors, failure, set } = form;
  return (
    <>
      <div className="grid-3">
        <TextField id={`${idPrefix}-first-name`} label="First name" autoComplete="off" value={values.first_name} error={errors.first_name} onChange={set('first_name')} />
        <TextField id={`${idPrefix}-last-name`} label="Last name" autoComplete="off" value={values.last_name} error={errors.last_name} onChange={set('last_name')} />
        <DateOfBirthField id={`${idPrefix}-date-of-birth`} value={values.date_of_birth} error={errors.date_of_birth} onChange={set('date_of_birth')} />
      </div>
      {failure && (
        <Notice tone="bad" live>
          {failure}
        </Notice>
      )}
    </>
  );
}
