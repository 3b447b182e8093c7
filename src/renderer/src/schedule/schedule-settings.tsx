import { useState } from 'react';
import type { AppointmentSettings } from '../../../shared/bridge/appointment-contract';
import type { ServiceType } from '../../../shared/contract';
import { useBridge } from '../bridge/bridge-provider';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { SERVICE_TYPE_OPTIONS } from '../eligibility/service-type-options';
import { Button } from '../ui/button';
import { Notice } from '../ui/notice';

/**
 * How the schedule is checked: which visit types the scheduling system writes and the
 * service type each is checked for, how recent a check may be to skip it, and how many
 * checks a batch keeps waiting for the payer at once.
 */
export function ScheduleSettings() {
  const settings = useBridgeQuery('appointments.settings', {});
  if (!settings.data) return null;
  // Keyed by the saved settings: a save (or another desk's) starts the form again from them.
  return <SettingsForm key={JSON.stringify(settings.data)} saved={settings.data} onSaved={settings.reload} />;
}

function SettingsForm({ saved, onSaved }: { saved: AppointmentSettings; onSaved(): void }) {
  const bridge = useBridge();
  const [types, setTypes] = useState<{ name: string; service_type: ServiceType }[]>(() =>
    Object.entries(saved.visit_types).map(([name, service_type]) => ({ name, service_type })),
  );
  const [recheckDays, setRecheckDays] = useState(String(saved.recheck_days));
  const [inFlight, setInFlight] = useState(String(saved.max_in_flight));
  const [discover, setDiscover] = useState(saved.discover_without_insurance);
  const [message, setMessage] = useState<{ tone: 'ok' | 'bad'; text: string } | null>(null);

  const save = async () => {
    const answer = await bridge.appointments.updateSettings({
      visit_types: Object.fromEntries(types.filter((t) => t.name.trim()).map((t) => [t.name.trim(), t.service_type])),
      recheck_days: Number(recheckDays),
      max_in_flight: Number(inFlight),
      discover_without_insurance: discover,
    });
    if (!answer.ok) setMessage({ tone: 'bad', text: answer.error.errors?.map((e) => `${e.path}: ${e.message}`).join(' ') || answer.error.message });
    else {
      setMessage({ tone: 'ok', text: 'Saved.' });
      onSaved();
    }
  };

  return (
    <details className="stack no-print">
      <summary>Visit types and batch checks</summary>
      <div className="row">
        <div className="field">
          <label className="field__label" htmlFor="recheck-days">
            Skip a check when one succeeded within (days)
          </label>
          <input id="recheck-days" className="input input--time" type="number" min={0} max={365} value={recheckDays} onChange={(e) => setRecheckDays(e.target.value)} />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="max-in-flight">
            Checks waiting for the payer at once
          </label>
          <input id="max-in-flight" className="input input--time" type="number" min={1} max={50} value={inFlight} onChange={(e) => setInFlight(e.target.value)} />
        </div>
      </div>
      <label className="row">
        <input type="checkbox" checked={discover} onChange={(e) => setDiscover(e.target.checked)} />
        Run a discovery, when the schedule is imported, for a patient with no insurance in the schedule and no card on file
      </label>
      <table className="table" aria-label="Visit types">
        <thead>
          <tr>
            <th>Visit type, as the scheduling system writes it</th>
            <th>Checked for</th>
            <th>
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {types.map((t, i) => (
            <tr key={i}>
              <td>
                <input
                  className="input"
                  aria-label={`Visit type ${i + 1}`}
                  value={t.name}
                  onChange={(e) => setTypes((all) => all.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))}
                />
              </td>
              <td>
                <select
                  className="select"
                  aria-label={`Service type for visit type ${i + 1}`}
                  value={t.service_type}
                  onChange={(e) => setTypes((all) => all.map((x, j) => (j === i ? { ...x, service_type: e.target.value as ServiceType } : x)))}
                >
                  {SERVICE_TYPE_OPTIONS.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
              </td>
              <td>
                <Button size="small" onClick={() => setTypes((all) => all.filter((_, j) => j !== i))}>
                  Remove
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row">
        <Button onClick={() => setTypes((all) => [...all, { name: '', service_type: 'professional_physician_visit_office' }])}>Add a visit type</Button>
        <Button variant="primary" onClick={() => void save()}>
          Save
        </Button>
      </div>
      {message && (
        <Notice tone={message.tone} live>
          {message.text}
        </Notice>
      )}
    </details>
  );
}
