import { useEffect, useState, type KeyboardEvent } from 'react';

interface SearchKeysOptions<T> {
  /** What is typed, as the input holds it. */
  query: string;
  /** The matches shown for it, best first. */
  rows: readonly T[];
  /** True while the matches for `query` are still being asked for (typing pause, host search, first load). */
  answering: boolean;
  /** Opens a match (Enter opens the first). */
  open(row: T): void;
  /** Moves focus into the list of matches (↓). */
  enterList(): void;
}

/**
 * The keys of a patient search box (Today's, and the patient pickers of Eligibility and
 * Discovery): Enter opens the first match, ↓ moves into the list. Enter pressed before the
 * matches have answered is remembered for that query and opens the first match once they
 * are in: a desk types a name and Enter faster than the host answers.
 */
export function useSearchKeys<T>({ query, rows, answering, open, enterList }: SearchKeysOptions<T>): (event: KeyboardEvent<HTMLInputElement>) => void {
  const [enterFor, setEnterFor] = useState<string | null>(null);
  useEffect(() => {
    if (enterFor === null || answering) return;
    setEnterFor(null);
    if (enterFor === query && rows.length > 0) open(rows[0]);
  }, [enterFor, answering, query, rows, open]);

  return (event) => {
    if (event.key === 'ArrowDown' && rows.length > 0) {
      event.preventDefault();
      enterList();
    } else if (event.key === 'Enter' && answering) {
      event.preventDefault();
      setEnterFor(query);
    } else if (event.key === 'Enter' && rows.length > 0) {
      event.preventDefault();
      open(rows[0]);
    }
  };
}
