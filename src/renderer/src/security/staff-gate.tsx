import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import type { SignedIn, StaffSession } from '../../../shared/bridge/staff-contract';
import { STAFF_ROLE_WORDS } from '../../../shared/bridge/staff-role';
import { useBridge } from '../bridge/bridge-provider';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { Loading, Notice } from '../ui/notice';
import { noteSignOut, signOutNote } from './sign-out-note';
import { isSwitchUserKey, pickByTyping, sessionChanged, signsIn, useStaffSession } from './staff-session';
import './staff-gate.css';

export interface StaffControls {
  /** Null on a desk without staff (everything open, no one to name). */
  signedIn: SignedIn | null;
  /** Signs the person out (audited) and shows the sign-in screen; PHI is dropped at once. */
  switchUser(): void;
  /** The first manager was just made here: the desk offers the recovery sheet (not forced). */
  justSetUp: boolean;
  dismissSetUp(): void;
}

const StaffContext = createContext<StaffControls>({ signedIn: null, switchUser: () => undefined, justSetUp: false, dismissSetUp: () => undefined });

export function useStaff(): StaffControls {
  return useContext(StaffContext);
}

/**
 * Who is at the desk (issue 28): until someone is signed in, the desk is not rendered at all
 * (no PHI in the page); the first start, the sign-in list and a PIN to choose are shown instead.
 * The desk is keyed by the person, so a switch starts the next person on a fresh desk.
 */
export function StaffGate({ children }: { children: (person: SignedIn | null) => ReactNode }) {
  const bridge = useBridge();
  const queries = useQueryClient();
  const query = useStaffSession();
  const { reload } = query;
  const session = query.data;
  const [justSetUp, setJustSetUp] = useState(false);
  const [switching, setSwitching] = useState(false);

  const switchUser = useCallback(() => {
    setSwitching(true);
    void bridge.staff.signOut({}).then((result) => {
      setSwitching(false);
      if (result.ok) sessionChanged(queries, result.value);
      else reload();
    });
  }, [bridge, queries, reload]);

  const active = signsIn(session) && session?.signed_in != null;
  useEffect(() => {
    if (!active) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isSwitchUserKey(event)) return;
      event.preventDefault();
      switchUser();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [active, switchUser]);

  const controls = useMemo<StaffControls>(
    () => ({ signedIn: session?.signed_in ?? null, switchUser, justSetUp, dismissSetUp: () => setJustSetUp(false) }),
    [session?.signed_in, switchUser, justSetUp],
  );

  if (!session) {
    if (query.error) {
      return (
        <GateFrame title="Coverdesk">
          <Notice tone="bad">Coverdesk could not read who is signed in: {query.error.message}</Notice>
          <Button onClick={query.reload}>Try again</Button>
        </GateFrame>
      );
    }
    return <Loading label="Opening the desk…" />;
  }
  if (!signsIn(session)) return <StaffContext.Provider value={controls}>{children(null)}</StaffContext.Provider>;
  if (session.setup_needed) return <FirstStart session={session} onDone={() => setJustSetUp(true)} />;
  if (!session.signed_in || switching) return <SignIn session={session} />;
  if (session.must_choose_pin) return <ChoosePin person={session.signed_in} onSwitch={switchUser} />;
  return <StaffContext.Provider value={controls}>{children(session.signed_in)}</StaffContext.Provider>;
}

function GateFrame({ title, children, wide }: { title: string; children: ReactNode; wide?: boolean }) {
  return (
    <main className="staff-gate" aria-labelledby="staff-gate-title">
      <div className={`staff-gate__panel stack${wide ? ' staff-gate__panel--wide' : ''}`}>
        <p className="staff-gate__brand">Coverdesk</p>
        <h1 id="staff-gate-title">{title}</h1>
        {children}
      </div>
    </main>
  );
}

/** The host's refusal as one sentence, the first field's message when it named one. */
function refusalText(error: { message: string; errors?: { message: string }[] }): string {
  return error.errors?.[0]?.message ?? error.message;
}

/**
 * The checks of a new PIN (the host's zod schema): loaded when a screen that asks for one opens,
 * not with the page, which builds no schema before Today's first paint (issue 31).
 */
const pinChecks = () => import('../settings/staff-form-checks');

/**
 * First start (issue 28, item 1): one screen, the manager's name and PIN (and on a desk that had
 * the single lock PIN, that PIN). Nothing else stands between a new desk and its first patient.
 */
