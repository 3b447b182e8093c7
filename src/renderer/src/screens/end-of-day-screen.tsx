import { memo, useDeferredValue, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Collection, EndOfDayGroup, EndOfDayVisit, VisitStatus } from '../../../shared/bridge/collection-contract';
import { endOfDayCsv } from '../../../shared/collections';
import { useBridge } from '../bridge/bridge-provider';
import { bridgeKey } from '../bridge/query-client';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { RecordPayment } from '../collections/record-payment';
import { ReceiptView } from '../collections/receipt';
import { formatCents, formatDateTime } from '../format';
import { FIRST_INPUTS } from '../state/read-on-open';
import { Button } from '../ui/button';
import { saveTextFile } from '../ui/file-transfer';
import { EmptyState, Loading, Notice, Panel } from '../ui/notice';
import { ScreenTitle } from '../ui/screen-title';

const STATUS_WORDS: Record<VisitStatus, string> = {
  collected: 'Collected',
  declined: 'Patient declined',
  waived: 'Waived',
  no_estimate: 'No estimate',
  nothing_due: 'Nothing due',
  not_collected: 'Not collected',
};

const range = (min: number, max: number | null) => (max === min ? formatCents(min) : max === null ? `${formatCents(min)} or more` : `${formatCents(min)}–${formatCents(max)}`);

