import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { LockStatus } from '../../../shared/bridge/security-contract';
import { useBridge } from '../bridge/bridge-provider';
import { setBridgeData } from '../bridge/query-client';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { Notice } from '../ui/notice';

/**
 * Settings: the workstation PIN. Without one the lock is a privacy screen anyone can lift;
 * with one, the host itself stays locked until the PIN (or the OS's own check) is given.
 */
export function PinPanel() {
  const bridge = useBridge();
  const queries = useQueryClient();
  const status = useBridgeQuery('lock.status', {}).data;
  const [current, setCurrent] = useState('');
  const [pin, setPin] = useState('');
  const [confirm, setConfirm] = useState('');
  const [note, setNote] = useState<{ tone: 'ok' | 'bad'; text: string; field?: 'pin' | 'current_pin' | 'confirm' } | null>(null);
  if (!status) return null;

  const done = (text: string, value: LockStatus) => {
    setBridgeData(queries, 'lock.status', {}, value);
    setCurrent('');
    setPin('');
    setConfirm('');
    setNote({ tone: 'ok', text });
  };
  const refused = (error: { message: string; errors?: { path: string; message: string }[] }) => {
    const field = error.errors?.[0];
    const text = field ? field.message.replace(/^current_pin/, 'The current PIN').replace(/^pin/, 'The PIN') : error.message;
    setNote({ tone: 'bad', text: /\.$/.test(text) ? text : `${text}.`, field: field?.path === 'current_pin' ? 'current_pin' : field ? 'pin' : status.pin_set ? 'current_pin' : 'pin' });
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    // A mistyped PIN would lock the desk out with a PIN nobody knows: typed twice, or not saved.
    if (pin.trim() !== confirm.trim()) {
      setNote({ tone: 'bad', text: 'The two new PINs differ: type the same 4 to 12 digits in both.', field: 'confirm' });
      return;
    }
    const result = await bridge.lock.setPin({ pin: pin.trim(), ...(status.pin_set ? { current_pin: current } : {}) });
    if (result.ok) done(status.pin_set ? 'PIN changed.' : 'PIN set.', result.value);
    else refused(result.error);
  };
  const remove = async () => {
    const result = await bridge.lock.removePin({ current_pin: current });
    if (result.ok) done('PIN removed: the lock is a privacy screen again.', result.value);
    else refused(result.error);
  };

  return (
    <form className="stack" onSubmit={(event) => void save(event)} aria-labelledby="settings-pin" noValidate>
      <h3 id="settings-pin">Workstation PIN</h3>
      <p className="muted">
        {status.pin_set
          ? 'A PIN is set: the lock asks for it. A few wrong tries make Coverdesk wait before the next one.'
          : 'No PIN: anyone at the desk can lift the lock. Set a PIN (4 to 12 digits) to have the lock ask for it.'}
      </p>
      <div className="grid-2">
        {status.pin_set && (
          <TextField
            id="settings-current-pin"
            label="Current PIN"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            value={current}
            onChange={setCurrent}
            error={note?.tone === 'bad' && note.field === 'current_pin' ? note.text : undefined}
          />
        )}
        <TextField
          id="settings-new-pin"
          label="New PIN"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          value={pin}
          onChange={setPin}
          hint="4 to 12 digits."
          error={note?.tone === 'bad' && note.field === 'pin' ? note.text : undefined}
        />
        <TextField
          id="settings-confirm-pin"
          label="New PIN again"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          value={confirm}
          onChange={setConfirm}
          error={note?.tone === 'bad' && note.field === 'confirm' ? note.text : undefined}
        />
      </div>
      {note?.tone === 'ok' && (
        <Notice tone="ok" live>
          {note.text}
        </Notice>
      )}
      <div className="row">
        <Button type="submit" variant="primary">
          {status.pin_set ? 'Change PIN' : 'Set PIN'}
        </Button>
        {status.pin_set && (
          <Button variant="danger" onClick={() => void remove()}>
            Remove PIN
          </Button>
        )}
      </div>
    </form>
  );
}