function FirstStart({ session, onDone }: { session: StaffSession; onDone(): void }) {
  const bridge = useBridge();
  const queries = useQueryClient();
  const [name, setName] = useState('');
  const [pin, setPin] = useState('');
  const [confirm, setConfirm] = useState('');
  const [lockPin, setLockPin] = useState('');
  const [errors, setErrors] = useState<Partial<Record<'name' | 'pin' | 'confirm' | 'lock_pin' | 'form', string>>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => void pinChecks(), []);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const { newPinProblems } = await pinChecks();
    const found: typeof errors = {};
    if (!name.trim()) found.name = 'Enter your name: the audit log names you by it.';
    const problem = newPinProblems(pin, confirm);
    if (problem.first) found.pin = problem.first;
    else if (problem.again) found.confirm = problem.again;
    if (session.lock_pin_set && !lockPin) found.lock_pin = 'Enter the PIN that unlocks this desk today.';
    setErrors(found);
    if (Object.keys(found).length) return setBusy(false);
    const result = await bridge.staff.setup({ name: name.trim(), pin, ...(session.lock_pin_set ? { lock_pin: lockPin } : {}) });
    setBusy(false);
    if (!result.ok) {
      // A wrong lock PIN, or its wait, is the lock PIN field's (the host names no field for it).
      const field = result.error.code === 'pin_incorrect' || result.error.code === 'pin_wait' ? 'lock_pin' : result.error.errors?.[0]?.path;
      setErrors({ [field === 'name' || field === 'pin' || field === 'lock_pin' ? field : 'form']: refusalText(result.error) });
      return;
    }
    onDone();
    sessionChanged(queries, result.value);
  };

  return (
    <GateFrame title="Welcome: who manages this desk?">
      <p className="muted">
        You become this desk’s manager. Everyone signs in with their own PIN, so the audit log names who did what. You add the others in Settings → Staff.
      </p>
      <form className="stack" aria-label="First start" onSubmit={(event) => void submit(event)} noValidate>
        <TextField id="setup-name" label="Your name" autoComplete="name" autoFocus value={name} onChange={setName} error={errors.name} />
        <TextField
          id="setup-pin"
          label="Your PIN"
          type="password"
          autoComplete="new-password"
          value={pin}
          onChange={setPin}
          error={errors.pin}
          hint="6 to 12 digits, or a passphrase of at least 10 characters."
        />
        <TextField id="setup-pin-confirm" label="Your PIN again" type="password" autoComplete="new-password" value={confirm} onChange={setConfirm} error={errors.confirm} />
        {session.lock_pin_set && (
          <TextField
            id="setup-lock-pin"
            label="This desk’s lock PIN"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            value={lockPin}
            onChange={setLockPin}
            error={errors.lock_pin}
            hint="The PIN that unlocks Coverdesk today: the staff PINs replace it."
          />
        )}
        {errors.form && <Notice tone="bad">{errors.form}</Notice>}
        <Button type="submit" variant="primary" disabled={busy}>
          Start using Coverdesk
        </Button>
      </form>
    </GateFrame>
  );
}

/**
 * Sign in (issue 28, item 2), keyboard only: typing the first letters picks a name, Enter moves
 * to the PIN, Enter signs in. The host counts wrong PINs and makes people wait; this shows
 * what it said.
 */
function SignIn({ session }: { session: StaffSession }) {
  const bridge = useBridge();
  const queries = useQueryClient();
  const people = session.people;
  const [picked, setPicked] = useState(people.length === 1 ? 0 : -1);
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [recovery, setRecovery] = useState(false);
  const typed = useRef({ text: '', at: 0 });
  const pinRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const person = picked >= 0 ? people[picked] : undefined;

  useEffect(() => {
    listRef.current?.focus();
  }, []);

  const choose = (index: number, thenPin: boolean) => {
    setPicked(index);
    setError(null);
    if (thenPin) pinRef.current?.focus();
  };

  const onListKey = (event: ReactKeyboardEvent<HTMLUListElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      if (person) pinRef.current?.focus();
      return;
    }
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      choose(Math.min(people.length - 1, Math.max(0, (picked < 0 ? (step > 0 ? -1 : people.length) : picked) + step)), false);
      return;
    }
    if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      // A pause starts a new name: letters typed within a second are one search.
      const now = Date.now();
      typed.current = { text: now - typed.current.at > 1_000 ? event.key : typed.current.text + event.key, at: now };
      const index = pickByTyping(
        people.map((p) => p.name),
        typed.current.text,
      );
      if (index >= 0) choose(index, false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!person) {
      setError('Choose your name first: type its first letters.');
      listRef.current?.focus();
      return;
    }
    setBusy(true);
    const result = await bridge.staff.signIn({ id: person.id, pin });
    setBusy(false);
    setPin('');
    if (result.ok) {
      noteSignOut(null);
      return sessionChanged(queries, result.value);
    }
    setError(result.error.message);
    pinRef.current?.focus();
  };

  if (recovery) return <EmergencyAccess onBack={() => setRecovery(false)} />;

  const leftBecause = signOutNote();
  return (
    <GateFrame title="Who is at the desk?">
      {leftBecause && (
        <p className="notice notice--info" role="status" data-testid="sign-out-note">
          {leftBecause}
        </p>
      )}
      <p className="muted">Type the first letters of your name, Enter, your PIN, Enter.</p>
      <form className="stack" aria-label="Sign in" onSubmit={(event) => void submit(event)} noValidate>
        <div className="field">
          <span className="field__label" id="sign-in-names-label">
            Name
          </span>
          <ul
            ref={listRef}
            className="staff-gate__names"
            role="listbox"
            tabIndex={0}
            aria-labelledby="sign-in-names-label"
            aria-activedescendant={person ? `sign-in-person-${person.id}` : undefined}
            onKeyDown={onListKey}
          >
            {people.map((p, index) => (
              <li
                key={p.id}
                id={`sign-in-person-${p.id}`}
                role="option"
                aria-selected={index === picked}
                className={`staff-gate__name${index === picked ? ' staff-gate__name--picked' : ''}`}
                onClick={() => choose(index, true)}
              >
                {p.name}
              </li>
            ))}
          </ul>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="sign-in-pin">
            {person ? `PIN for ${person.name}` : 'PIN'}
          </label>
          <input
            ref={pinRef}
            id="sign-in-pin"
            className="input"
            type="password"
            autoComplete="off"
            value={pin}
            onChange={(event) => setPin(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'sign-in-error' : undefined}
          />
        </div>
        {error && (
          <p className="notice notice--bad" role="alert" id="sign-in-error">
            {error}
          </p>
        )}
        <div className="row">
          <Button type="submit" variant="primary" disabled={busy}>
            Sign in
          </Button>
          <Button onClick={() => setRecovery(true)}>Use the recovery code</Button>
        </div>
      </form>
    </GateFrame>
  );
}

