import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AUDIT_ACTION_WORDS, type AuditFilter } from '../../../shared/bridge/security-contract';
import { useBridge } from '../bridge/bridge-provider';
import { asBridgeError, bridgeKey, readBridge } from '../bridge/query-client';
import { formatDateTime } from '../format';
import { Button } from '../ui/button';
import { SelectField, TextField } from '../ui/field';
import { EmptyState, Loading, Notice, Panel } from '../ui/notice';
import { ScreenTitle } from '../ui/screen-title';
import { saveTextFile } from '../ui/file-transfer';

const ACTIONS = (Object.entries(AUDIT_ACTION_WORDS) as [NonNullable<AuditFilter['action']>, string][]).map(([value, label]) => ({ value, label }));
const PAGE = 50;

/** A local calendar day (the date input's YYYY-MM-DD) as the host's timestamp at its start or end. */
function dayBound(day: string, end: boolean): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const date = end ? new Date(y, m - 1, d, 23, 59, 59, 999) : new Date(y, m - 1, d);
  return date.toISOString();
}

/** Who viewed, created, printed or exported whose record: one row per action, names not ids. */
export function AuditScreen() {
  const bridge = useBridge();
  const [action, setAction] = useState('');
  const [actor, setActor] = useState('');
  const [patient, setPatient] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [note, setNote] = useState<{ tone: 'ok' | 'bad'; text: string } | null>(null);
  const [verifying, setVerifying] = useState(false);

  const filter: AuditFilter = {
    ...(action ? { action: action as AuditFilter['action'] } : {}),
    ...(actor ? { actor } : {}),
    ...(patient.trim() ? { patient: patient.trim() } : {}),
    ...(dayBound(from, false) ? { from: dayBound(from, false) } : {}),
    ...(dayBound(to, true) ? { to: dayBound(to, true) } : {}),
  };
  const log = useInfiniteQuery({
    queryKey: bridgeKey('audit.search', { ...filter, limit: PAGE }),
    queryFn: ({ pageParam }) => readBridge(bridge, 'audit.search', { ...filter, limit: PAGE, ...(pageParam ? { before: pageParam } : {}) }),
    initialPageParam: null as number | null,
    getNextPageParam: (page) => page.next_before,
  });
  const rows = log.data ? log.data.pages.flatMap((page) => page.data) : null;
  const actors = log.data?.pages[0]?.actors ?? [];
  const error = log.error ? asBridgeError(log.error).message : null;

  const exportCsv = async () => {
    setNote(null);
    const result = await bridge.audit.export(filter);
    if (!result.ok) {
      setNote({ tone: 'bad', text: result.error.message });
      return;
    }
    saveTextFile(result.value.csv, result.value.filename);
    setNote({ tone: 'ok', text: `Saved ${result.value.rows} ${result.value.rows === 1 ? 'row' : 'rows'} as ${result.value.filename}.` });
  };

  // The whole chain is checked on the host; the answer is already in plain words.
  const verify = async () => {
    setNote(null);
    setVerifying(true);
    const result = await bridge.audit.verify({});
    setVerifying(false);
    if (!result.ok) setNote({ tone: 'bad', text: result.error.message });
    else setNote({ tone: result.value.intact ? 'ok' : 'bad', text: result.value.message });
  };

  return (
    <div className="screen">
      <div className="screen__header">
        <ScreenTitle subtitle="Who opened, created, printed or exported which patient’s records on this computer. Entries cannot be changed or deleted, and Verify shows if anyone tried.">Audit log</ScreenTitle>
        <div className="row">
          <Button onClick={() => void log.refetch()}>Refresh</Button>
          <Button onClick={() => void verify()} disabled={verifying}>
            {verifying ? 'Verifying…' : 'Verify'}
          </Button>
          <Button variant="primary" onClick={() => void exportCsv()}>
            Export CSV
          </Button>
        </div>
      </div>
      <Panel title="Filters" titleId="audit-filters">
        <div className="audit-filters">
          <SelectField id="audit-action" label="Action" placeholder="All actions" value={action} onChange={setAction} options={ACTIONS} />
          <SelectField id="audit-actor" label="Who" placeholder="Everyone" value={actor} onChange={setActor} options={actors.map((a) => ({ value: a, label: a }))} />
          <TextField id="audit-patient" label="Patient name" type="search" autoComplete="off" value={patient} onChange={setPatient} />
          <TextField id="audit-from" label="From" type="date" value={from} onChange={setFrom} />
          <TextField id="audit-to" label="To" type="date" value={to} onChange={setTo} />
        </div>
      </Panel>
      {note && (
        <Notice tone={note.tone} live>
          {note.text}
        </Notice>
      )}
      {error && <Notice tone="bad">{error}</Notice>}
      <Panel>
        {rows === null && !error ? (
          <Loading label="Reading the audit log…" />
        ) : rows && rows.length === 0 ? (
          <EmptyState title="Nothing recorded matches." />
        ) : (
          rows && (
            <div className="table-wrap">
              <table className="table" aria-label="Audit log">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    <th scope="col">Action</th>
                    <th scope="col">Patient</th>
                    <th scope="col">Records</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={row.seq}>
                      <td>
                        {formatDateTime(row.last_at)}
                        {formatDateTime(row.first_at) !== formatDateTime(row.last_at) && <span className="muted small"> (from {formatDateTime(row.first_at)})</span>}
                      </td>
                      <td>{row.actor}</td>
                      <td>{AUDIT_ACTION_WORDS[row.action]}</td>
                      <td>{row.patient_name ?? <span className="muted">—</span>}</td>
                      <td>
                        {row.records}
                        {row.entries > 1 && <span className="muted small"> · {row.entries} entries</span>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        )}
        {log.hasNextPage && (
          <div className="row">
            <Button onClick={() => void log.fetchNextPage()}>Show older entries</Button>
          </div>
        )}
      </Panel>
    </div>
  );
}
