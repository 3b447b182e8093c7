import { useState } from 'react';
import type { BatchProgress } from '../../../shared/bridge/appointment-contract';
import { useBridge } from '../bridge/bridge-provider';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { useDeskStatus } from '../state/desk-status';
import { useReferenceData } from '../state/reference-data';
import { Button } from '../ui/button';
import { SelectField } from '../ui/field';
import { Notice } from '../ui/notice';

function timeLeft(seconds: number | null): string {
  if (seconds === null) return '';
  if (seconds < 60) return ' · less than a minute left';
  return ` · about ${Math.round(seconds / 60)} min left`;
}

/**
 * "Check tomorrow" (or the day shown): a batch of checks the host runs and keeps through a
 * restart; here its progress, updated by the host's events, or a start time while the app is open.
 */
export function BatchPanel({ date, label, onProviderSet }: { date: string; label: string; onProviderSet?(): void }) {
  const bridge = useBridge();
  // The host pushes each step as an event (bridge-invalidation.ts); a slow poll covers a missed one.
  const progress = useBridgeQuery('appointments.progress', { date }, { poll: (p) => (p && p.state !== 'finished' && p.state !== 'none' ? 2000 : false) });
  const [at, setAt] = useState('');
  const [error, setError] = useState<string | null>(null);

  const start = async (startAt?: string) => {
    setError(null);
    const answer = await bridge.appointments.checkDay({ date, ...(startAt ? { start_at: startAt } : {}) });
    if (!answer.ok) setError(answer.error.message);
    progress.reload();
  };
  const schedule = () => {
    // The start is today at that time, on this computer's clock.
    const [h, m] = at.split(':').map(Number) as [number, number];
    const now = new Date();
    void start(new Date(now.getFullYear(), now.getMonth(), now.getDate(), h, m).toISOString());
  };

  const p = progress.data;
  const running = p && (p.state === 'running' || p.state === 'scheduled');
  return (
    <div className="batch-panel no-print stack" data-testid="batch-panel">
      <ProviderSetup onSaved={onProviderSet} />
      <div className="row">
        <Button variant="primary" disabled={Boolean(running)} onClick={() => void start()}>
          Check {label}
        </Button>
        <label className="field__label" htmlFor="batch-at">
          or start at
        </label>
        <input id="batch-at" className="input input--time" type="time" value={at} onChange={(event) => setAt(event.target.value)} />
        <Button disabled={!at || Boolean(running)} onClick={schedule}>
          Schedule
        </Button>
      </div>
      {error && (
        <Notice tone="bad" live>
          {error}
        </Notice>
      )}
      {p && p.state !== 'none' && <ProgressLine progress={p} />}
    </div>
  );
}

function ProgressLine({ progress }: { progress: BatchProgress }) {
  const share = progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 100;
  const text =
    progress.state === 'scheduled'
      ? `Starts at ${new Date(progress.start_at ?? '').toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' })} while Coverdesk is open.`
      : `${progress.done} of ${progress.total} done (${progress.checks} checks, ${progress.total - progress.checks} need no check)${progress.state === 'finished' && progress.done === progress.total ? ' · finished' : timeLeft(progress.seconds_left)}`;
  return (
    <div role="status" aria-live="polite" data-testid="batch-progress">
      <p className="small">{text}</p>
      <div className="meter" aria-hidden="true">
        <div className="meter__fill" style={{ width: `${share}%` }} />
      </div>
    </div>
  );
}

/**
 * A fresh install has no default provider, and no check can be asked without one: before
 * the first batch the desk is asked for the provider the practice bills under (the
 * service's providers, the sandbox's out of the box). Saved as the Settings default.
 */
function ProviderSetup({ onSaved }: { onSaved?(): void }) {
  const bridge = useBridge();
  const { settings, reload } = useDeskStatus();
  const { providers } = useReferenceData();
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!settings || settings.default_provider_id) return null;
  const save = async () => {
    if (!chosen) {
      setError('Choose the provider the practice bills under.');
      return;
    }
    const answer = await bridge.settings.update({ default_provider_id: chosen });
    if (!answer.ok) setError(answer.error.message);
    else {
      setError(null);
      reload();
      onSaved?.();
    }
  };
  return (
    <form
      className="stack"
      aria-label="Provider for checks"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <Notice tone="warn">No provider set: choose the provider the practice bills under before checking. It becomes the default provider in Settings.</Notice>
      <div className="row row--bottom">
        <SelectField
          id="batch-provider"
          label="Provider the practice bills under"
          placeholder="Choose a provider"
          value={chosen}
          onChange={setChosen}
          options={providers.map((provider) => ({ value: provider.id, label: `${provider.name} (NPI ${provider.npi})` }))}
          error={error ?? undefined}
        />
        <Button type="submit">Save provider</Button>
      </div>
    </form>
  );
}
