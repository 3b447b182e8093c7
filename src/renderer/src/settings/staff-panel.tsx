import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { BridgeError } from '../../../shared/bridge/contract';
import { STAFF_ROLE_WORDS, StaffRole, type StaffMember } from '../../../shared/bridge/staff-contract';
import { useBridge } from '../bridge/bridge-provider';
import { bridgeKey } from '../bridge/query-client';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { formatWhen } from '../format';
import { formMessage, plainFieldErrors, type FieldMessages } from '../forms/field-errors';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { SelectField, TextField } from '../ui/field';
import { Loading, Notice } from '../ui/notice';
import { STAFF_LABELS, staffFieldProblems } from './staff-form-checks';
import { StaffFilePanel } from './staff-file-panel';
import './staff-panel.css';

type Note = { tone: 'ok' | 'bad'; text: string } | null;

const ROLE_OPTIONS = StaffRole.options.map((role) => ({ value: role, label: roleWord(role) }));
export function roleWord(role: StaffRole): string {
  const word = STAFF_ROLE_WORDS[role];
  return word.charAt(0).toUpperCase() + word.slice(1);
}

const PIN_HINT = 'At least 6 digits, or a passphrase of at least 10 characters.';
const NEVER_DELETED = 'Nobody is deleted: the audit log keeps naming everyone who worked here. Disable someone who has left; they can no longer sign in and can be enabled again.';

/** The host's refusal as field messages and the sentence above the form. */
function refusal(error: BridgeError): { fields: FieldMessages; note: Note } {
  return { fields: plainFieldErrors(error, STAFF_LABELS), note: { tone: 'bad', text: formMessage(error) } };
}

/**
 * Settings → Staff (issue 28, items 1 and 7), for managers: who may sign in at this desk, with
 * their role, when they were added and whether they are disabled; adding a person, renaming,
 * a change of role, disabling and enabling, a new PIN for someone who forgot theirs, and the
 * staff file for the practice's other desks. The host refuses what breaks its rules (the last
 * manager, a name taken): its words are shown at the field they name.
 */
export function StaffPanel() {
  const session = useBridgeQuery('staff.session', {});
  const signedIn = session.data?.signed_in ?? null;
  // Only a manager sees the list; the host refuses anyone else anyway. Before the first
  // manager exists the first start makes one, not Settings.
  if (signedIn?.role !== 'manager') return null;
  return <StaffSection me={signedIn.id} />;
}

