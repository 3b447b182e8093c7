import { useEffect, useState } from 'react';
import type { DeskPatientRow } from '../../../shared/bridge/desk-contract';
import { formatDob, patientName, startOfLocalDay } from '../format';
import { EligibilityBadgeView } from './badge';
import { Button } from './button';
import { EmptyState, Loading } from './notice';

/**
 * Find a patient by name, date of birth or member id; with nothing typed, today's
 * patients. Each result is a button: Tab and Enter are enough.
 */
export function PatientSearch({ id, label, onPick, autoFocus }: { id: string; label: string; onPick(row: DeskPatientRow): void; autoFocus?: boolean }) {
  const [query, setQuery] = useState('');
  const [rows, setRows] = useState<DeskPatientRow[] | null>(null);

  useEffect(() => {
    let current = true;
    const text = query.trim();
    const timer = setTimeout(
      () => {
        const call = text ? window.coverdesk.desk.findPatients({ query: text, limit: 20 }) : window.coverdesk.desk.today({ since: startOfLocalDay() });
        void call.then((result) => {
          if (current) setRows(result.ok ? result.value.data.slice(0, 20) : []);
        });
      },
      text ? 200 : 0,
    );
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query]);

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
        <EmptyState title={query.trim() ? 'No one matches that search.' : 'No patients yet today.'} />
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