/**
 * Emergency access (issue 28, item 5): the recovery sheet's code signs in with a manager's rights
 * for this sign-in only (the host audits it); the banner then says what to do next.
 */
function EmergencyAccess({ onBack }: { onBack(): void }) {
  const bridge = useBridge();
  const queries = useQueryClient();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const granted = await bridge.recovery.emergencyAccess({ code: code.trim() });
    if (!granted.ok) {
      setBusy(false);
      return setError(refusalText(granted.error));
    }
    const session = await bridge.staff.session({});
    setBusy(false);
    if (session.ok) sessionChanged(queries, session.value);
  };

  return (
    <GateFrame title="Emergency access">
      <p className="muted">
        For when no manager can sign in. The recovery code from this desk’s recovery sheet gives a manager’s rights once; using it is recorded in the audit log and the code then
        works no more.
      </p>
      <form className="stack" aria-label="Emergency access" onSubmit={(event) => void submit(event)} noValidate>
        <TextField id="emergency-code" label="Recovery code" autoComplete="off" autoFocus className="mono" value={code} onChange={setCode} error={error ?? undefined} />
        <div className="row">
          <Button type="submit" variant="primary" disabled={busy}>
            Use the code
          </Button>
          <Button onClick={onBack}>Back to sign in</Button>
        </div>
      </form>
    </GateFrame>
  );
}

/** A manager set this person's PIN: they choose their own before the desk opens. */
function ChoosePin({ person, onSwitch }: { person: SignedIn; onSwitch(): void }) {
  const bridge = useBridge();
  const queries = useQueryClient();
  const [pin, setPin] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => void pinChecks(), []);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const { newPinProblems } = await pinChecks();
    const { first, again } = newPinProblems(pin, confirm);
    const problem = first ?? again;
    if (problem) {
      setBusy(false);
      return setError(problem);
    }
    const result = await bridge.staff.choosePin({ pin });
    setBusy(false);
    if (!result.ok) return setError(refusalText(result.error));
    sessionChanged(queries, result.value);
  };

  return (
    <GateFrame title={`Choose your own PIN, ${person.name}`}>
      <p className="muted">A manager set your PIN. Choose one only you know: the audit log names you by it.</p>
      <form className="stack" aria-label="Choose your PIN" onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          id="choose-pin"
          label="New PIN"
          type="password"
          autoComplete="new-password"
          autoFocus
          value={pin}
          onChange={setPin}
          error={error ?? undefined}
          hint="6 to 12 digits, or a passphrase of at least 10 characters."
        />
        <TextField id="choose-pin-confirm" label="New PIN again" type="password" autoComplete="new-password" value={confirm} onChange={setConfirm} />
        <div className="row">
          <Button type="submit" variant="primary" disabled={busy}>
            Save my PIN
          </Button>
          <Button onClick={onSwitch}>Not me: switch user</Button>
        </div>
      </form>
    </GateFrame>
  );
}

/** The header's who-is-here: the person's name and role, and Switch user (Ctrl+Shift+L). */
export function StaffBadge() {
  const { signedIn, switchUser } = useStaff();
  if (!signedIn) return null;
  return (
    <div className="staff-badge" data-testid="signed-in">
      <span className="staff-badge__name">{signedIn.name}</span>
      <span className="staff-badge__role">{STAFF_ROLE_WORDS[signedIn.role]}</span>
      <Button size="small" onClick={switchUser} aria-keyshortcuts="Control+Shift+L" title="Switch user (Ctrl+Shift+L)">
        Switch user
      </Button>
    </div>
  );
}
