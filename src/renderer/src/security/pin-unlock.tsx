import { useEffect, useState, type FormEvent } from 'react';
import type { LockStatus } from '../../../shared/bridge/security-contract';
import { pinWaitText } from '../../../shared/bridge/lock-words';
import { useBridge } from '../bridge/bridge-provider';
import { Button } from '../ui/button';

/**
 * The lock screen's PIN form. The host decides: it counts wrong PINs and makes the desk
 * wait; this only shows what it said. Unlocked, `onUnlocked` lifts the screen.
 */
export function PinUnlock({ status, onUnlocked }: { status: LockStatus; onUnlocked(): void }) {
  const bridge = useBridge();
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [retryAt, setRetryAt] = useState(status.retry_at);
  const now = useTickingNow(retryAt);
  const wait = pinWaitText(retryAt, now);
  // The host's refusal named the wait as it was; while it runs, the countdown replaces it.
  const waited = retryAt !== null && wait === null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setRetryAt(null);
    const result = await bridge.lock.unlock({ pin });
    setBusy(false);
    setPin('');
    if (result.ok) return onUnlocked();
    setError(result.error.message);
    const after = await bridge.lock.status({});
    if (after.ok) setRetryAt(after.value.retry_at);
  };
  const system = async () => {
    const result = await bridge.lock.unlockWithSystem({});
    if (result.ok) onUnlocked();
    else setError(result.error.message);
  };

  return (
    <form className="stack" onSubmit={(event) => void submit(event)} noValidate>
      <div className="field">
        <label className="field__label" htmlFor="unlock-pin">
          PIN
        </label>
        <input
          id="unlock-pin"
          className="input"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          autoFocus
          value={pin}
          onChange={(event) => setPin(event.target.value)}
          aria-describedby={error || wait ? 'unlock-error' : undefined}
          aria-invalid={error || wait ? true : undefined}
        />
      </div>
      {wait ? (
        // A timer, not an alert: a screen reader would read it out every second.
        <p className="notice notice--bad" role="timer" id="unlock-error">
          {wait}
        </p>
      ) : waited ? (
        <p className="notice" role="status" id="unlock-error">
          The wait is over: enter the PIN again.
        </p>
      ) : (
        error && (
          <p className="notice notice--bad" role="alert" id="unlock-error">
            {error}
          </p>
        )
      )}
      <div className="row row--center">
        <Button type="submit" variant="primary" disabled={busy}>
          Unlock
        </Button>
        {status.system_unlock && <Button onClick={() => void system()}>Unlock with {status.system_unlock}</Button>}
      </div>
    </form>
  );
}

/** The time now, re-read every second while `until` lies ahead, so a countdown ticks by itself. */
function useTickingNow(until: string | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (until === null || Date.parse(until) <= Date.now()) return;
    const timer = window.setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at >= Date.parse(until)) window.clearInterval(timer);
    }, 1_000);
    return () => window.clearInterval(timer);
  }, [until]);
  return now;
}
