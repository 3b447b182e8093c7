import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Check, FixableField, InsuranceCard } from '../../../shared/contract';
import { Button } from '../ui/button';
import { CORRECT_PATIENT } from '../ui/correct-patient';
import { TextField } from '../ui/field';
import { FIXABLE_FIELD_LABELS, explainFailure } from './aaa-fixes';
import type { CardCorrection } from './corrected-card';

const CARD_FIELDS = ['member_id', 'member_name', 'group_number'] as const;
type CardField = (typeof CARD_FIELDS)[number];
const CHECK_FIELDS: readonly FixableField[] = ['provider_id', 'clearinghouse_entity_id', 'service_type'];
const PATIENT_FIELDS = ['first_name', 'last_name', 'date_of_birth'] as const;
type PatientField = (typeof PATIENT_FIELDS)[number];
const isPatientField = (field: FixableField | null): field is PatientField => (PATIENT_FIELDS as readonly string[]).includes(field ?? '');

interface FailureViewProps {
  check: Check;
  card: InsuranceCard | undefined;
  busy: boolean;
  /** Run again, with the card fields corrected (a new card) where any changed. */
  onRerun(corrections: CardCorrection): void;
  /** Move focus to the check form's control for this field. */
  onFocusField(field: FixableField): void;
  /** Open the correction of the patient's name or date of birth, at the field the payer refused. */
  onCorrectPatient(field: PatientField): void;
}

/** Why the check failed, what to do for each reason, and a one-click re-run after the fix. */
export function FailureView({ check, card, busy, onRerun, onFocusField, onCorrectPatient }: FailureViewProps) {
  const explanations = explainFailure(check);
  const fields = new Set(explanations.map((e) => e.field).filter((f): f is FixableField => f !== null));
  const cardFields = CARD_FIELDS.filter((f) => fields.has(f));
  const [edits, setEdits] = useState<Record<CardField, string>>({ member_id: '', member_name: '', group_number: '' });
  const firstRef = useRef<HTMLInputElement>(null);

  // Start from the card as it is whenever another card or check is shown.
  const [memberId, memberName, groupNumber] = [card?.member_id ?? '', card?.member_name ?? '', card?.group_number ?? ''];
  useEffect(() => {
    setEdits({ member_id: memberId, member_name: memberName, group_number: groupNumber });
  }, [card?.id, check.id, memberId, memberName, groupNumber]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changes: CardCorrection = {};
    for (const field of cardFields) if (edits[field].trim() !== (card?.[field] ?? '')) changes[field] = edits[field];
    onRerun(changes);
  };

  return (
    <section className="panel" aria-labelledby="failure-title" data-testid="check-failure">
      <h2 id="failure-title">The check did not go through</h2>
      {explanations.map((e, index) => (
        <div key={index} className="fix">
          <p className="fix__problem">
            {e.problem}
            {e.code && <span className="small"> (payer code {e.code})</span>}
          </p>
          <p>
            <strong>What to do:</strong> {e.fix}
          </p>
          {e.follow_up && <p className="small">{e.follow_up}</p>}
          {e.field && CHECK_FIELDS.includes(e.field) && (
            <div>
              <Button size="small" onClick={() => onFocusField(e.field as FixableField)}>
                Change the {FIXABLE_FIELD_LABELS[e.field].toLowerCase()}
              </Button>
            </div>
          )}
          {isPatientField(e.field) && (
            <div>
              <Button size="small" onClick={() => onCorrectPatient(e.field as PatientField)}>
                {CORRECT_PATIENT}
              </Button>
            </div>
          )}
        </div>
      ))}
      <form className="stack" onSubmit={submit} aria-label="Correct and run again">
        {cardFields.length > 0 && (
          <div className="grid-2">
            {cardFields.map((field, index) => (
              <TextField
                key={field}
                id={`fix-${field}`}
                inputRef={index === 0 ? firstRef : undefined}
                label={`${FIXABLE_FIELD_LABELS[field]}, as printed on the card`}
                autoComplete="off"
                value={edits[field]}
                onChange={(value) => setEdits((current) => ({ ...current, [field]: value }))}
                hint={field === 'member_id' ? 'Saving a correction adds it as a new card for this patient; the old card is kept.' : undefined}
              />
            ))}
          </div>
        )}
        <div className="row">
          <Button type="submit" variant="primary" disabled={busy}>
            {cardFields.length > 0 ? 'Save the correction and run again' : 'Run the check again'}
          </Button>
        </div>
      </form>
    </section>
  );
}
