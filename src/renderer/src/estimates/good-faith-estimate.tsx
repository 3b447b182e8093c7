import { useState } from 'react';
import { createPortal } from 'react-dom';
import type { WorklistRow } from '../../../shared/bridge/appointment-contract';
import { SERVICE_CODE, type GfeDocument } from '../../../shared/bridge/gfe-contract';
import { formatCents } from '../../../shared/money';
import { useBridge } from '../bridge/bridge-provider';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { formatDob, patientName } from '../format';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { Notice } from '../ui/notice';

/** "2026-11-24" → "Tue, Nov 24": the deadline as the desk reads it. */
export function formatDay(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** The worklist's GFE line: due by its deadline, or issued. */
export function GfeLine({ gfe }: { gfe: NonNullable<WorklistRow['gfe']> }) {
  if (gfe.state === 'issued') return <div className="small" data-testid="gfe-state">GFE issued</div>;
  return (
    <div className="small gfe-due" data-testid="gfe-state">
      {gfe.due_on ? `GFE due by ${formatDay(gfe.due_on)}` : 'Self-pay: GFE on request only (booked under 3 business days ahead)'}
    </div>
  );
}

const list = (text: string) =>
  text
    .split(/[,;\n]/)
    .map((part) => part.trim())
    .filter(Boolean);

/**
 * Issuing a self-pay visit's Good Faith Estimate (issue 30, item 5): the expected items from
 * the fee schedule's codes, what is known of the diagnosis, what is scheduled separately,
 * and the practice's details (kept after the first). Every refusal is shown by its field.
 */
export function GfeIssueForm({ row, onIssued }: { row: WorklistRow; onIssued(id: string): void }) {
  const bridge = useBridge();
  const fees = useBridgeQuery('feeSchedule.get', {});
  const saved = useBridgeQuery('gfe.practice', {});
  const codes = [...new Set((fees.data?.rows ?? []).filter((r) => r.clearinghouse_entity_id === null && SERVICE_CODE.test(r.service.toUpperCase())).map((r) => r.service.toUpperCase()))];
  const [chosen, setChosen] = useState<string[]>([]);
  const [primary, setPrimary] = useState(row.appointment.visit_type ?? '');
  const [diagnoses, setDiagnoses] = useState('');
  const [separately, setSeparately] = useState('');
  const [practice, setPractice] = useState<Record<string, string> | null>(null);
  const [errors, setErrors] = useState<{ path: string; message: string }[]>([]);
  const current = practice ?? saved.data?.practice ?? { facility_name: '', facility_npi: '', tin: '', location: '' };
  const setField = (key: string) => (value: string) => setPractice({ ...current, [key]: value });
  const errorOf = (path: string) => errors.filter((e) => e.path === path || e.path.startsWith(`${path}.`)).map((e) => e.message).join(' ') || undefined;
  const id = row.appointment.id;
  const issue = async () => {
    const answer = await bridge.gfe.issue({
      appointment_id: id,
      ...(primary.trim() ? { primary_service: primary.trim() } : {}),
      items: chosen.map((code) => ({ code })),
      diagnosis_codes: list(diagnoses),
      scheduled_separately: list(separately),
      practice: { facility_name: current.facility_name, facility_npi: current.facility_npi, tin: current.tin, location: current.location },
    });
    if (answer.ok) onIssued(answer.value.id);
    else setErrors(answer.error.errors?.length ? answer.error.errors : [{ path: '', message: answer.error.message }]);
  };
  return (
    <div className="gfe-form" role="group" aria-label="Good Faith Estimate">
      <fieldset className="gfe-form__items">
        <legend>Expected items and services (self-pay charges from the fee schedule)</legend>
        {codes.length === 0 && <p className="small">The fee schedule has no CPT or HCPCS codes with a default amount: import them in Settings.</p>}
        {codes.map((code) => {
          const amount = fees.data!.rows.find((r) => r.clearinghouse_entity_id === null && r.service.toUpperCase() === code)!.allowed_cents;
          return (
            <label key={code} className="gfe-form__item">
              <input type="checkbox" checked={chosen.includes(code)} onChange={(event) => setChosen(event.target.checked ? [...chosen, code] : chosen.filter((c) => c !== code))} /> {code} ·{' '}
              {formatCents(amount)}
            </label>
          );
        })}
        {errorOf('items') && <p className="field__error">{errorOf('items')}</p>}
      </fieldset>
      <div className="gfe-form__grid">
        <TextField id={`gfe-primary-${id}`} label="Primary service" value={primary} onChange={setPrimary} error={errorOf('primary_service')} />
        <TextField id={`gfe-dx-${id}`} label="Diagnosis codes (ICD-10, if known)" value={diagnoses} onChange={setDiagnoses} placeholder="E11.9, I10" error={errorOf('diagnosis_codes')} />
        <TextField id={`gfe-separate-${id}`} label="Scheduled separately" value={separately} onChange={setSeparately} placeholder="Retinal exam" error={errorOf('scheduled_separately')} />
        <TextField id={`gfe-facility-${id}`} label="Facility name" value={current.facility_name} onChange={setField('facility_name')} error={errorOf('practice.facility_name') ?? errorOf('practice')} />
        <TextField id={`gfe-npi-${id}`} label="Facility NPI" value={current.facility_npi} onChange={setField('facility_npi')} error={errorOf('practice.facility_npi')} inputMode="numeric" />
        <TextField id={`gfe-tin-${id}`} label="TIN" value={current.tin} onChange={setField('tin')} error={errorOf('practice.tin')} placeholder="12-3456789" />
        <TextField id={`gfe-location-${id}`} label="Location (street, city, state, ZIP)" value={current.location} onChange={setField('location')} error={errorOf('practice.location')} />
      </div>
      {errors.some((e) => !e.path || e.path === 'provider' || e.path === 'appointment_id') && (
        <Notice tone="bad">{errors.filter((e) => !e.path || e.path === 'provider' || e.path === 'appointment_id').map((e) => e.message).join(' ')}</Notice>
      )}
      <Button variant="primary" size="small" onClick={() => void issue()}>
        Issue the GFE
      </Button>
    </div>
  );
}

/** The GFE as issued, for print: a page of its own over the desk, printed with the browser's dialog. */
export function GfePrintView({ id, onClose }: { id: string; onClose(): void }) {
  const bridge = useBridge();
  const gfe = useBridgeQuery('gfe.get', { id });
  const doc = gfe.data?.document;
  const print = () => {
    void bridge.audit.record({ action: 'print', record_id: id });
    window.print();
  };
  return createPortal(
    <div className="gfe-print" role="dialog" aria-modal="true" aria-label="Good Faith Estimate" data-testid="gfe-print">
      <div className="gfe-print__actions no-print">
        <Button variant="primary" onClick={print}>
          Print
        </Button>
        <Button onClick={onClose}>Close</Button>
      </div>
      {gfe.error && <Notice tone="bad">{gfe.error.message}</Notice>}
      {doc && <GfeDocumentView doc={doc} />}
    </div>,
    document.body,
  );
}

export function GfeDocumentView({ doc }: { doc: GfeDocument }) {
  return (
    <article className="gfe-document">
      <h1>Good Faith Estimate</h1>
      <p>
        Date of issue: <strong>{formatDay(doc.issued_on)}, {doc.issued_on.slice(0, 4)}</strong> · Scheduled service date: <strong>{formatDay(doc.service_on)}, {doc.service_on.slice(0, 4)}</strong>
      </p>
      <dl className="gfe-document__facts">
        <dt>Patient</dt>
        <dd>
          {patientName(doc.patient)}, date of birth {formatDob(doc.patient.date_of_birth)}
        </dd>
        <dt>Primary service</dt>
        <dd>{doc.primary_service}</dd>
        <dt>Provider</dt>
        <dd>
          {doc.provider.name}, NPI {doc.provider.npi}
        </dd>
        <dt>Facility</dt>
        <dd>
          {doc.facility.name}, NPI {doc.facility.npi}, TIN {doc.facility.tin}; {doc.facility.location}
        </dd>
        <dt>Diagnosis codes</dt>
        <dd>{doc.diagnosis_codes.length > 0 ? doc.diagnosis_codes.join(', ') : 'None known at the time of this estimate'}</dd>
      </dl>
      <table className="gfe-document__items">
        <thead>
          <tr>
            <th scope="col">Service code</th>
            <th scope="col">Item or service</th>
            <th scope="col">Quantity</th>
            <th scope="col">Expected charge</th>
          </tr>
        </thead>
        <tbody>
          {doc.items.map((item) => (
            <tr key={item.code}>
              <td className="mono">{item.code}</td>
              <td>{item.description}</td>
              <td>{item.quantity}</td>
              <td>{formatCents(item.charge_cents)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              Total estimated charges
            </th>
            <td data-testid="gfe-total">{formatCents(doc.total_cents)}</td>
          </tr>
        </tfoot>
      </table>
      <h2>Items or services scheduled separately</h2>
      <p>{doc.scheduled_separately.length > 0 ? doc.scheduled_separately.join('; ') : 'None.'}</p>
      <h2>Disclaimers</h2>
      <ul className="gfe-document__disclaimers" data-testid="gfe-disclaimers">
        {doc.disclaimers.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
    </article>
  );
}
