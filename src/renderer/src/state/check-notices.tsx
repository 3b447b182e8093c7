import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { eligibilityBadge } from '../../../shared/bridge/desk-eligibility';
import type { Check } from '../../../shared/contract';
import { useBridge } from '../bridge/bridge-provider';
import { Button } from '../ui/button';
import { useNavigation, type Route } from './navigation';

/** A check the desk ran and has not seen answered yet. */
export interface WatchedCheck {
  checkId: string;
  patientId: string;
  cardId: string;
  /** "Last, First", for the in-app toast only (the OS notification names no one). */
  patientLabel: string;
}

interface Toast extends WatchedCheck {
  outcome: string;
  /** The screen it was raised on: leaving it takes the toast away (the answer stays on Today and the patient's Eligibility). */
  raisedOn: string;
}

/** A screen, as far as a toast is concerned: which one, for which patient. */
const screenKey = (route: Route) => `${route.screen}:${'patientId' in route ? (route.patientId ?? '') : ''}`;

const WatchContext = createContext<(check: WatchedCheck) => void>(() => undefined);

/** For the Eligibility screen: "tell me when this check is answered, wherever I am then". */
export function useWatchCheck(): (check: WatchedCheck) => void {
  return useContext(WatchContext);
}

/** Events can be missed (a reconnect, a sleep): a slow re-read while any check is watched. */
const POLL_MS = 4_000;
const LIST_LIMIT = 50;

const OUTCOME: Record<string, string> = { active: 'Active', inactive: 'Inactive', failed: 'the check did not go through' };

function outcomeOf(check: Check): string {
  return OUTCOME[eligibilityBadge({ status: check.status, benefit_codes: (check.benefits ?? []).map((b) => b.code) })] ?? 'answered';
}

const showsPatient = (route: Route, patientId: string) => route.screen === 'eligibility' && route.patientId === patientId;

/**
 * A check answered while the desk looks elsewhere raises a notice that opens it: the OS
 * notification where the host has one (desktop), else a toast here (browser). Answered on
 * the patient's own Eligibility screen, the screen itself shows it; no notice.
 */
export function CheckNotices({ children }: { children: ReactNode }) {
  const bridge = useBridge();
  const { route, navigate } = useNavigation();
  const routeRef = useRef(route);
  const [toasts, setToasts] = useState<Toast[]>([]);
  useEffect(() => {
    routeRef.current = route;
    // A toast belongs to the screen it was raised on; it does not follow the desk around, covering rows.
    const here = screenKey(route);
    setToasts((list) => (list.some((t) => t.raisedOn !== here) ? list.filter((t) => t.raisedOn === here) : list));
  }, [route]);
  const watched = useRef(new Map<string, WatchedCheck>());
  const notified = useRef(new Map<string, WatchedCheck>());
  const [watching, setWatching] = useState(0);

  const open = useCallback(
    (check: WatchedCheck) => {
      setToasts((list) => list.filter((t) => t.checkId !== check.checkId));
      navigate({ screen: 'eligibility', patientId: check.patientId, cardId: check.cardId, checkId: check.checkId });
    },
    [navigate],
  );

  const settle = useCallback(
    async (check: WatchedCheck) => {
      // A list read, not checks.get: the host audits a get as a person viewing the check, and
      // this poll is nobody looking. A just-made check is among the newest.
      const read = await bridge.checks.list({ limit: LIST_LIMIT });
      const found = read.ok ? read.value.data.find((c) => c.id === check.checkId) : undefined;
      if (!found || found.status === 'pending' || !watched.current.delete(check.checkId)) return;
      setWatching(watched.current.size);
      if (showsPatient(routeRef.current, check.patientId)) return;
      notified.current.set(check.checkId, check);
      const shown = await bridge.notices.show({ kind: 'check_answered', check_id: check.checkId });
      if (shown.ok && shown.value.shown) return;
      setToasts((list) => [...list.filter((t) => t.checkId !== check.checkId), { ...check, outcome: outcomeOf(found), raisedOn: screenKey(routeRef.current) }]);
    },
    [bridge],
  );

  useEffect(
    () =>
      bridge.on('records.changed', (change) => {
        const check = change.collection === 'electronic_eligibility_checks' ? watched.current.get(change.id) : undefined;
        if (check) void settle(check);
      }),
    [bridge, settle],
  );
  useEffect(() => {
    if (watching === 0) return;
    const timer = window.setInterval(() => watched.current.forEach((check) => void settle(check)), POLL_MS);
    return () => window.clearInterval(timer);
  }, [watching, settle]);
  useEffect(
    () =>
      bridge.on('notices.opened', ({ check_id }) => {
        const check = notified.current.get(check_id);
        if (check) open(check);
      }),
    [bridge, open],
  );

  const watch = useCallback((check: WatchedCheck) => {
    watched.current.set(check.checkId, check);
    setWatching(watched.current.size);
  }, []);

  return (
    <WatchContext.Provider value={watch}>
      {children}
      <div className="toasts">
        {toasts.map((toast) => (
          <div key={toast.checkId} className="toast" role="status">
            <p>
              <strong>Eligibility answer ready</strong> for {toast.patientLabel}: {toast.outcome}.
            </p>
            <div className="row">
              <Button size="small" variant="primary" onClick={() => open(toast)}>
                Open
              </Button>
              <Button size="small" onClick={() => setToasts((list) => list.filter((t) => t.checkId !== toast.checkId))}>
                Dismiss
              </Button>
            </div>
          </div>
        ))}
      </div>
    </WatchContext.Provider>
  );
}
