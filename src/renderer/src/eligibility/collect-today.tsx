import { useEffect, useMemo, useState } from 'react';
import type { Check } from '../../../shared/contract';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import type { Collection } from '../../../shared/bridge/collection-contract';
import { RecordPayment } from '../collections/record-payment';
import { ReceiptView } from '../collections/receipt';
import { Button } from '../ui/button';

/** Visit-type names as Settings keys them: case and spacing do not matter. */
const key = (name: string) => name.trim().toLowerCase().replace(/[-\s]+/g, ' ');

/**
 * "Collect today" on the Eligibility summary (issue 30): the estimate for the visit from
 * this check and the fee schedule, with the steps that led to it. The desk picks the visit
 * type the fee schedule is read by; it starts on one whose service type is the check's.
 */
export function CollectToday({ check }: { check: Check }) {
  const fees = useBridgeQuery('feeSchedule.get', {});
  const appointmentSettings = useBridgeQuery('appointments.settings', {});
  const services = useMemo(() => [...new Map((fees.data?.rows ?? []).map((row) => [key(row.service), row.service])).values()], [fees.data]);
  const suggested = useMemo(() => {
    const visitTypes = appointmentSettings.data?.visit_types ?? {};
    return services.find((service) => visitTypes[key(service)] === check.service_type) ?? '';
  }, [services, appointmentSettings.data, check.service_type]);
  const [chosen, setChosen] = useState<string | null>(null);
  const [recording, setRecording] = useState(false);
  const [receipt, setReceipt] = useState<Collection | null>(null);
  useEffect(() => {
    setChosen(null);
    setRecording(false);
    setReceipt(null);
  }, [check.id]);
  const visitType = chosen ?? suggested;
  const estimate = useBridgeQuery('estimates.forCheck', fees.loading ? null : { check_id: check.id, ...(visitType ? { visit_type: visitType } : {}) }, { keepPrevious: true });
  const e = estimate.data;
  return (
    <div className="figure collect-today" data-testid="collect-today">
      <div className="collect-today__head">
        <p className="figure__label">Collect today</p>
        {services.length > 0 && (
          <label className="small collect-today__visit">
            Visit type{' '}
            <select value={visitType} onChange={(event) => setChosen(event.target.value)} data-testid="collect-today-visit-type">
              <option value="">None (the copay alone)</option>
              {services.map((service) => (
                <option key={service} value={service}>
                  {service}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {estimate.error ? (
        <p className="figure__sub">{estimate.error.errors?.[0]?.message ?? estimate.error.message}</p>
      ) : !e ? (
        <p className="figure__sub">Working it out…</p>
      ) : (
        <>
          <p className="figure__value" data-testid="collect-today-amount">
            {e.headline.replace(/^Collect today: /, '')}
          </p>
          <p className="figure__sub" data-testid="collect-today-steps">
            {e.steps.map((step) => step.text).join('; ')}
            {e.network === 'out_of_network' ? ' (out of network)' : ''}.
          </p>
          {!e.exact && <p className="figure__sub">A range: the payer’s figures leave the exact amount open.</p>}
          {fees.data && fees.data.rows.length === 0 && <p className="figure__sub">No fee schedule yet: the copay alone. Import one in Settings.</p>}
          {e.stale && (
            <p className="figure__sub collect-today__stale" data-testid="collect-today-stale">
              Stale: this check is older than {e.freshness_days} days. Check again before collecting.
            </p>
          )}
           {!recording && !receipt && (
            <div className="row no-print">
              <Button size="small" variant="primary" onClick={() => setRecording(true)} data-testid="record-payment-open">
                Record payment
              </Button>
            </div>
          )}
          {recording && (
            <RecordPayment
              visit={{ check_id: check.id, ...(visitType ? { visit_type: visitType } : {}) }}
              estimateMax={e.max_cents}
              onRecorded={(entry) => {
                setRecording(false);
                setReceipt(entry);
              }}
              onCancel={() => setRecording(false)}
            />
          )}
          {receipt && <ReceiptView entry={receipt} onClose={() => setReceipt(null)} />}
        </>
      )}
    </div>
  );
}