function GroupTable({ label, groups }: { label: string; groups: EndOfDayGroup[] }) {
  return (
    <div className="table-wrap">
      <table className="table" aria-label={`By ${label}`} data-testid={`eod-by-${label}`}>
        <thead>
          <tr>
            <th scope="col">{label === 'desk' ? 'Desk' : 'Taken by'}</th>
            <th scope="col">Expected</th>
            <th scope="col">Collected</th>
            <th scope="col">Cash</th>
            <th scope="col">Check</th>
            <th scope="col">Card</th>
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => (
            <tr key={g.name}>
              <td>{g.name}</td>
              <td className="mono">{range(g.expected_min_cents, g.expected_max_cents)}</td>
              <td className="mono">{formatCents(g.collected_cents)}</td>
              <td className="mono">{formatCents(g.by_method.cash)}</td>
              <td className="mono">{formatCents(g.by_method.check)}</td>
              <td className="mono">{formatCents(g.by_method.card)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A visit's row: what was expected and taken, and (where nothing was) a way to record it.
 * Memoized: the entries' background render re-renders the screen, and 1,000 unchanged visit
 * rows must not be built again for it.
 */
const VisitRow = memo(function VisitRow({ visit, onRecord }: { visit: EndOfDayVisit; onRecord(visit: EndOfDayVisit): void }) {
  return (
    <tr data-testid="eod-visit">
      <td>{visit.time ?? '—'}</td>
      <td>{visit.name}</td>
      <td>{visit.visit_type ?? '—'}</td>
      <td className="mono">{visit.estimate ? range(visit.estimate.min_cents, visit.estimate.max_cents) : '—'}</td>
      <td className="mono">{formatCents(visit.collected_cents)}</td>
      <td data-testid="eod-visit-status">
        {STATUS_WORDS[visit.status]}
        {visit.reason ? `: ${visit.reason}` : ''}
      </td>
      <td className="no-print">
        {(visit.appointment_id || visit.patient_id) && (
          <Button size="small" onClick={() => onRecord(visit)}>
            Record payment
          </Button>
        )}
      </td>
    </tr>
  );
});

/**
 * End of day (issue 30, item 4): the day's visits, what their estimates came to and what was
 * collected (net of voids), by method, per desk and per person; the visits where nothing was
 * collected and why. Entries are voided here (a new entry, never an edit) and their receipts
 * printed. Printable, and saved as CSV.
 */
export function EndOfDayScreen() {
  const bridge = useBridge();
  const queries = useQueryClient();
  const [date, setDate] = useState(() => FIRST_INPUTS.endOfDay().date);
  const report = useBridgeQuery('collections.endOfDay', { date }, { keepPrevious: true });
  const [recording, setRecording] = useState<EndOfDayVisit | null>(null);
  const [receipt, setReceipt] = useState<Collection | null>(null);
  const [note, setNote] = useState<{ tone: 'ok' | 'bad'; text: string } | null>(null);
  const value = report.data;
  // The entries (a busy day's hundreds of rows, each with its buttons) are rendered in the
  // background once the totals and visits are on screen: the visits are what the desk reads first,
  // and a day of 1,000 visits then paints without waiting for 700 entries below them.
  const entriesReport = useDeferredValue(value ?? null, null);
  const entries = entriesReport && value && entriesReport.date === value.date ? entriesReport.entries : null;

  const voidEntry = async (entry: Collection) => {
    if (!window.confirm(`Void ${formatCents(entry.amount_cents)} taken by ${entry.taken_by}? The entry stays, with a void entry that undoes it.`)) return;
    const desk = await bridge.collections.deskSettings({});
    const takenBy = desk.ok ? desk.value.taken_by : null;
    if (!takenBy) return setNote({ tone: 'bad', text: 'Record a payment first so the desk knows who is taking payments, then void.' });
    const result = await bridge.collections.void({ id: entry.id, taken_by: takenBy });
    if (!result.ok) return setNote({ tone: 'bad', text: result.error.errors?.[0]?.message ?? result.error.message });
    setNote({ tone: 'ok', text: `Voided ${formatCents(entry.amount_cents)} (${entry.id}).` });
    setReceipt(result.value);
    void queries.invalidateQueries({ queryKey: bridgeKey('collections.endOfDay') });
  };

  return (
    <div className="screen" data-testid="end-of-day">
      <div className="screen__header">
        <ScreenTitle subtitle="Expected against collected at the window, by method, desk and person.">End of day</ScreenTitle>
        <div className="row no-print">
          <Button onClick={() => window.print()} data-testid="eod-print">
            Print report
          </Button>
          <Button onClick={() => value && saveTextFile(endOfDayCsv(value), `end-of-day-${date}.csv`)} disabled={!value} data-testid="eod-csv">
            Download CSV
          </Button>
        </div>
      </div>
      <div className="row no-print">
        <label className="field__label" htmlFor="eod-date">
          Day
        </label>
        <input id="eod-date" className="input input--date" type="date" value={date} onChange={(event) => event.target.value && setDate(event.target.value)} />
      </div>
      {note && (
        <Notice tone={note.tone} live>
          {note.text}
        </Notice>
      )}
      {receipt && <ReceiptView entry={receipt} onClose={() => setReceipt(null)} />}
      {recording && (
        <Panel title={`Record payment: ${recording.name}`} titleId="eod-record">
          <RecordPayment
            visit={{ ...(recording.appointment_id ? { appointment_id: recording.appointment_id } : { patient_id: recording.patient_id! }), ...(recording.estimate ? { check_id: recording.estimate.check_id } : {}), ...(recording.estimate?.visit_type ? { visit_type: recording.estimate.visit_type } : {}) }}
            estimateMax={recording.estimate?.max_cents ?? null}
            onRecorded={(entry) => {
              setRecording(null);
              setReceipt(entry);
            }}
            onCancel={() => setRecording(null)}
          />
        </Panel>
      )}
      {report.error && <Notice tone="bad">{report.error.message}</Notice>}
      {report.loading && !value ? (
        <Loading label="Adding up the day…" />
      ) : !value ? null : (
        <>
          <div className="figures" data-testid="eod-totals">
            <div className="figure">
              <p className="figure__label">Expected</p>
              <p className="figure__value" data-testid="eod-expected">
                {range(value.expected_min_cents, value.expected_max_cents)}
              </p>
              <p className="figure__sub">the estimates for the day’s visits</p>
            </div>
            <div className="figure">
              <p className="figure__label">Collected</p>
              <p className="figure__value" data-testid="eod-collected">
                {formatCents(value.collected_cents)}
              </p>
              <p className="figure__sub">net of voids</p>
            </div>
            <div className="figure">
              <p className="figure__label">By method</p>
              <p className="figure__sub" data-testid="eod-by-method">
                Cash {formatCents(value.by_method.cash)} · Check {formatCents(value.by_method.check)} · Card {formatCents(value.by_method.card)}
              </p>
            </div>
          </div>
          <Panel title="By desk and person" titleId="eod-groups">
            {value.by_desk.length === 0 ? (
              <p className="muted">Nothing recorded on this day yet.</p>
            ) : (
              <div className="eod-groups">
                <GroupTable label="desk" groups={value.by_desk} />
                <GroupTable label="person" groups={value.by_person} />
              </div>
            )}
          </Panel>
          <Panel title="Visits" titleId="eod-visits">
            {value.visits.length === 0 ? (
              <EmptyState title="No visits on this day.">Appointments imported on the Schedule, and payments recorded at the window, show here.</EmptyState>
            ) : (
              <div className="table-wrap">
                <table className="table table--fixed eod-visits-table" aria-label="Visits">
                  <thead>
                    <tr>
                      <th scope="col">Time</th>
                      <th scope="col">Patient</th>
                      <th scope="col">Visit type</th>
                      <th scope="col">Estimate</th>
                      <th scope="col">Collected</th>
                      <th scope="col">Status</th>
                      <th scope="col" className="no-print">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {value.visits.map((visit) => (
                      <VisitRow key={`${visit.appointment_id ?? visit.patient_id}`} visit={visit} onRecord={setRecording} />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Panel>
          <Panel title="Entries" titleId="eod-entries">
            {entries === null ? (
              <Loading label="Listing the entries…" />
            ) : entries.length === 0 ? (
              <p className="muted">No payments, marks or voids on this day.</p>
            ) : (
              <div className="table-wrap table-wrap--below">
                <table className="table table--fixed eod-entries-table" aria-label="Entries" data-testid="eod-entries">
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">Kind</th>
                      <th scope="col">Amount</th>
                      <th scope="col">Method</th>
                      <th scope="col">Taken by</th>
                      <th scope="col" className="no-print">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {entries.map((entry) => (
                      <tr key={entry.id} data-testid="eod-entry">
                        <td>{formatDateTime(entry.created_at)}</td>
                        <td>
                          {entry.kind}
                          {entry.voided_by_id ? ' (voided)' : ''}
                        </td>
                        <td className="mono">{entry.kind === 'void' ? `−${formatCents(entry.amount_cents)}` : formatCents(entry.amount_cents)}</td>
                        <td>{entry.method ?? '—'}</td>
                        <td>{entry.taken_by}</td>
                        <td className="no-print">
                          {/* A flex box inside the cell: a cell made a flex box leaves the table's grid (its border drifts). */}
                          <div className="row">
                            <Button size="small" onClick={() => setReceipt(entry)}>
                              Receipt
                            </Button>
                            {entry.kind !== 'void' && !entry.voided_by_id && (
                              <Button size="small" variant="danger" onClick={() => void voidEntry(entry)} data-testid="eod-void">
                                Void
                              </Button>
                            )}
                          </div>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Panel>
        </>
      )}
    </div>
  );
}
