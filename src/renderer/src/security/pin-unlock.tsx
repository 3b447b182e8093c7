import { useState, type FormEvent } from 'react';
import type { LockStatus } from '../../../shared/bridge/security-contract';
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

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const result = await bridge.lock.unlock({ pin });
    setBusy(false);
    setPin('');
    if (result.ok) onUnlocked();
    else setError(result.error.message);
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
          aria-describedby={error ? 'unlock-error' : undefined}
          aria-invalid={error ? true : undefined}
        />
      </div>
      {error && (
        <p className="notice notice--bad" role="alert" id="unlock-error">
          {error}
        </p>
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
