import { useState } from 'react';
import { dateOfBirthToIso, otherCenturyYear, TWO_DIGIT_YEAR_RULE } from '../../../shared/date-of-birth';
import { formatDob, localDate } from '../format';
import { TextField } from './field';

/** "1980-03-14" → "March 14, 1980": what was read, in words nobody can misread. */
function spelledOut(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
}

/**
 * A date of birth as a desk types it: 03/14/1980, 1980-03-14 or 3/14/80. What it reads is said
 * in words as it is typed, so a two-digit year read in the wrong century is seen before saving
 * (the rule is in the hint), and on leaving the field the date is written back in full. The
 * words appear while typing, not on leaving: a hint that changed height on blur would move the
 * page under the pointer that is clicking the next button.
 */
export function DateOfBirthField({ id, value, onChange, error }: { id: string; value: string; onChange(value: string): void; error?: string }) {
  const iso = value.trim() ? dateOfBirthToIso(value, localDate()) : null;
  // A two-digit year written back in full on leaving the field: the century chosen stays said
  // (6/3/26 becomes 06/03/2026, a baby, unless the person meant 1926).
  const [expanded, setExpanded] = useState<{ value: string; other: number } | null>(null);
  const other = iso ? (otherCenturyYear(value, iso) ?? (expanded?.value === value ? expanded.other : null)) : null;
  const century = iso && other ? ` The year was typed with two digits: for ${other}, type it in full (${formatDob(`${other}${iso.slice(4)}`)}).` : '';
  return (
    <TextField
      id={id}
      label="Date of birth"
      autoComplete="off"
      inputMode="numeric"
      placeholder="MM/DD/YYYY"
      hint={iso ? `Read as ${spelledOut(iso)}.${century}` : `Month, day, year: 03/07/1984. ${TWO_DIGIT_YEAR_RULE}`}
      value={value}
      error={error}
      onChange={onChange}
      onBlur={() => {
        if (!iso || formatDob(iso) === value) return;
        const full = formatDob(iso);
        const otherYear = otherCenturyYear(value, iso);
        setExpanded(otherYear ? { value: full, other: otherYear } : null);
        onChange(full);
      }}
    />
  );
}
