import type { ClearinghouseEntity } from '../../../shared/contract';
import { usePayerPicker } from '../payers/use-payer-picker';
import { Combobox } from '../ui/combobox';

interface CardPayerFieldProps {
  id: string;
  entities: readonly ClearinghouseEntity[];
  value: string;
  onChange(value: string): void;
  error?: string;
  review?: string;
  /** What the reading's choice of payer rests on, while the field holds that choice. */
  evidence?: string;
}

/** The payer a card names, picked from every payer the desk knows: at intake and when correcting a card. */
export function CardPayerField({ id, entities, value, onChange, error, review, evidence }: CardPayerFieldProps) {
  const picker = usePayerPicker(entities);
  return (
    <Combobox
      id={id}
      label="Payer"
      placeholder="Type to search payers"
      options={picker.options}
      filter={picker.filter}
      value={value}
      onChange={onChange}
      error={error}
      review={review}
      hint={value ? (evidence ? `Read from the card: ${evidence}.` : undefined) : 'The insurance company named on the card.'}
    />
  );
}
