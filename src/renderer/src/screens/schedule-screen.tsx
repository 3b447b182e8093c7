import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import type { WorklistRow } from '../../../shared/bridge/appointment-contract';
import { formatDob, localDate, patientName } from '../format';
import { formatAmount } from '../../../shared/money';
import { useReferenceData } from '../state/reference-data';
import { useBridge } from '../bridge/bridge-provider';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { useNavigation } from '../state/navigation';
import { FIRST_INPUTS } from '../state/read-on-open';
import { BatchPanel } from '../schedule/batch-panel';
import { ScheduleImport } from '../schedule/schedule-import';
import { ScheduleSettings } from '../schedule/schedule-settings';
import { formatTime, WORKLIST_STATUS, worklistAction } from '../schedule/worklist-labels';
import { nextDay } from '../local-day';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { CollectTodayTag } from '../estimates/collect-today-tag';
import { GfeIssueForm, GfeLine, GfePrintView } from '../estimates/good-faith-estimate';
import { EmptyState, Loading, Notice, Panel } from '../ui/notice';
import { ScreenTitle } from '../ui/screen-title';
import { visibleRange } from '../today/today-rows';

const GROUP_TITLES: Record<WorklistRow['group'], string> = { needs_attention: 'Needs you', waiting: 'Waiting', ready: 'Ready' };

/**
 * The schedule: a day's appointments from the scheduling system, checked ahead in a batch,
 * as a worklist with what needs a person first. Printable for the morning huddle.
 */
export function ScheduleScreen() {
  const today = localDate();
  const tomorrow = nextDay(today);
  const [date, setDate] = useState(() => FIRST_INPUTS.worklist().date);
  // Host events refresh it as checks are made and answered: see bridge-invalidation.ts.
  const worklist = useBridgeQuery('appointments.worklist', { date }, { keepPrevious: true });
  const label = date === tomorrow ? 'tomorrow' : date === today ? 'today' : new Date(`${date}T12:00:00`).toLocaleDateString([], { weekday: 'long', month: 'short', day: 'numeric' });
  const rows = worklist.data?.rows ?? [];

  return (
    <div className="screen">
      <div className="screen__header">
        <ScreenTitle subtitle="Appointments from your scheduling system, checked ahead of the visit.">Schedule</ScreenTitle>
        <Button className="no-print" onClick={() => window.print()}>
          Print worklist
        </Button>
      </div>

      <ScheduleImport onImported={() => worklist.reload()} />
      <ScheduleSettings />

      <Panel title={`Worklist for ${label}`} titleId="worklist-title">
        <div className="row no-print">
          <label className="field__label" htmlFor="worklist-date">
            Day
          </label>
          <input id="worklist-date" className="input input--date" type="date" value={date} onChange={(event) => event.target.value && setDate(event.target.value)} />
        </div>
        <BatchPanel date={date} label={label} onProviderSet={() => worklist.reload()} />
        {worklist.error && <Notice tone="bad">{worklist.error.message}</Notice>}
        {worklist.loading && !worklist.data ? (
          <Loading label="Loading the worklist…" />
        ) : rows.length === 0 ? (
          <EmptyState title="No appointments on this day.">Import the schedule export above, or choose another day.</EmptyState>
        ) : (
          <WorklistTable rows={rows} />
        )}
      </Panel>
    </div>
  );
}

/** Above this many appointments only the rows near the view are in the page, as on Today. */
const WINDOW_FROM = 200;
/** A row's height until the rows in the page say theirs. */
const ROW_GUESS = 57;

type WorklistItem = { key: string; group: WorklistRow['group']; count: number } | { key: string; row: WorklistRow };

/** The nearest ancestor that scrolls (the main area), where the page's scroll position is read. */
function scrollParent(element: HTMLElement): HTMLElement {
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    if (/(auto|scroll)/.test(getComputedStyle(parent).overflowY)) return parent;
  }
  return document.documentElement;
}

/**
 * Which of a long worklist's items are near the view (issue 31): Today's `visibleRange` over the
 * rows' measured average height, from the main area's scroll position. Null: every row is in the
 * page (a short day, or printing: the printed worklist is the whole day).
 */
