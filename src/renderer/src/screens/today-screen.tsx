import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { DeskPatientRow } from '../../../shared/bridge/desk-contract';
import type { WorklistRow } from '../../../shared/bridge/appointment-contract';
import { formatDob, formatWhen, localDate, patientName } from '../format';
import { formatTime, WORKLIST_STATUS } from '../schedule/worklist-labels';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { useNavigation } from '../state/navigation';
import { useSettled } from '../state/use-settled';
import { todayInput, todayMatches, visibleRange } from '../today/today-rows';
import { Badge, EligibilityBadgeView, SyncBadge } from '../ui/badge';
import { Button } from '../ui/button';
import { isEditable } from '../ui/editable';
import { CollectTodayTag } from '../estimates/collect-today-tag';
import { EmptyState, Loading, Notice } from '../ui/notice';
import { ScreenTitle } from '../ui/screen-title';
import { useSearchKeys } from '../ui/search-keys';

const ROW_HEIGHT = 64;
const NO_ROWS: DeskPatientRow[] = [];

/** Patients seen today and where their eligibility stands; search reaches every patient. */
export function TodayScreen() {
  const { navigate } = useNavigation();
  // Host events (a desk record changed, sync progress) refresh it: see bridge-invalidation.ts.
  // Read ahead as the page starts (read-ahead.ts): the first opening takes that answer.
  const today = useBridgeQuery('desk.today', todayInput());
  // Only Today's first rows are in (read ahead, with the count of all): the rest is on its way.
  const partial = today.data?.total !== undefined;
  // Today's appointments (the Schedule screen): the time and the worklist status beside each patient who has one.
  const schedule = useBridgeQuery('appointments.worklist', { date: localDate() });
  const appointmentOf = useMemo(() => {
    const byPatient = new Map<string, WorklistRow>();
    for (const row of schedule.data?.rows ?? []) if (row.appointment.patient_id && !byPatient.has(row.appointment.patient_id)) byPatient.set(row.appointment.patient_id, row);
    return byPatient;
  }, [schedule.data]);

  const [query, setQuery] = useState('');
  const searchRef = useRef<HTMLInputElement>(null);

  // Beyond today's list: everyone on this computer, asked of the host after a short pause.
  const text = query.trim();
  const settled = useSettled(text, 200);
  const found = useBridgeQuery('desk.findPatients', text && settled === text ? { query: text, limit: 50 } : null);
  // A search over the first rows only is not an answer yet: Enter waits for the whole list.
  const searching = text !== '' && (settled !== text || found.loading || partial);
  const others = useMemo(() => (text && settled === text ? (found.data?.data ?? NO_ROWS) : NO_ROWS), [text, settled, found.data]);

  const rows = useMemo(() => todayMatches(today.data?.data ?? [], query, others), [today.data, query, others]);
  const open = (row: DeskPatientRow) => navigate({ screen: 'eligibility', patientId: row.patient_id });

  const listRef = useRef<HTMLDivElement>(null);
  const answering = (today.loading && !today.data) || searching;
  const onSearchKey = useSearchKeys({ query, rows, answering, open, enterList: () => listRef.current?.focus() });

  // Without scrolling (the field is at the top): scrolling to it would lay the page out inside
  // the first commit, before the frame that lays it out anyway (issue 31).
  useEffect(() => searchRef.current?.focus({ preventScroll: true }), []);
  // "/" jumps to search, as in most desk software.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === '/' && !isEditable(event.target)) {
        event.preventDefault();
        searchRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const count = today.data?.total ?? today.data?.data.length ?? 0;
  return (
    <div className="screen screen--fill">
      <div className="screen__header">
        <ScreenTitle focus={false} subtitle={today.data ? `${count} ${count === 1 ? 'patient' : 'patients'} today` : undefined}>
          Today
        </ScreenTitle>
        <div className="row">
          {/* Payments at the window (issue 30): today's visits, each with "Record payment", on End of day. */}
          <Button onClick={() => navigate({ screen: 'end_of_day' })} data-testid="today-record-payment">
            Record payment
          </Button>
          <Button variant="primary" onClick={() => navigate({ screen: 'intake' })}>
            New intake
          </Button>
        </div>
      </div>

      <div className="field">
        <label className="field__label" htmlFor="today-search">
          Search by name, date of birth or member id
        </label>
        <input
          id="today-search"
          ref={searchRef}
          className="input search-input"
          type="search"
          autoComplete="off"
          placeholder="e.g. Lovelace, 12/10/1985 or XJ44102"
          value={query}
          aria-describedby="today-search-hint"
          aria-controls={rows.length > 0 ? "today-rows" : undefined}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={onSearchKey}
        />
        <p className="field__hint" id="today-search-hint">
          Enter opens the first match; ↓ moves into the list. Press / to come back here.
          {searching && ' Searching all patients…'}
        </p>
      </div>

      {today.error && (!today.data || partial) && <Notice tone="bad">{today.error.message}</Notice>}
      {today.loading && !today.data ? (
        <Loading label="Loading today’s patients…" />
      ) : rows.length === 0 ? (
        <div className="today-list">
          {query.trim() ? (
            <EmptyState title={searching ? 'Searching…' : 'No one matches that search.'}>
              {searching ? null : 'Check the spelling, or try the date of birth or member id instead.'}
            </EmptyState>
          ) : (
            <EmptyState title="No patients yet today." action={<Button variant="primary" onClick={() => navigate({ screen: 'intake' })}>Start an intake</Button>}>
              Patients appear here as they are registered, carded or checked — on this desk or by the scanner.
            </EmptyState>
          )}
        </div>
      ) : (
        <PatientList rows={rows} rest={partial && !text ? count - rows.length : 0} onOpen={open} listRef={listRef} resetKey={query} appointmentOf={appointmentOf} />
      )}
    </div>
  );
}

