import { useState } from 'react';
import type { DeskPatientRow } from '../../../shared/bridge/desk-contract';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { formatDob, patientName, startOfLocalDay } from '../format';
import { useSettled } from '../state/use-settled';
import { EligibilityBadgeView } from './badge';
import { Button } from './button';
import { EmptyState, Loading } from './notice';

/**
 * Find a patient by name, date of birth or member id; with nothing typed, today's
 * patients. Each result is a button: Tab and Enter are enough.
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
  const today = useBridgeQuery('desk.today', settled ? null : { since: startOfLocalDay() }, { keepPrevious: true });
  const found = useBridgeQuery('desk.findPatients', settled ? { query: settled, limit: 20 } : null, { keepPrevious: true });
  const [shown, other] = settled ? [found, today] : [today, found];
  const answer = shown.data ?? (shown.error ? { data: [] } : other.data);
  const rows: DeskPatientRow[] | null = answer ? answer.data.slice(0, 20) : null;

  return (
    <div className="stack">
      <div className="field">
        <label className="field__label" htmlFor={id}>
          {label}
        </label>
        <input
          id={id}
          className="input"
          type="search"
          autoComplete="off"
          autoFocus={autoFocus}
          placeholder="Name, date of birth (MM/DD/YYYY) or member id"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <p className="field__hint">{query.trim() ? 'Matching patients:' : 'Today’s patients:'}</p>
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
        <ul className="plain-list stack" aria-label="Patients found">
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
