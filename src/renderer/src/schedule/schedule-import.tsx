import { useState, type DragEvent } from 'react';
import type { ColumnMapping, ImportResult, ScheduleField, ScheduleFileInput, SchedulePreview } from '../../../shared/bridge/appointment-contract';
import { ScheduleField as ScheduleFields } from '../../../shared/bridge/appointment-contract';
import { useBridge } from '../bridge/bridge-provider';
import { Button } from '../ui/button';
import { Notice, Panel } from '../ui/notice';
import { columnLabel, FIELD_LABELS, SKIP_LABELS } from './worklist-labels';
import { toBase64 } from '../ui/file-transfer';

/** The host refuses more; saying so before reading a huge file spares the desk a wait. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * The schedule export, dropped, picked or pasted: a preview with the column mapping the host
 * guessed (or remembered), which the desk can correct before importing; then what happened
 * to each row.
 */
export function ScheduleImport({ onImported }: { onImported(result: ImportResult): void }) {
  const bridge = useBridge();
  const [file, setFile] = useState<{ input: ScheduleFileInput; name: string } | null>(null);
  const [preview, setPreview] = useState<SchedulePreview | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pasted, setPasted] = useState('');
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);

  const load = async (input: ScheduleFileInput, name: string) => {
    setError(null);
    setResult(null);
    setBusy(true);
    const answer = await bridge.appointments.preview(input);
    setBusy(false);
    if (!answer.ok) {
      setFile(null);
      setPreview(null);
      setError(answer.error.errors?.[0]?.message ?? answer.error.message);
      return;
    }
    setFile({ input, name });
    setPreview(answer.value);
    setMapping(answer.value.mapping);
  };

  const readFile = async (picked: File | undefined) => {
    if (!picked) return;
    if (picked.size > MAX_FILE_BYTES) {
      setError(`“${picked.name}” is ${(picked.size / 1024 / 1024).toFixed(0)} MB; a schedule file must be at most 10 MB. Export one day or one week at a time.`);
      return;
    }
    await load({ data_base64: toBase64(new Uint8Array(await picked.arrayBuffer())), file_name: picked.name }, picked.name);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    void readFile(event.dataTransfer.files[0]);
  };

  const runImport = async () => {
    if (!file) return;
    setBusy(true);
    const answer = await bridge.appointments.import({ ...file.input, mapping });
    setBusy(false);
    if (!answer.ok) {
      setError(answer.error.errors?.map((e) => e.message).join(' ') || answer.error.message);
      return;
    }
    setResult(answer.value);
    setPreview(null);
    onImported(answer.value);
  };

  const columns = preview ? Math.max(preview.headers.length, ...preview.rows.map((r) => r.length)) : 0;
  const columnName = (i: number) => preview?.headers[i] || `Column ${i + 1}`;
  const setField = (field: ScheduleField, value: string) => {
    setMapping((current) => {
      const next = { ...current };
      if (value === '') delete next[field];
      else next[field] = Number(value);
      return next;
    });
  };

  return (
    <Panel title="Import a schedule" titleId="schedule-import" className="no-print">
      <div
        className={`drop-zone${dragging ? ' drop-zone--over' : ''}`}
        data-testid="schedule-drop"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <p>Drop the CSV or TSV export from your scheduling system here, or</p>
        <label className="button">
          Choose a file…
          <input
            type="file"
            className="visually-hidden"
            accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values"
            aria-label="Choose a schedule file"
            onChange={(event) => void readFile(event.target.files?.[0])}
          />
        </label>
      </div>
      <details className="stack">
        <summary>Or paste the schedule</summary>
        <label className="field__label" htmlFor="schedule-paste">
          Rows copied from the scheduling system or a spreadsheet, with the header row
        </label>
        <textarea id="schedule-paste" className="input" rows={5} value={pasted} onChange={(event) => setPasted(event.target.value)} />
        <Button disabled={!pasted.trim() || busy} onClick={() => void load({ text: pasted }, 'pasted text')}>
          Preview pasted rows
        </Button>
      </details>

      {error && (
        <Notice tone="bad" live>
          {error}
        </Notice>
      )}

      {preview && file && (
        <div className="stack" data-testid="schedule-preview">
          <p>
            <strong>{file.name}</strong>: {preview.row_count} {preview.row_count === 1 ? 'row' : 'rows'}
            {preview.encoding === 'windows-1252' && ' (read as a Windows file, accents kept)'}.{' '}
            {preview.mapping_source === 'remembered' ? 'The columns are matched as you set them last time.' : 'Check which column holds what, then import.'}
          </p>
          <div className="mapping-grid">
            {ScheduleFields.options.map((field) => (
              <div className="field" key={field}>
                <label className="field__label" htmlFor={`map-${field}`}>
                  {FIELD_LABELS[field]}
                </label>
                <select id={`map-${field}`} className="select" value={mapping[field] ?? ''} onChange={(event) => setField(field, event.target.value)}>
                  <option value="">— not in the file —</option>
                  {Array.from({ length: columns }, (_, i) => (
                    <option key={i} value={i}>
                      {columnName(i)}
                    </option>
                  ))}
                </select>
              </div>
            ))}
          </div>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  {Array.from({ length: columns }, (_, i) => (
                    <th key={i}>{columnName(i)}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.rows.slice(0, 5).map((row, r) => (
                  <tr key={r}>
                    {Array.from({ length: columns }, (_, i) => (
                      <td key={i}>{row[i] ?? ''}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="row">
            <Button variant="primary" disabled={busy} onClick={() => void runImport()}>
              Import {preview.row_count} {preview.row_count === 1 ? 'row' : 'rows'}
            </Button>
            <Button onClick={() => { setPreview(null); setFile(null); }}>Cancel</Button>
          </div>
        </div>
      )}

      {result && <ImportSummary result={result} />}
    </Panel>
  );
}

function ImportSummary({ result }: { result: ImportResult }) {
  const { counts } = result;
  const skipped = result.rows.filter((r) => r.result === 'skipped');
  return (
    <div className="stack" data-testid="import-result" role="status">
      <Notice tone={skipped.length > 0 ? 'warn' : 'ok'}>
        {counts.created} new {counts.created === 1 ? 'appointment' : 'appointments'}, {counts.updated} changed, {counts.unchanged} already here, {counts.skipped} not imported.{' '}
        {counts.patients_created > 0 && `${counts.patients_created} new ${counts.patients_created === 1 ? 'patient' : 'patients'} registered. `}
        {counts.cards_created > 0 && `${counts.cards_created} insurance ${counts.cards_created === 1 ? 'card' : 'cards'} made from the schedule. `}
        {counts.needs_person > 0 && `${counts.needs_person} need you to choose the patient (see the worklist). `}
        {counts.needs_payer > 0 && `${counts.needs_payer} need you to choose the payer (see the worklist). `}
        {counts.discoveries > 0 && `${counts.discoveries} without insurance sent to discovery.`}
      </Notice>
      {skipped.length > 0 && (
        <table className="table" aria-label="Rows not imported">
          <thead>
            <tr>
              <th>Row</th>
              <th>Column</th>
              <th>Why</th>
              <th>What to do</th>
            </tr>
          </thead>
          <tbody>
            {skipped.map((row) =>
              row.result === 'skipped' ? (
                <tr key={row.row}>
                  <td>{row.row}</td>
                  <td>{columnLabel(row.field)}</td>
                  <td>{SKIP_LABELS[row.reason]}</td>
                  <td>{row.message}</td>
                </tr>
              ) : null,
            )}
          </tbody>
        </table>
      )}
    </div>
  );
}