function useWorklistWindow(tableRef: RefObject<HTMLTableElement | null>, count: number, long: boolean): { start: number; end: number; rowHeight: number } | null {
  const [view, setView] = useState({ scrollTop: 0, height: 800 });
  const [rowHeight, setRowHeight] = useState(ROW_GUESS);
  const [printing, setPrinting] = useState(false);
  const windowed = long && !printing;

  useEffect(() => {
    const before = () => flushSync(() => setPrinting(true));
    const after = () => setPrinting(false);
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    return () => {
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
    };
  }, []);

  useLayoutEffect(() => {
    const table = tableRef.current;
    if (!windowed || !table) return;
    const scroller = scrollParent(table);
    const measure = () => {
      const body = table.tBodies[0] ?? table;
      setView({ scrollTop: scroller.getBoundingClientRect().top - body.getBoundingClientRect().top, height: scroller.clientHeight });
    };
    measure();
    scroller.addEventListener('scroll', measure, { passive: true });
    const observer = new ResizeObserver(measure);
    observer.observe(scroller);
    return () => {
      scroller.removeEventListener('scroll', measure);
      observer.disconnect();
    };
  }, [windowed, tableRef]);

  // The first rows in the page give the height the gaps stand for, once: measured again as rows
  // come and go, the gaps would move the scroll position, which brings other rows, and so on.
  const measured = useRef(false);
  useLayoutEffect(() => {
    const lines = tableRef.current?.querySelectorAll<HTMLElement>('tr[data-status]');
    if (!windowed || measured.current || !lines || lines.length === 0) return;
    measured.current = true;
    let total = 0;
    lines.forEach((line) => (total += line.offsetHeight));
    setRowHeight(Math.round(total / lines.length));
  }, [windowed, count, tableRef]);

  if (!windowed) return null;
  return { ...visibleRange({ scrollTop: view.scrollTop, viewportHeight: view.height, rowHeight, count, overscan: 10 }), rowHeight };
}

