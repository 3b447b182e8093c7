import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { InsuranceCard } from '../../../shared/contract';
import { formMessage, plainFieldErrors, type FieldMessages } from '../forms/field-errors';
import { CARD_FIELD_LABELS, CARD_TEXT_FIELDS, cardFieldErrors, cardFormValues, type CardFormField, type CardFormValues } from '../intake/intake-form';
import { objectKeyFromUrl } from '../intake/photo-file';
import { PhotoThumb, usePhotoUrl } from '../intake/photo-thumb';
import { PhotoViewer } from '../intake/photo-viewer';
import { useBridge } from '../bridge/bridge-provider';
import { useReferenceData } from '../state/reference-data';
import { CardPayerField } from '../intake/card-payer-field';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { Notice } from '../ui/notice';
import { correctedCard } from './corrected-card';

interface CardCorrectionFormProps {
  card: InsuranceCard;
  patientId: string;
  onSaved(card: InsuranceCard): void;
  onCancel(): void;
  /** Values typed over the card's to start with (a digital card that arrived), with why. */
  initial?: { values: CardFormValues; note: string };
}

/**
 * A saved card's fields opened for fixing, beside its photos. Saving makes a new card with
 * the same photos (the contract has no update): the old one is kept as an earlier version.
 */
export function CardCorrectionForm({ card, patientId, onSaved, onCancel, initial }: CardCorrectionFormProps) {
  const bridge = useBridge();
  const { entities } = useReferenceData();
  const original = cardFormValues(card);
  const [values, setValues] = useState<CardFormValues>(initial?.values ?? original);
  const [errors, setErrors] = useState<FieldMessages>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const titleRef = useRef<HTMLHeadingElement>(null);

  // Opened from a button that goes away: the person lands on the form they asked for.
  useEffect(() => titleRef.current?.focus(), []);

  const set = (field: CardFormField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors(({ [field]: _, ...rest }) => rest);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setFormError(null);
    const changed = (Object.keys(values) as CardFormField[]).some((f) => values[f].trim() !== original[f].trim());
    if (!changed) {
      setFormError('Nothing was changed: type the corrected values over the wrong ones, or cancel.');
      return;
    }
    const problems = cardFieldErrors(values);
    if (Object.keys(problems).length > 0) {
      setErrors(problems);
      setFormError('Some fields need attention: see the messages below each one.');
      return;
    }
    setBusy(true);
    try {
      const { payer_id, ...text } = values;
      const created = await bridge.cards.create(correctedCard(card, patientId, { ...text, payer_id }));
      if (!created.ok) {
        setErrors(plainFieldErrors(created.error, CARD_FIELD_LABELS));
        setFormError(formMessage(created.error));
        return;
      }
      onSaved(created.value);
    } finally {
      setBusy(false);
    }
  };

  const front = objectKeyFromUrl(card.front_photo_download_url);
  const back = objectKeyFromUrl(card.back_photo_download_url);
  return (
    <form className="panel no-print" onSubmit={(event) => void submit(event)} noValidate aria-labelledby="correct-card-title" data-testid="card-correction">
      <div className="stack">
        <h2 id="correct-card-title" ref={titleRef} tabIndex={-1}>
          Correct this card
        </h2>
        <p className="muted">{initial ? `${initial.note} ` : ''}Type over what is wrong. Saving keeps this card as an earlier version and makes the corrected one the card used for checks.</p>
      </div>
      <div className="intake-card">
        <div className="stack">
          {front || back ? (
            <>
              {front && <CardPhoto objectKey={front} title="Front of the card" side="front" />}
              {back && <CardPhoto objectKey={back} title="Back of the card" side="back" />}
            </>
          ) : (
            <p className="muted small">This card has no photos.</p>
          )}
        </div>
        <div className="stack">
          <CardPayerField id="correct-payer_id" entities={entities} value={values.payer_id} onChange={(v) => set('payer_id', v)} error={errors.insurance_carrier_ids ?? errors.payer_id} />
          <div className="card-fields">
            {CARD_TEXT_FIELDS.map((field) => (
              <TextField key={field} id={`correct-${field}`} label={CARD_FIELD_LABELS[field]} autoComplete="off" value={values[field]} onChange={(v) => set(field, v)} error={errors[field]} />
            ))}
          </div>
        </div>
      </div>
      {formError && (
        <Notice tone="bad" live>
          {formError}
        </Notice>
      )}
      <div className="row row--end">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save the corrected card'}
        </Button>
      </div>
    </form>
  );
}

function CardPhoto({ objectKey, title, side }: { objectKey: string; title: string; side: 'front' | 'back' }) {
  const url = usePhotoUrl(objectKey);
  return (
    <div className="stack">
      <PhotoThumb objectKey={objectKey} alt={title} className="photo-slot__preview" />
      {url && (
        <div className="row">
          <PhotoViewer src={url} title={title} openLabel={`Enlarge the ${side} photo`} />
        </div>
      )}
    </div>
  );
}
