import { useEffect, useState, type FormEvent } from 'react';
import type { AuditEntry } from '../../../shared/bridge/security-contract';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { EmptyState, Loading, Notice, Panel } from '../ui/notice';
import { useIdleLock } from './idle-lock';

/** Settings: how many idle minutes before the desk hides patient information, and "Lock now". */
export function IdleLockPanel() {
  const { minutes, setMinutes, lockNow } = useIdleLock();
  const [value, setValue] = useState(String(minutes));
  const [note, setNote] = useState<{ tone: 'ok' | 'bad'; text: string } | null>(null);
  useEffect(() => setValue(String(minutes)), [minutes]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = Number(value.trim());
    const error = Number.isInteger(parsed) ? await setMinutes(parsed) : 'Enter a whole number of minutes, from 1 to 60.';
    setNote(error ? { tone: 'bad', text: error.replace(/^minutes/, 'The number of minutes') } : { tone: 'ok', text: 'Saved.' });
  };

  return (
    <form className="panel" aria-labelledby="settings-idle-lock" onSubmit={(event) => void save(event)} noValidate>
      <div className="panel__header">
        <h2 id="settings-idle-lock">Privacy lock</h2>
        <Button size="small" onClick={lockNow}>
          Lock now
        </Button>
      </div>
      <p className="muted">Patient information is hidden when nobody has used this desk for a while, and at once when the computer locks or sleeps.</p>
      <TextField
        id="settings-idle-minutes"
        label="Hide patient information after (minutes idle)"
        inputMode="numeric"
        value={value}
        onChange={setValue}
        error={note?.tone === 'bad' ? note.text : undefined}
        hint="From 1 to 60 minutes."
      />
      {note?.tone === 'ok' && (
        <Notice tone="ok" live>
          {note.text}
        </Notice>
      )}
      <div className="row">
        <Button type="submit" variant="primary">
          Save privacy lock
        </Button>
      </div>
    </form>
  );
}

const ACTION_WORDS: Record<AuditEntry['action'], string> = { view: 'Viewed', create: 'Created', print: 'Printed', export: 'Exported' };
const PAGE = 50;

/** Settings: the audit log, newest first. Read-only: nothing here (or anywhere) can change it. */
export function AuditLogPanel() {
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [next, setNext] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = async (before?: number) => {
    const result = await window.coverdesk.audit.list({ limit: PAGE, ...(before ? { before } : {}) });
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    setError(null);
    setEntries((current) => (before && current ? [...current, ...result.value.data] : result.value.data));
    setNext(result.value.next_before);
  };
  useEffect(() => {
    void load();
  }, []);

  return (
    <Panel title="Audit log" titleId="settings-audit-log" actions={<Button size="small" onClick={() => void load()}>Refresh</Button>}>
      <p className="muted">Who opened, created, printed or exported which record on this computer. Entries cannot be changed or deleted.</p>
      {error && <Notice tone="bad">{error}</Notice>}
      {entries === null && !error ? (
        <Loading label="Reading the audit log…" />
      ) : entries && entries.length === 0 ? (
        <EmptyState title="Nothing recorded yet." />
      ) : (
        entries && (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Record</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.seq}>
                  <td>{new Date(entry.at).toLocaleString()}</td>
                  <td>{entry.actor}</td>
                  <td>{ACTION_WORDS[entry.action]}</td>
                  <td className="mono">{entry.record_id}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      )}
      {next !== null && (
        <div className="row">
          <Button onClick={() => void load(next)}>Show older entries</Button>
        </div>
      )}
    </Panel>
  );
}
