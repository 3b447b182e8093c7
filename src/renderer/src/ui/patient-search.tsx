import { useRef, useState, type KeyboardEvent } from 'react';
import type { DeskPatientRow } from '../../../shared/bridge/desk-contract';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { formatDob, patientName } from '../format';
import { todayInput } from '../today/today-rows';
import { useSettled } from '../state/use-settled';
import { EligibilityBadgeView } from './badge';
import { Button } from './button';
import { EmptyState, Loading } from './notice';
import { useSearchKeys } from './search-keys';

/**
 * Find a patient by name, date of birth or member id; with nothing typed, today's
 * patients. Each result is a button: Tab and Enter are enough. The box has Today's keys
 * (`useSearchKeys`): Enter picks the first match, ↓ moves into the list, where ↑/↓ move.
 */
export function PatientSearch({
  id,
  label,
  onPick,
  autoFocus,
  onRegister,
}: {
  id: string;
  label: string;
  onPick(row: DeskPatientRow): void;
  autoFocus?: boolean;
  /** Offered when no one matches: register the patient right here, from what was typed. */
  onRegister?(query: string): void;
}) {
  const [query, setQuery] = useState('');
  // Asked of the host after a short pause; until a new answer, the last one stays shown.
  const text = query.trim();
  const settled = useSettled(text, text ? 200 : 0);
  const today = useBridgeQuery('desk.today', settled ? null : todayInput(), { keepPrevious: true });
  const found = useBridgeQuery('desk.findPatients', settled ? { query: settled, limit: 20 } : null, { keepPrevious: true });
  const [shown, other] = settled ? [found, today] : [today, found];
  const answer = shown.data ?? (shown.error ? { data: [] } : other.data);
  const rows: DeskPatientRow[] | null = answer ? answer.data.slice(0, 20) : null;
  // The matches shown are not yet the typed query's: still pausing, or the host has not answered.
  const answering = settled !== text || rows === null || shown.loading || shown.previous;
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const results = () => [...(listRef.current?.querySelectorAll<HTMLButtonElement>('button.patient-pick') ?? [])];
  const onSearchKey = useSearchKeys({ query, rows: rows ?? [], answering, open: onPick, enterList: () => results()[0]?.focus() });
  const onListKey = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const buttons = results();
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next = at + (event.key === 'ArrowDown' ? 1 : -1);
    if (next < 0) inputRef.current?.focus();
    else buttons[Math.min(next, buttons.length - 1)]?.focus();
  };

  return (
    <div className="stack">
      <div className="field">
        <label className="field__label" htmlFor={id}>
          {label}
        </label>
        <input
          id={id}
          ref={inputRef}
          className="input"
          type="search"
          autoComplete="off"
          autoFocus={autoFocus}
          placeholder="Name, date of birth (MM/DD/YYYY) or member id"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={onSearchKey}
          aria-describedby={`${id}-hint`}
        />
        <p className="field__hint" id={`${id}-hint`}>
          Enter picks the first match; ↓ moves into the list. {query.trim() ? 'Matching patients:' : 'Today’s patients:'}
        </p>
      </div>
      {rows === null ? (
        <Loading label="Looking…" />
      ) : rows.length === 0 ? (
        <EmptyState
          title={query.trim() ? 'No one matches that search.' : 'No patients yet today.'}
          action={onRegister && query.trim() ? <Button onClick={() => onRegister(query)}>Register a new patient here</Button> : undefined}
        >
          {onRegister && query.trim() ? 'Check the spelling, or try the date of birth. A patient who is new here can be registered now, even without a card.' : undefined}
        </EmptyState>
      ) : (
        <ul className="plain-list stack" aria-label="Patients found" ref={listRef} onKeyDown={onListKey}>
          {rows.map((row) => (
            <li key={row.patient_id}>
              <Button className="patient-pick" onClick={() => onPick(row)}>
                <span>{patientName(row)}</span>
                <span className="muted">born {formatDob(row.date_of_birth)}</span>
                {row.member_id && <span className="mono muted">{row.member_id}</span>}
                <EligibilityBadgeView badge={row.eligibility} />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