interface PatientListProps {
  rows: DeskPatientRow[];
  /** Rows still on their way after `rows` (only Today's first rows are in): the list has their room, keys wait for them. */
  rest: number;
  onOpen(row: DeskPatientRow): void;
  listRef: RefObject<HTMLDivElement | null>;
  resetKey: string;
  appointmentOf: Map<string, WorklistRow>;
}

/**
 * Only the rows in view (plus a few) are in the page: 10,000 patients scroll as smoothly as
 * ten. The list is one focusable listbox; arrows, Page Up/Down, Home/End move, Enter opens.
 */
function PatientList({ rows, rest, onOpen, listRef, resetKey, appointmentOf }: PatientListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // Keys pressed while the rest of the list is on its way, played in order once it is in: End reaches the last patient, not the last row read so far.
  const [held, setHeld] = useState<string[]>([]);
  const setSize = rows.length + rest;
  const [scrollTop, setScrollTop] = useState(0);
  // Before the list is laid out, the screen's height: the list is never taller, so the first
  // paint has every row in view. Its real height comes from the observer, after that paint: read
  // in a layout effect, it made the page lay itself out inside React's first commit, then
  // render and lay out again with the measured height, before anything was painted (issue 31).
  const [viewport, setViewport] = useState(() => window.screen.availHeight);
  const [active, setActive] = useState(0);

  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setViewport(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => setActive(0), [resetKey]);
  const activeIndex = Math.min(active, rows.length - 1);

  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(rows.length - 1, index));
    setActive(next);
    const element = scrollRef.current;
    if (!element) return next;
    const top = next * ROW_HEIGHT;
    if (top < element.scrollTop) element.scrollTop = top;
    else if (top + ROW_HEIGHT > element.scrollTop + element.clientHeight) element.scrollTop = top + ROW_HEIGHT - element.clientHeight;
    return next;
  };

  const perPage = Math.max(1, Math.floor(viewport / ROW_HEIGHT) - 1);
  const LIST_KEYS = ['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home', 'End', 'Enter', ' '];
  const press = (key: string, from: number) => {
    const moves: Record<string, number> = {
      ArrowDown: from + 1,
      ArrowUp: from - 1,
      PageDown: from + perPage,
      PageUp: from - perPage,
      Home: 0,
      End: rows.length - 1,
    };
    if (key in moves) return moveTo(moves[key]);
    onOpen(rows[from]);
    return from;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!LIST_KEYS.includes(event.key)) return;
    event.preventDefault();
    if (rest > 0) setHeld((keys) => [...keys, event.key]);
    else press(event.key, activeIndex);
  };
  useEffect(() => {
    if (rest > 0 || held.length === 0) return;
    setHeld([]);
    held.reduce((from, key) => press(key, from), activeIndex);
    // Played once, when the rest arrives; `press` and `activeIndex` are read as they are then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rest, held]);

  const { start, end } = visibleRange({ scrollTop, viewportHeight: viewport, rowHeight: ROW_HEIGHT, count: rows.length });
  const visible = rows.slice(start, end);
  return (
    <div className="today-table">
      <div className="today-header" aria-hidden="true">
        <span>Patient</span>
        <span>Date of birth</span>
        <span>Member id</span>
        <span>Payer / plan</span>
        <span>Eligibility, last activity</span>
      </div>
      <div className="today-list" ref={scrollRef} onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}>
        <div
          id="today-rows"
          ref={listRef}
          className="today-list__rows"
          role="listbox"
          aria-label={`Patients, ${setSize}`}
          aria-busy={rest > 0 || undefined}
          tabIndex={0}
          aria-activedescendant={rows[activeIndex] ? `today-row-${rows[activeIndex].patient_id}` : undefined}
          onKeyDown={onKeyDown}
          style={{ height: setSize * ROW_HEIGHT }}
        >
          {visible.map((row, i) => {
            const index = start + i;
            return (
              <div
                key={row.patient_id}
                id={`today-row-${row.patient_id}`}
                role="option"
                aria-selected={index === activeIndex}
                aria-posinset={index + 1}
                aria-setsize={setSize}
                className="today-row"
                style={{ transform: `translateY(${index * ROW_HEIGHT}px)` }}
                onClick={() => {
                  setActive(index);
                  onOpen(row);
                }}
              >
                <span className="today-row__name">
                  {patientName(row)} <SyncBadge state={row.sync_state} />
                  <AppointmentTag row={appointmentOf.get(row.patient_id)} />
                </span>
                <span className="today-row__cell">{formatDob(row.date_of_birth)}</span>
                <span className="today-row__cell today-row__cell--wrap mono" data-testid="today-member-id">{row.member_id ?? <span className="muted">No card</span>}</span>
                <span className="today-row__cell today-row__cell--wrap" data-testid="today-payer">{[row.payer_name, row.plan_name].filter(Boolean).join(' · ') || <span className="muted">—</span>}</span>
                {/* The badge, what to collect today (the appointment's estimate, from the worklist) and when: one column, so the member id and payer have the width (1024 px). */}
                <span className="today-row__cell today-row__status">
                  <EligibilityBadgeView badge={row.eligibility} />
                  {appointmentOf.get(row.patient_id)?.estimate && <CollectTodayTag estimate={appointmentOf.get(row.patient_id)!.estimate!} focusable={false} compact />}
                  <span className="small muted">{formatWhen(row.last_activity_at)}</span>
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** The patient's appointment today: its time and the one status the worklist gives it. */
function AppointmentTag({ row }: { row: WorklistRow | undefined }) {
  if (!row) return null;
  const status = WORKLIST_STATUS[row.status];
  return (
    <span className="today-row__appointment" data-testid="today-appointment">
      <span className="mono">{formatTime(row.appointment.time)}</span> <Badge tone={status.tone}>{status.label}</Badge>
    </span>
  );
}