function StaffSection({ me }: { me: string }) {
  const bridge = useBridge();
  const queries = useQueryClient();
  const list = useBridgeQuery('staff.list', {});
  const [editing, setEditing] = useState<StaffMember | null>(null);
  const [disabling, setDisabling] = useState<StaffMember | null>(null);
  const [note, setNote] = useState<Note>(null);
  const refresh = () => {
    void queries.invalidateQueries({ queryKey: bridgeKey('staff.list') });
    void queries.invalidateQueries({ queryKey: bridgeKey('staff.session') });
  };

  const setDisabled = async (person: StaffMember, disabled: boolean) => {
    setDisabling(null);
    const result = await bridge.staff.update({ id: person.id, disabled });
    setNote(
      result.ok
        ? { tone: 'ok', text: disabled ? `${person.name} can no longer sign in. They stay listed, and the audit log keeps their name.` : `${person.name} can sign in again.` }
        : { tone: 'bad', text: result.error.message },
    );
    refresh();
  };

  return (
    <section className="panel" aria-labelledby="settings-staff" data-testid="staff">
      <div className="panel__header">
        <h2 id="settings-staff">Staff</h2>
      </div>
      <div className="stack">
        <p className="muted">Everyone who works at this desk signs in with their own PIN, so the audit log names who did what. Front desk: the day’s work. Manager: also Settings, staff, the audit log and integrations.</p>
        {note && (
          <Notice tone={note.tone} live>
            {note.text}
          </Notice>
        )}
        {list.loading && !list.data ? (
          <Loading label="Reading the staff list…" />
        ) : !list.data ? (
          <Notice tone="warn">The staff list could not be read: {list.error?.message}</Notice>
        ) : (
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Staff at this desk">
            <table className="table" data-testid="staff-list">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Role</th>
                  <th scope="col">Added</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((person) => (
                  <tr key={person.id} data-testid="staff-row">
                    <th scope="row">
                      {person.name}
                      {person.id === me && <span className="muted small"> (you)</span>}
                    </th>
                    <td>{roleWord(person.role)}</td>
                    <td>{formatWhen(person.created_at)}</td>
                    <td>{person.disabled_at ? <Badge tone="neutral">Disabled {formatWhen(person.disabled_at)}</Badge> : <Badge tone="ok">Can sign in</Badge>}</td>
                    <td>
                      <div className="row">
                        <Button
                          size="small"
                          onClick={() => {
                            setNote(null);
                            setEditing(person);
                          }}
                          aria-label={`Edit ${person.name}`}
                        >
                          Edit
                        </Button>
                        {person.disabled_at ? (
                          <Button size="small" onClick={() => void setDisabled(person, false)} aria-label={`Enable ${person.name}`}>
                            Enable
                          </Button>
                        ) : (
                          <Button size="small" variant="danger" onClick={() => setDisabling(person)} aria-label={`Disable ${person.name}`}>
                            Disable…
                          </Button>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className="muted small" data-testid="staff-never-deleted">
          {NEVER_DELETED}
        </p>
        {editing && (
          <EditPerson
            key={editing.id}
            person={editing}
            onDone={(text) => {
              setEditing(null);
              if (text) setNote({ tone: 'ok', text });
              refresh();
            }}
          />
        )}
        <AddPerson
          onAdded={(person) => {
            setNote({ tone: 'ok', text: `${person.name} was added as ${STAFF_ROLE_WORDS[person.role]}: they sign in with the PIN you chose.` });
            refresh();
          }}
        />
        <StaffFilePanel onImported={refresh} />
      </div>
      <ConfirmDialog
        open={disabling !== null}
        title={`Disable ${disabling?.name ?? ''}?`}
        message={`${disabling?.name ?? ''} can no longer sign in at this desk. ${NEVER_DELETED}`}
        confirmLabel="Disable"
        onCancel={() => setDisabling(null)}
        onConfirm={() => disabling && void setDisabled(disabling, true)}
      />
    </section>
  );
}

/** Adding a person: name, role, and the PIN or passphrase typed twice. */
function AddPerson({ onAdded }: { onAdded(person: StaffMember): void }) {
  const bridge = useBridge();
  const [name, setName] = useState('');
  const [role, setRole] = useState<StaffRole>('front_desk');
  const [pin, setPin] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FieldMessages>({});
  const [note, setNote] = useState<Note>(null);
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setNote(null);
    const problems = staffFieldProblems({ name, pin, pin_confirm: confirm });
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    const result = await bridge.staff.add({ name: name.trim(), role, pin });
    setBusy(false);
    if (!result.ok) {
      const { fields, note: said } = refusal(result.error);
      setErrors(fields);
      setNote(said);
      return;
    }
    setName('');
    setRole('front_desk');
    setPin('');
    setConfirm('');
    setErrors({});
    onAdded(result.value);
    first.current?.focus();
  };

  return (
    <form className="stack staff-form" onSubmit={(event) => void submit(event)} aria-labelledby="staff-add-title" noValidate data-testid="staff-add">
      <h3 id="staff-add-title">Add a person</h3>
      <div className="grid-2">
        <TextField id="staff-add-name" label={STAFF_LABELS.name} value={name} onChange={setName} error={errors.name} autoComplete="off" maxLength={80} inputRef={first} />
        <SelectField id="staff-add-role" label={STAFF_LABELS.role} value={role} onChange={(value) => setRole(value as StaffRole)} options={ROLE_OPTIONS} error={errors.role} />
        <TextField id="staff-add-pin" label={STAFF_LABELS.pin} type="password" value={pin} onChange={setPin} error={errors.pin} hint={PIN_HINT} autoComplete="new-password" maxLength={200} />
        <TextField id="staff-add-pin-confirm" label={STAFF_LABELS.pin_confirm} type="password" value={confirm} onChange={setConfirm} error={errors.pin_confirm} autoComplete="new-password" maxLength={200} />
      </div>
      {note && (
        <Notice tone={note.tone} live>
          {note.text}
        </Notice>
      )}
      <div className="row">
        <Button type="submit" variant="primary" disabled={busy}>
          Add person
        </Button>
      </div>
    </form>
  );
}

/** One person's name and role, and a new PIN when they forgot theirs. Escape cancels. */
function EditPerson({ person, onDone }: { person: StaffMember; onDone(note: string | null): void }) {
  const bridge = useBridge();
  const [name, setName] = useState(person.name);
  const [role, setRole] = useState<StaffRole>(person.role);
  const [newPin, setNewPin] = useState(false);
  const [pin, setPin] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FieldMessages>({});
  const [note, setNote] = useState<Note>(null);
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  const pinField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    first.current?.focus();
    first.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  useEffect(() => {
    if (newPin) pinField.current?.focus();
  }, [newPin]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setNote(null);
    const problems = staffFieldProblems({ name, ...(newPin ? { pin, pin_confirm: confirm } : {}) });
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const trimmed = name.trim();
    const changes = { ...(trimmed !== person.name ? { name: trimmed } : {}), ...(role !== person.role ? { role } : {}), ...(newPin ? { pin } : {}) };
    if (Object.keys(changes).length === 0) return onDone(null);
    setBusy(true);
    const result = await bridge.staff.update({ id: person.id, ...changes });
    setBusy(false);
    if (!result.ok) {
      const { fields, note: said } = refusal(result.error);
      // The last manager's refusal names `role`: shown at the role, with the host's sentence above.
      setErrors(fields);
      setNote(said);
      return;
    }
    const saidWhat = [changes.name && `renamed ${changes.name}`, changes.role && `now ${STAFF_ROLE_WORDS[changes.role]}`, changes.pin && 'has a new PIN (their wrong tries are forgiven)'].filter(Boolean).join(', ');
    onDone(`${person.name}: ${saidWhat}.`);
  };

  return (
    <form
      className="stack staff-form staff-form--edit"
      onSubmit={(event) => void submit(event)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onDone(null);
        }
      }}
      aria-labelledby="staff-edit-title"
      noValidate
      data-testid="staff-edit"
    >
      <h3 id="staff-edit-title">Edit {person.name}</h3>
      <div className="grid-2">
        <TextField id="staff-edit-name" label={STAFF_LABELS.name} value={name} onChange={setName} error={errors.name} autoComplete="off" maxLength={80} inputRef={first} />
        <SelectField id="staff-edit-role" label={STAFF_LABELS.role} value={role} onChange={(value) => setRole(value as StaffRole)} options={ROLE_OPTIONS} error={errors.role} />
      </div>
      {newPin ? (
        <div className="grid-2">
          <TextField
            id="staff-edit-pin"
            label={`New ${STAFF_LABELS.pin}`}
            type="password"
            value={pin}
            onChange={setPin}
            error={errors.pin}
            hint={`${PIN_HINT} Tell it to ${person.name} in person.`}
            autoComplete="new-password"
            maxLength={200}
            inputRef={pinField}
          />
          <TextField id="staff-edit-pin-confirm" label={STAFF_LABELS.pin_confirm} type="password" value={confirm} onChange={setConfirm} error={errors.pin_confirm} autoComplete="new-password" maxLength={200} />
        </div>
      ) : (
        <div>
          <Button size="small" onClick={() => setNewPin(true)}>
            Set a new PIN (forgotten)…
          </Button>
        </div>
      )}
      {note && (
        <Notice tone={note.tone} live>
          {note.text}
        </Notice>
      )}
      <div className="row">
        <Button type="submit" variant="primary" disabled={busy}>
          Save changes
        </Button>
        <Button onClick={() => onDone(null)}>Cancel</Button>
      </div>
    </form>
  );
}
