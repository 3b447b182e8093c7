import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { Notice } from '../ui/notice';
import { useIdleLock } from './idle-lock';
import { PinPanel } from './pin-panel';
import { useStaff } from './staff-gate';

type IdleField = 'minutes' | 'front_desk' | 'manager';
const IDLE_FIELDS: { field: IdleField; id: string; label: string }[] = [
  { field: 'minutes', id: 'settings-idle-minutes', label: 'Hide patient information after (minutes idle)' },
  { field: 'front_desk', id: 'settings-idle-front-desk', label: 'Front desk: sign out after (minutes idle)' },
  { field: 'manager', id: 'settings-idle-manager', label: 'Manager: sign out after (minutes idle)' },
];

/**
 * Settings: how many idle minutes before the desk hides patient information, "Lock now", and the
 * workstation PIN; on a desk with staff, each role's own time-out (issue 28), after which the
 * person is signed out to the sign-in screen.
 */
export function IdleLockPanel() {
  const { settings, minutes, setMinutes, lockNow } = useIdleLock();
  const staffDesk = useStaff().signedIn !== null;
  const saved = useMemo(
    () => ({ minutes: String(settings?.minutes ?? minutes), front_desk: String(settings?.by_role.front_desk ?? minutes), manager: String(settings?.by_role.manager ?? minutes) }),
    [settings, minutes],
  );
  const [values, setValues] = useState(saved);
  const [note, setNote] = useState<{ field: IdleField | null; text: string } | null>(null);
  useEffect(() => setValues(saved), [saved]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const shown = IDLE_FIELDS.filter(({ field }) => (field === 'minutes') !== staffDesk);
    const numbers: Partial<Record<IdleField, number>> = {};
    for (const { field } of shown) {
      const parsed = Number(values[field].trim());
      if (!Number.isInteger(parsed)) return setNote({ field, text: 'Enter a whole number of minutes, from 1 to 60.' });
      numbers[field] = parsed;
    }
    const refused = await setMinutes(staffDesk ? { by_role: { front_desk: numbers.front_desk, manager: numbers.manager } } : { minutes: numbers.minutes });
    if (!refused) return setNote({ field: null, text: 'Saved.' });
    const field = (refused.field?.split('.').at(-1) ?? 'minutes') as IdleField;
    setNote({ field: IDLE_FIELDS.some((f) => f.field === field) ? field : 'minutes', text: refused.message.replace(/^(by_role\.)?(minutes|front_desk|manager)/, 'The number of minutes') });
  };

  return (
    <section className="panel" aria-labelledby="settings-idle-lock">
      <div className="panel__header">
        <h2 id="settings-idle-lock">Privacy lock</h2>
        <Button size="small" onClick={lockNow}>
          Lock now
        </Button>
      </div>
      <p className="muted">
        Patient information is hidden when nobody has used this desk for a while, and at once when the computer locks or sleeps.
        {staffDesk && ' With staff signing in, each role has its own time-out: then the desk goes back to the sign-in screen.'}
      </p>
      <form className="stack" aria-label="Idle minutes" onSubmit={(event) => void save(event)} noValidate>
        {/* With staff the sign-in screen is the lock: each role's time-out is what counts. */}
        {IDLE_FIELDS.filter(({ field }) => (field === 'minutes') !== staffDesk).map(({ field, id, label }) => (
          <TextField
            key={field}
            id={id}
            label={label}
            inputMode="numeric"
            value={values[field]}
            onChange={(value) => setValues((current) => ({ ...current, [field]: value }))}
            error={note?.field === field ? note.text : undefined}
            hint="From 1 to 60 minutes."
          />
        ))}
        {note?.field === null && (
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
      {/* The staff PINs replace the desk’s single lock PIN. */}
      {!staffDesk && <PinPanel />}
    </section>
  );
}
