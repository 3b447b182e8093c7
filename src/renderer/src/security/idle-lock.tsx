import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { IdleLockSettings, IdleLockUpdate, LockStatus } from '../../../shared/bridge/security-contract';
import { IDLE_LOCK_DEFAULT_MINUTES } from '../../../shared/bridge/lock-words';
import { useBridge } from '../bridge/bridge-provider';
import { setBridgeData } from '../bridge/query-client';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { createIdleTimer, type IdleTimer } from './idle-timer';
import { noteSignOut } from './sign-out-note';
import { PinUnlock } from './pin-unlock';
import { sessionChanged, signsIn, useStaffSession } from './staff-session';
import './idle-lock.css';

export type LockReason = 'idle' | 'system_lock' | 'system_suspend' | 'manual';

export interface IdleLockControls {
  /** The limit now in force: the signed-in person's role's, else the desk's. */
  minutes: number;
  settings: IdleLockSettings | null;
  /** Saves a new idle limit (1–60 minutes), the desk's or each role's; resolves to the refusal (its field, its message). */
  setMinutes(update: IdleLockUpdate): Promise<{ field: string | null; message: string } | null>;
  lockNow(): void;
}

const IdleLockContext = createContext<IdleLockControls | null>(null);

/** For Settings (the minutes) and a "Lock now" button. */
export function useIdleLock(): IdleLockControls {
  const controls = useContext(IdleLockContext);
  if (!controls) throw new Error('useIdleLock must be used inside <IdleLock>');
  return controls;
}

const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'focusin'] as const;

const REASONS: Record<LockReason, (minutes: number) => string> = {
  idle: (minutes) => `Nobody used this desk for ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  system_lock: () => 'The computer was locked.',
  system_suspend: () => 'The computer went to sleep.',
  manual: () => 'Someone locked this desk.',
};

/**
 * Hides everything with PHI after the configured idle minutes (default 5), when the
 * operating system locks the workstation or sleeps, and on "Lock now". The desk stays
 * mounted underneath (hidden, inert, out of the accessibility tree), so a half-typed
 * intake survives the lock; the window title is neutral while locked.
 *
 * On a desk with staff (issue 28) the lock is the sign-in screen: the time-out (the signed-in
 * person's role's minutes) signs them out through the host, audited as a time-out, and their
 * Intake draft waits for them on the draft shelf.
 */
export function IdleLock({ children }: { children: ReactNode }) {
  const bridge = useBridge();
  const queries = useQueryClient();
  const settings = useBridgeQuery('idleLock.get', {}).data;
  const staff = useStaffSession().data;
  const staffDesk = signsIn(staff);
  // A boolean, not the session: a session read again (after an unlock) must not lock again.
  const staffKnown = staff !== null;
  const person = staff?.signed_in ?? null;
  const minutes = (person ? settings?.by_role[person.role] : settings?.minutes) ?? IDLE_LOCK_DEFAULT_MINUTES;
  const [reason, setReason] = useState<LockReason | null>(null);
  const timer = useRef<IdleTimer | null>(null);
  // With a PIN the lock is the host's: it refuses everything else until the PIN is given.
  const pin = useBridgeQuery('lock.status', {}).data;
  const pinSet = pin?.pin_set === true;
  const lock = useCallback(
    (why: LockReason) => {
      if (staffDesk) {
        if (person) noteSignOut(`${REASONS[why](minutes)} ${person.name} was signed out.`);
        // The host signs the person out (the OS lock: it already did); the gate shows the sign-in.
        const engaged = why === 'idle' || why === 'manual' ? bridge.lock.engage({ reason: why }) : Promise.resolve(null);
        void engaged.then(() => bridge.staff.session({})).then((result) => result.ok && sessionChanged(queries, result.value));
        return;
      }
      setReason((current) => current ?? why);
      if (pinSet) void bridge.lock.engage({}).then((result) => result.ok && setBridgeData(queries, 'lock.status', {}, result.value));
    },
    [staffDesk, person, minutes, pinSet, bridge, queries],
  );
  // Opened (or reloaded) while the host is locked: show the lock at once, once the session says
  // this is not a desk asking for its first manager: the first-start screen asks that PIN itself.
  useEffect(() => {
    if (pin?.locked && staffKnown && !staffDesk) setReason((current) => current ?? 'manual');
  }, [pin?.locked, staffKnown, staffDesk]);
  const unlocked = useCallback(() => {
    setReason(null);
    // What was refused while locked is read again now.
    void queries.invalidateQueries();
  }, [queries]);

  useEffect(() => bridge.on('session.locked', (payload) => lock(payload.reason)), [bridge, lock]);

  useEffect(() => {
    // Nothing to hide while the sign-in screen is up.
    if (reason !== null || (staffDesk && person === null)) return;
    const idle = createIdleTimer(
      { now: () => Date.now(), setTimeout: (fn, ms) => window.setTimeout(fn, ms), clearTimeout: (h) => window.clearTimeout(h as number) },
      { limitMs: minutes * 60_000, onIdle: () => lock('idle') },
    );
    timer.current = idle;
    const onActivity = () => idle.activity();
    ACTIVITY_EVENTS.forEach((name) => window.addEventListener(name, onActivity, { passive: true, capture: true }));
    return () => {
      ACTIVITY_EVENTS.forEach((name) => window.removeEventListener(name, onActivity, { capture: true }));
      idle.stop();
      timer.current = null;
    };
  }, [reason, minutes, lock, staffDesk, person]);

  useEffect(() => {
    if (reason === null) return;
    const title = document.title;
    document.title = 'Coverdesk (locked)';
    return () => {
      document.title = title;
    };
  }, [reason]);

  const controls = useMemo<IdleLockControls>(
    () => ({
      minutes,
      settings: settings ?? null,
      async setMinutes(update) {
        const result = await bridge.idleLock.update(update);
        if (!result.ok) return { field: result.error.errors?.[0]?.path ?? null, message: result.error.errors?.[0]?.message ?? result.error.message };
        setBridgeData(queries, 'idleLock.get', {}, result.value);
        return null;
      },
      lockNow: () => lock('manual'),
    }),
    [minutes, settings, lock, bridge, queries],
  );

  return (
    <IdleLockContext.Provider value={controls}>
      <IdleLockView reason={reason} minutes={minutes} pin={pinSet ? pin : null} onUnlock={unlocked}>
        {children}
      </IdleLockView>
    </IdleLockContext.Provider>
  );
}

/** What the lock shows; separate so it can be rendered (and checked) without timers. */
export function IdleLockView(props: { reason: LockReason | null; minutes: number; pin?: LockStatus | null; onUnlock(): void; children: ReactNode }) {
  const locked = props.reason !== null;
  return (
    <>
      <div className="idle-lock__content" hidden={locked} aria-hidden={locked || undefined} inert={locked}>
        {props.children}
      </div>
      {locked && (
        <div className="idle-lock" role="dialog" aria-modal="true" aria-labelledby="idle-lock-title">
          <div className="idle-lock__panel">
            <h1 id="idle-lock-title">Coverdesk is locked</h1>
            {props.pin ? (
              <>
                <p>{REASONS[props.reason!](props.minutes)} Patient information is hidden until the workstation PIN is entered.</p>
                <PinUnlock status={props.pin} onUnlocked={props.onUnlock} />
              </>
            ) : (
              <>
                <p>{REASONS[props.reason!](props.minutes)} Patient information is hidden until someone at the desk continues.</p>
                <button type="button" className="button button--primary" autoFocus onClick={props.onUnlock}>
                  Continue working
                </button>
              </>
            )}
          </div>
        </div>
      )}
    </>
  );
}
