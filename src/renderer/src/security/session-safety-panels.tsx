import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { Notice } from '../ui/notice';
import { useIdleLock } from './idle-lock';
import { PinPanel } from './pin-panel';

/** Settings: how many idle minutes before the desk hides patient information, "Lock now", and the workstation PIN. */
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
    <section className="panel" aria-labelledby="settings-idle-lock">
      <div className="panel__header">
        <h2 id="settings-idle-lock">Privacy lock</h2>
        <Button size="small" onClick={lockNow}>
          Lock now
        </Button>
      </div>
      <p className="muted">Patient information is hidden when nobody has used this desk for a while, and at once when the computer locks or sleeps.</p>
      <form className="stack" aria-label="Idle minutes" onSubmit={(event) => void save(event)} noValidate>
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
      <PinPanel />
    </section>
  );
}
