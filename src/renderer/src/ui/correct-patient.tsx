import { useEffect, useRef } from 'react';
import type { PatientCorrected } from '../../../shared/bridge/desk-contract';
import type { Patient } from '../../../shared/contract';
import { useBridge } from '../bridge/bridge-provider';
import { formMessage } from '../forms/field-errors';
import { formatDob } from '../format';
import type { PatientFormValues } from '../intake/intake-form';
import { Button } from './button';
import { PatientDetailsFields, usePatientDetailsForm } from './patient-details-form';

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
  const form = usePatientDetailsForm(
    () => ({ first_name: patient.first_name, last_name: patient.last_name, date_of_birth: formatDob(patient.date_of_birth) }),
    async (input) => {
      const result = await bridge.patients.correct({ id: patient.id, ...input });
      if (!result.ok) return { error: result.error, message: result.error.code === 'nothing_to_correct' ? result.error.message : formMessage(result.error) };
      onSaved(result.value);
      return undefined;
    },
  );
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    formRef.current?.querySelector<HTMLInputElement>(`#correct-patient-${focus.replace(/_/g, '-')}`)?.focus();
  }, [focus]);

  return (
    <form ref={formRef} className="panel stack" onSubmit={(event) => void form.submit(event)} aria-labelledby="correct-patient-title" noValidate>
      <h2 id="correct-patient-title">{CORRECT_PATIENT}</h2>
      <p className="muted">
        Type the name and date of birth exactly as the patient’s ID or card shows them. This corrects this chart; no second patient is made.
      </p>
      <PatientDetailsFields form={form} idPrefix="correct-patient" />
      <div className="row">
        <Button type="submit" variant="primary" disabled={form.busy}>
          {form.busy ? 'Saving…' : 'Save the corrected details'}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