function WorklistTable({ rows }: { rows: WorklistRow[] }) {
  const groups = useMemo(
    () => (['needs_attention', 'waiting', 'ready'] as const).map((group) => ({ group, rows: rows.filter((r) => r.group === group) })).filter((g) => g.rows.length > 0),
    [rows],
  );
  const items = useMemo(
    () => groups.flatMap(({ group, rows: groupRows }): WorklistItem[] => [{ key: `group-${group}`, group, count: groupRows.length }, ...groupRows.map((row) => ({ key: row.appointment.id, row }))]),
    [groups],
  );
  // Rows with a form or a choice open stay in the page while scrolled away: what was typed in them stays.
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const onPanel = useCallback((id: string, isOpen: boolean) => {
    setOpen((previous) => {
      if (previous.has(id) === isOpen) return previous;
      const next = new Set(previous);
      if (isOpen) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const tableRef = useRef<HTMLTableElement>(null);
  const range = useWorklistWindow(tableRef, items.length, rows.length > WINDOW_FROM);

  const head = (
    <thead>
      <tr>
        <th>Time</th>
        <th>Patient</th>
        <th>Visit</th>
        <th>Status</th>
        <th>What to do</th>
        <th className="no-print">
          <span className="visually-hidden">Action</span>
        </th>
      </tr>
    </thead>
  );
  const groupTitle = (group: WorklistRow['group'], count: number) => (
    <tr key={`group-${group}`}>
      <th colSpan={6} scope="colgroup">
        {GROUP_TITLES[group]} ({count})
      </th>
    </tr>
  );

  if (!range) {
    return (
      <table className="table worklist" aria-labelledby="worklist-title" ref={tableRef}>
        {head}
        {groups.map(({ group, rows: groupRows }) => (
          <tbody key={group}>
            {groupTitle(group, groupRows.length)}
            {groupRows.map((row) => (
              <WorklistLine key={row.appointment.id} row={row} onPanel={onPanel} />
            ))}
          </tbody>
        ))}
      </table>
    );
  }

  const shown = new Set<number>();
  for (let i = range.start; i < range.end; i++) shown.add(i);
  items.forEach((item, i) => open.has(item.key) && shown.add(i));
  const lines: ReactNode[] = [];
  let next = 0;
  const gap = (from: number, to: number) => (
    <tr key={`gap-${from}`} className="worklist__gap" aria-hidden="true" style={{ height: (to - from) * range.rowHeight }}>
      <td colSpan={6} />
    </tr>
  );
  for (const i of [...shown].sort((a, b) => a - b)) {
    if (i > next) lines.push(gap(next, i));
    const item = items[i];
    lines.push('row' in item ? <WorklistLine key={item.key} row={item.row} onPanel={onPanel} /> : groupTitle(item.group, item.count));
    next = i + 1;
  }
  if (next < items.length) lines.push(gap(next, items.length));
  return (
    <table className="table worklist worklist--windowed" aria-labelledby="worklist-title" ref={tableRef}>
      <colgroup>
        <col className="worklist__col-time" />
        <col className="worklist__col-patient" />
        <col className="worklist__col-visit" />
        <col className="worklist__col-status" />
        <col className="worklist__col-detail" />
        <col className="worklist__col-action" />
      </colgroup>
      {head}
      <tbody>{lines}</tbody>
    </table>
  );
}

/**
 * One appointment. Memoised: the query layer keeps unchanged rows the same objects across
 * refreshes, so while a batch runs only the rows whose status moved render again.
 */
const WorklistLine = memo(function WorklistLine({ row, onPanel }: { row: WorklistRow; onPanel(id: string, open: boolean): void }) {
  const { navigate } = useNavigation();
  const [choosing, setChoosing] = useState(false);
  const [gfe, setGfe] = useState<null | 'form' | 'print'>(null);
  const panelOpen = choosing || gfe !== null;
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current === panelOpen) return;
    wasOpen.current = panelOpen;
    onPanel(row.appointment.id, panelOpen);
  }, [panelOpen, onPanel, row.appointment.id]);
  const bridge = useBridge();
  const { appointment } = row;
  const status = WORKLIST_STATUS[row.status];
  const action = worklistAction(row);
  return (
    <>
      <tr data-testid={`worklist-row-${appointment.id}`} data-status={row.status}>
        <td className="nowrap">{formatTime(appointment.time)}</td>
        <td>
          {patientName(appointment)}
          <div className="small muted">{formatDob(appointment.date_of_birth)}</div>
        </td>
        <td>{appointment.visit_type ?? <span className="muted">—</span>}</td>
        <td>
          <Badge tone={status.tone}>{status.label}</Badge>
          {row.estimate && (
            <div>
              <CollectTodayTag estimate={row.estimate} />
            </div>
          )}
          {row.copay && <div className="small">Copay {formatAmount(row.copay)}</div>}
          {row.card_from_schedule && <div className="small muted">Card from the schedule</div>}
          {row.gfe && <GfeLine gfe={row.gfe} />}
        </td>
        <td>{row.detail}</td>
        <td className="no-print">
          {action && (
            <Button size="small" variant={row.group === 'needs_attention' ? 'primary' : 'secondary'} onClick={() => (action.route ? navigate(action.route) : setChoosing((c) => !c))}>
              {action.label}
            </Button>
          )}{' '}
          {!row.gfe ? (
            <Button size="small" onClick={() => void bridge.gfe.markSelfPay({ appointment_id: appointment.id })}>
              Self-pay: GFE
            </Button>
          ) : row.gfe.state === 'due' ? (
            <Button size="small" variant="primary" aria-expanded={gfe === 'form'} onClick={() => setGfe((g) => (g === 'form' ? null : 'form'))}>
              Issue GFE
            </Button>
          ) : (
            <Button size="small" onClick={() => setGfe('print')}>
              Print GFE
            </Button>
          )}
          {gfe === 'print' && row.gfe && <GfePrintView id={row.gfe.id} onClose={() => setGfe(null)} />}
        </td>
      </tr>
      {gfe === 'form' && row.gfe?.state === 'due' && (
        <tr className="no-print">
          <td colSpan={6}>
            <GfeIssueForm row={row} onIssued={() => setGfe('print')} />
          </td>
        </tr>
      )}
      {choosing && (
        <tr className="no-print">
          <td colSpan={6}>{row.status === 'needs_payer' ? <ChoosePayer row={row} onDone={() => setChoosing(false)} /> : <ChoosePatient row={row} onDone={() => setChoosing(false)} />}</td>
        </tr>
      )}
    </>
  );
});

/** Two patients share the name and date of birth: a person says which one, or that it is someone new. */
function ChoosePatient({ row, onDone }: { row: WorklistRow; onDone(): void }) {
  const bridge = useBridge();
  const { appointment } = row;
  const found = useBridgeQuery('desk.findPatients', { query: appointment.date_of_birth, limit: 50 });
  const [error, setError] = useState<string | null>(null);
  const candidates = (found.data?.data ?? []).filter((p) => appointment.candidate_patient_ids.includes(p.patient_id));
  const assign = async (patientId: string | null) => {
    const answer = await bridge.appointments.assignPatient({ id: appointment.id, patient_id: patientId });
    if (!answer.ok) setError(answer.error.message);
    else onDone();
  };
  return (
    <div className="row" role="group" aria-label="Choose the patient">
      {found.loading && <Loading label="Finding the patients…" />}
      {candidates.map((p) => (
        <Button key={p.patient_id} size="small" onClick={() => void assign(p.patient_id)}>
          {patientName(p)} · {p.member_id ? `card ${p.member_id}` : 'no card'}
        </Button>
      ))}
      <Button size="small" onClick={() => void assign(null)}>
        Someone new
      </Button>
      {error && <Notice tone="bad">{error}</Notice>}
    </div>
  );
}

/** The schedule's payer fits several of the directory's: a person says which, and the card is made from the schedule. */
function ChoosePayer({ row, onDone }: { row: WorklistRow; onDone(): void }) {
  const bridge = useBridge();
  const { entities } = useReferenceData();
  const { appointment } = row;
  const [error, setError] = useState<string | null>(null);
  const byId = new Map(entities.map((e) => [e.id, e]));
  const choose = async (id: string) => {
    const answer = await bridge.appointments.choosePayer({ id: appointment.id, clearinghouse_entity_id: id });
    if (!answer.ok) setError(answer.error.message);
    else onDone();
  };
  return (
    <div className="row" role="group" aria-label={`Which payer is “${appointment.payer ?? ''}”?`}>
      {appointment.payer_candidate_ids.map((id) => {
        const payer = byId.get(id);
        return (
          <Button key={id} size="small" onClick={() => void choose(id)}>
            {payer ? `${payer.name} · payer id ${payer.payer_id}` : id}
          </Button>
        );
      })}
      {error && <Notice tone="bad">{error}</Notice>}
    </div>
  );
}
