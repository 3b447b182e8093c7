import type { BarcodeReading, ClearinghouseEntity } from '../../../shared/contract';
import { readingAsFields } from '../intake/barcode-reading';
import { CARD_FIELD_LABELS, prefillCard, type CardFormField, type CardFormValues } from '../intake/intake-form';
import { Button } from '../ui/button';

export interface ArrivedCard {
  /** The card's values with the digital card's laid over them: its values are exact, so they win. */
  values: CardFormValues;
  /** The fields whose value the digital card changes, in the form's order. */
  changed: CardFormField[];
}

/**
 * What a SMART Health Link that completed after the desk saved (or started) the card would
 * change: offered, never written silently. Null when it brought no fields (failed, or
 * nothing the card has).
 */
export function arrivedCardValues(current: CardFormValues, reading: BarcodeReading, entities: readonly ClearinghouseEntity[]): ArrivedCard | null {
  const fields = readingAsFields(reading);
  if (!fields) return null;
  const { values } = prefillCard({ values: current, touched: new Set(), fields, entities });
  const changed = (Object.keys(values) as CardFormField[]).filter((field) => values[field].trim() !== current[field].trim());
  return { values, changed };
}

/** "The digital card arrived: use its details?", with what it would change. */
export function ArrivedCardOffer({
  reading,
  arrived,
  payerName,
  onUse,
  onDecline,
}: {
  reading: BarcodeReading;
  arrived: ArrivedCard;
  payerName: (id: string) => string;
  onUse: () => void;
  onDecline: () => void;
}) {
  const shown = (field: CardFormField) => (field === 'payer_id' ? payerName(arrived.values.payer_id) : arrived.values[field]);
  return (
    <div className="name-offer" role="group" aria-labelledby="arrived-card-text" data-testid="arrived-card-offer">
      <p id="arrived-card-text">
        <strong>The digital card arrived: use its details?</strong>{' '}
        {reading.status === 'verified' ? 'It is verified.' : `It is not verified${reading.reason ? `: ${reading.reason}` : ''}; check its values against the card.`}
      </p>
      {arrived.changed.length > 0 ? (
        <ul className="small">
          {arrived.changed.map((field) => (
            <li key={field}>
              {CARD_FIELD_LABELS[field]}: <strong>{shown(field)}</strong>
            </li>
          ))}
        </ul>
      ) : (
        <p className="small">Its details are the ones the card already has.</p>
      )}
      <div className="row">
        <Button size="small" variant="primary" onClick={onUse} disabled={arrived.changed.length === 0}>
          Use its details
        </Button>
        <Button size="small" onClick={onDecline}>
          Keep the card as it is
        </Button>
      </div>
    </div>
  );
}
