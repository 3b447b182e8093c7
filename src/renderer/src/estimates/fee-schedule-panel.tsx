import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { BridgeError } from '../../../shared/bridge/contract';
import { useBridge } from '../bridge/bridge-provider';
import { bridgeKey, setBridgeData } from '../bridge/query-client';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { formatCents, formatWhen } from '../format';
import { Button } from '../ui/button';
import { saveTextFile, toBase64 } from '../ui/file-transfer';
import { Loading, Notice } from '../ui/notice';
import { TextField } from '../ui/field';
import type { FeeSchedule, FeeScheduleRow } from '../../../shared/bridge/estimate-contract';

type Note = { tone: 'ok' | 'bad'; text: string; rows?: string[] };

/** The refusal as the desk reads it: what is wrong, then each bad row. */
function refusal(error: BridgeError): Note {
  return { tone: 'bad', text: `Nothing was imported: ${error.errors?.length ? 'fix these rows and import the file again.' : error.message}`, rows: error.errors?.map((e) => e.message) };
}

/**
 * Settings: the practice's fee schedule (issue 30). Shows it, imports a CSV or TSV (which
 * replaces it whole, or is refused whole naming every bad row), exports it, and sets how long
 * a check's answer is good for before its estimate is marked stale.
 */
export function FeeSchedulePanel() {
  const bridge = useBridge();
  const queries = useQueryClient();
  const schedule = useBridgeQuery('feeSchedule.get', {});
  const [note, setNote] = useState<Note | null>(null);
  const [days, setDays] = useState<string | null>(null);
  const [edit, setEdit] = useState({ service: '', payer: '', allowed: '' });
  const [editErrors, setEditErrors] = useState<Partial<Record<keyof typeof edit, string>>>({});
  const value = schedule.data;

  const changed = (next: FeeSchedule, text: string) => {
    setBridgeData(queries, 'feeSchedule.get', {}, next);
    void queries.invalidateQueries({ queryKey: bridgeKey('estimates.forCheck') });
    setNote({ tone: 'ok', text });
  };

  const saveRow = async () => {
    setNote(null);
    const result = await bridge.feeSchedule.setRow(edit);
    if (!result.ok) {
      const errors: Partial<Record<keyof typeof edit, string>> = {};
      for (const e of result.error.errors ?? []) if (e.path in edit) errors[e.path as keyof typeof edit] = e.message;
      setEditErrors(errors);
      if (!result.error.errors?.length) setNote({ tone: 'bad', text: result.error.message });
      return;
    }
    setEditErrors({});
    setEdit({ service: '', payer: '', allowed: '' });
    changed(result.value, `Saved the amount for ${edit.service.trim()}.`);
  };

  const removeRow = async (row: FeeScheduleRow) => {
    const result = await bridge.feeSchedule.removeRow({ service: row.service, clearinghouse_entity_id: row.clearinghouse_entity_id });
    if (!result.ok) return setNote({ tone: 'bad', text: result.error.message });
    changed(result.value, `Removed the amount for ${row.service}${row.payer ? ` at ${row.payer}` : ''}.`);
  };

  const importFile = async (file: File | undefined) => {
    if (!file) return;
    setNote(null);
    const result = await bridge.feeSchedule.import({ data_base64: toBase64(new Uint8Array(await file.arrayBuffer())), file_name: file.name });
    if (!result.ok) return setNote(refusal(result.error));
    setBridgeData(queries, 'feeSchedule.get', {}, result.value.schedule);
    void queries.invalidateQueries({ queryKey: bridgeKey('estimates.forCheck') });
    setNote({ tone: 'ok', text: `Imported ${result.value.imported} ${result.value.imported === 1 ? 'amount' : 'amounts'} from ${file.name}.` });
  };

  const exportFile = async () => {
    const result = await bridge.feeSchedule.export({});
    if (!result.ok) return setNote({ tone: 'bad', text: result.error.message });
    saveTextFile(result.value.csv, result.value.filename);
    setNote({ tone: 'ok', text: `Saved as ${result.value.filename}.` });
  };

  const saveDays = async () => {
    const n = Number(days);
    if (!Number.isInteger(n) || n < 1 || n > 365) return setNote({ tone: 'bad', text: 'Days a check is good for: a whole number from 1 to 365.' });
    const result = await bridge.feeSchedule.updateFreshness({ freshness_days: n });
    if (!result.ok) return setNote({ tone: 'bad', text: result.error.message });
    setBridgeData(queries, 'feeSchedule.get', {}, result.value);
    void queries.invalidateQueries({ queryKey: bridgeKey('estimates.forCheck') });
    setDays(null);
    setNote({ tone: 'ok', text: `Estimates from checks older than ${n} days are marked stale.` });
  };

  return (
    <section className="panel" aria-labelledby="settings-fee-schedule" data-testid="fee-schedule">
      <div className="panel__header">
        <h2 id="settings-fee-schedule">Fee schedule</h2>
        {value?.imported_at && <span className="muted small">imported {formatWhen(value.imported_at)}</span>}
      </div>
      <div className="stack">
        <p className="muted">
          The amount each payer is expected to allow for a visit type or procedure code: “Collect today” on the Eligibility summary is worked out from it. A CSV or TSV with a header row: “Visit type”
          (or “Procedure code”), “Payer” (empty or “default” for every other payer) and “Allowed” in dollars. Importing replaces the whole schedule; single amounts are added, changed or removed below.
        </p>
        <div className="row">
          <label className="button button--primary">
            Import fee schedule…
            <input type="file" accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values" className="visually-hidden" aria-label="Choose a fee schedule file" data-testid="fee-schedule-file" onChange={(event) => void importFile(event.target.files?.[0])} />
          </label>
          <Button onClick={() => void exportFile()} disabled={!value || value.rows.length === 0}>
            Export as CSV
          </Button>
        </div>
        {note && (
          <Notice tone={note.tone} live>
            {note.text}
            {note.rows && (
              <ul data-testid="fee-schedule-errors">
                {note.rows.map((row) => (
                  <li key={row}>{row}</li>
                ))}
              </ul>
            )}
          </Notice>
        )}
        {schedule.loading && !value ? (
          <Loading label="Reading the fee schedule…" />
        ) : !value ? (
          <Notice tone="warn">The fee schedule is not available: {schedule.error?.message}</Notice>
        ) : value.rows.length === 0 ? (
          <p>No fee schedule yet: estimates use the copay alone, and say so.</p>
        ) : (
          <div className="table-wrap fee-schedule__rows">
            <table className="table" aria-label="Fee schedule">
              <thead>
                <tr>
                  <th scope="col">Visit type or code</th>
                  <th scope="col">Payer</th>
                  <th scope="col">Allowed</th>
                  <th scope="col">
                    <span className="visually-hidden">Remove</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {value.rows.map((row) => (
                  <tr key={`${row.service}|${row.clearinghouse_entity_id ?? ''}`}>
                    <td>{row.service}</td>
                    <td>{row.payer ?? <span className="muted">Default (every other payer)</span>}</td>
                    <td className="mono">{formatCents(row.allowed_cents)}</td>
                    <td>
                      <Button size="small" onClick={() => void removeRow(row)} aria-label={`Remove the amount for ${row.service}, ${row.payer ?? 'default payer'}`}>
                        Remove
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {value && (
          <form
            className="row row--bottom"
            aria-label="Add or change an amount"
            onSubmit={(event) => {
              event.preventDefault();
              void saveRow();
            }}
          >
            <TextField id="fee-row-service" label="Visit type or code" value={edit.service} onChange={(service) => setEdit({ ...edit, service })} error={editErrors.service} autoComplete="off" />
            <TextField id="fee-row-payer" label="Payer" placeholder="default" value={edit.payer} onChange={(payer) => setEdit({ ...edit, payer })} error={editErrors.payer} autoComplete="off" />
            <TextField id="fee-row-allowed" label="Allowed ($)" value={edit.allowed} onChange={(allowed) => setEdit({ ...edit, allowed })} error={editErrors.allowed} autoComplete="off" inputMode="decimal" className="fee-schedule__days" />
            <Button type="submit">Save amount</Button>
          </form>
        )}
        {value && (
          <form
            className="row"
            onSubmit={(event) => {
              event.preventDefault();
              void saveDays();
            }}
          >
            <label htmlFor="fee-schedule-freshness">A check’s answer is good for (days)</label>
            <input id="fee-schedule-freshness" type="number" min={1} max={365} className="input fee-schedule__days" value={days ?? String(value.freshness_days)} onChange={(event) => setDays(event.target.value)} />
            <Button type="submit" size="small">
              Save
            </Button>
          </form>
        )}
      </div>
    </section>
  );
}
