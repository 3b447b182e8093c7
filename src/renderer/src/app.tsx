import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { DeskStatusProvider, modeOf, useDeskStatus } from './state/desk-status';
import { IdleLock } from './security/idle-lock';
import { NavigationContext, SCREENS, useNavigation, type Route } from './state/navigation';
import { Button } from './ui/button';
import { TodayScreen } from './screens/today-screen';
import { CheckNotices } from './state/check-notices';
import { IntakeDraftProvider, IntakeDraftShelf } from './intake/intake-draft';
import { StaffBadge, StaffGate, useStaff } from './security/staff-gate';
import { mayOpen } from './security/staff-session';
import type { SignedIn } from '../../shared/bridge/staff-contract';
import { EMERGENCY_SIGN_IN, type StaffRole } from '../../shared/bridge/staff-role';
import { Notice } from './ui/notice';
import { useBridgeQuery } from './bridge/use-bridge-query';
import { useBridge } from './bridge/bridge-provider';
import { readOnOpen } from './state/read-on-open';
import { QuitWarningOnLeave } from './sync/only-here';

/**
 * Every screen but Today is its own chunk: the first screen parses only what it shows. The
 * others are fetched once Today is up (LATER_SCREENS), so moving to one never waits on the disk.
 */
const LATER_SCREENS = {
  intake: () => import('./screens/intake-screen').then((m) => ({ default: m.IntakeScreen })),
  eligibility: () => import('./screens/eligibility-screen').then((m) => ({ default: m.EligibilityScreen })),
  discovery: () => import('./screens/discovery-screen').then((m) => ({ default: m.DiscoveryScreen })),
  sync: () => import('./screens/sync-screen').then((m) => ({ default: m.SyncScreen })),
  settings: () => import('./screens/settings-screen').then((m) => ({ default: m.SettingsScreen })),
  audit: () => import('./screens/audit-screen').then((m) => ({ default: m.AuditScreen })),
  schedule: () => import('./screens/schedule-screen').then((m) => ({ default: m.ScheduleScreen })),
  end_of_day: () => import('./screens/end-of-day-screen').then((m) => ({ default: m.EndOfDayScreen })),
};
const IntakeScreen = lazy(LATER_SCREENS.intake);
const EligibilityScreen = lazy(LATER_SCREENS.eligibility);
const DiscoveryScreen = lazy(LATER_SCREENS.discovery);
const SyncScreen = lazy(LATER_SCREENS.sync);
const SettingsScreen = lazy(LATER_SCREENS.settings);
const AuditScreen = lazy(LATER_SCREENS.audit);
const ScheduleScreen = lazy(LATER_SCREENS.schedule);
const EndOfDayScreen = lazy(LATER_SCREENS.end_of_day);
const RecoveryOffer = lazy(() => import('./security/recovery-offer').then((m) => ({ default: m.RecoveryOffer })));

/** After the first screen is painted: a failed fetch here is retried when the screen opens. */
function fetchLaterScreens() {
  Object.values(LATER_SCREENS).forEach((load) => void load().catch(() => undefined));
}

/** `webMode`: the browser-mode page (no preload), where leaving offline with unsent records asks first. */
export function App({ webMode = false }: { webMode?: boolean }) {
  // The draft shelf sits above the sign-in gate: a person's half-filled Intake waits for them.
  return (
    <IntakeDraftShelf>
      <IdleLock>
        <StaffGate>
          {(person) => (
            <DeskStatusProvider>
              {/* Keyed by the person: the next one starts on a fresh desk, nothing of the last one's on screen. */}
              <Shell key={person?.id ?? 'desk'} person={person} />
            </DeskStatusProvider>
          )}
        </StaffGate>
      </IdleLock>
      {/* Above the gate: the tab closed at the sign-in screen loses what was not sent all the same. */}
      {webMode && <QuitWarningOnLeave />}
    </IntakeDraftShelf>
  );
}

function Shell({ person }: { person: SignedIn | null }) {
  const role = person?.role ?? null;
  const [route, setRoute] = useState<Route>({ screen: 'today' });
  const client = useQueryClient();
  const bridge = useBridge();
  // The route as last asked for (the keyboard's handler is not re-made on each move).
  const routeRef = useRef(route);
  // Every way to a screen comes here: its slow first read starts as it is asked for.
  const navigate = useCallback(
    (next: Route) => {
      // A screen this person may not open is not read for them either (the host would refuse it).
      if (next.screen !== routeRef.current.screen && mayOpen(role, next.screen)) readOnOpen(client, bridge, next.screen);
      routeRef.current = next;
      setRoute(next);
    },
    [client, bridge, role],
  );

  useEffect(() => {
    const handle = setTimeout(fetchLaterScreens, 1000);
    return () => clearTimeout(handle);
  }, []);

  // Alt+1…6 jump between screens from anywhere, even while typing in a field.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      const target = SCREENS.find((s) => s.key === event.key || `Digit${s.key}` === event.code);
      if (!target || !mayOpen(role, target.screen)) return;
      event.preventDefault();
      navigate(carryPatient(routeRef.current, target.screen));
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [role, navigate]);

  return (
    <NavigationContext.Provider value={{ route, navigate }}>
      <CheckNotices>
        <a className="skip-link" href="#main">
          Skip to the screen
        </a>
        <div className="app">
          <div className="banners">
            <Banners role={role} />
          </div>
          <Nav route={route} navigate={navigate} role={role} />
          <main id="main" className={`main${route.screen === 'today' ? ' main--fill' : ''}`} tabIndex={-1}>
            <IntakeDraftProvider owner={person?.id}>
              <Suspense fallback={null}>
                <CurrentScreen route={route} role={role} />
              </Suspense>
            </IntakeDraftProvider>
          </main>
        </div>
      </CheckNotices>
    </NavigationContext.Provider>
  );
}

/**
 * Eligibility and Discovery are about one patient: moving between them keeps that patient.
 * Intake does not take it along: a new intake starts with no patient chosen, so a card is
 * never saved to whoever was on screen before (an unsaved card in Intake is kept as it was).
 */
function carryPatient(current: Route, screen: Route['screen']): Route {
  const patientId = 'patientId' in current ? current.patientId : undefined;
  const cardId = 'cardId' in current ? current.cardId : undefined;
  switch (screen) {
    case 'eligibility':
    case 'discovery':
      return { screen, patientId, cardId };
    default:
      return { screen };
  }
}

function CurrentScreen({ route, role }: { route: Route; role: StaffRole | null }) {
  // A link from another screen (the sandbox banner's, a hint's) cannot open a manager's screen either.
  if (!mayOpen(role, route.screen)) {
    return (
      <Notice tone="warn">
        {SCREENS.find((s) => s.screen === route.screen)?.label} is a manager’s screen. Ask a manager to sign in (Switch user).
      </Notice>
    );
  }
  switch (route.screen) {
    case 'today':
      return <TodayScreen />;
    case 'intake':
      return <IntakeScreen key={route.patientId ?? 'new'} patientId={route.patientId} />;
    case 'eligibility':
      return <EligibilityScreen key={route.patientId ?? 'none'} route={route} />;
    case 'discovery':
      return <DiscoveryScreen key={route.patientId ?? 'none'} route={route} />;
    case 'sync':
      return <SyncScreen />;
    case 'settings':
      return <SettingsScreen />;
    case 'audit':
      return <AuditScreen />;
    case 'schedule':
      return <ScheduleScreen />;
    case 'end_of_day':
      return <EndOfDayScreen />;
  }
}

function Nav({ route, navigate, role }: { route: Route; navigate(route: Route): void; role: StaffRole | null }) {
  const { sync } = useDeskStatus();
  const attention = sync ? sync.counts.failed + sync.counts.needs_review : 0;
  return (
    <nav className="nav" aria-label="Screens">
      <div className="nav__brand">Coverdesk</div>
      <StaffBadge />
      {SCREENS.filter(({ screen }) => mayOpen(role, screen)).map(({ screen, label, key }) => (
        <button
          key={screen}
          type="button"
          className="nav__item"
          aria-current={route.screen === screen ? 'page' : undefined}
          aria-keyshortcuts={`Alt+${key}`}
          onClick={() => navigate(carryPatient(route, screen))}
        >
          <span>{label}</span>
          {screen === 'sync' && attention > 0 ? (
            <span className="nav__count" aria-label={`${attention} need attention`}>
              {attention}
            </span>
          ) : (
            <span className="nav__key" aria-hidden="true">
              Alt+{key}
            </span>
          )}
        </button>
      ))}
    </nav>
  );
}

/** Sandbox mode and being offline are shown on every screen, never only in Settings. */
/** The database was damaged at start: what was kept aside, what came back, and the ids that did not. */
function DamageBanner() {
  const damage = useBridgeQuery('storage.damage', {}).data;
  if (!damage) return null;
  const notRecovered = [...damage.missing_records, ...damage.unreadable_entries];
  return (
    <div className="banner banner--offline" role="alert" data-testid="damage-banner">
      <details className="banner__text">
        <summary>
          <strong>The database was damaged and set aside.</strong> {damage.recovered_entries} records not yet sent were recovered
          {notRecovered.length > 0 ? `; ${notRecovered.length} could not be: see which` : ''}.
        </summary>
        <p>{damage.message}</p>
        {notRecovered.length > 0 && (
          <p data-testid="damage-not-recovered">
            Not recovered: <span className="mono">{notRecovered.join(', ')}</span>
          </p>
        )}
      </details>
    </div>
  );
}

function Banners({ role }: { role: StaffRole | null }) {
  const status = useDeskStatus();
  const { signedIn, justSetUp } = useStaff();
  const { navigate } = useNavigation();
  const mode = modeOf(status);
  const offline = status.sync?.online === false;
  const storage = status.sync?.storage ?? 'ok';
  const queued = status.sync ? status.sync.counts.queued + status.sync.counts.sending : 0;
  return (
    <>
      {mode === 'sandbox' && (
        // On paper every page says so: a fixed element repeats on each printed page.
        <p className="print-sandbox-mark" data-testid="print-sandbox-mark">
          <span>SANDBOX</span> Practice answer from Coverdesk’s sandbox, not from a real payer
        </p>
      )}
      {mode === 'sandbox' && (
        <div className="banner banner--sandbox" role="region" aria-label="Sandbox mode">
          <span className="banner__text">
            <strong>Sandbox mode.</strong> Checks go to Coverdesk’s practice payer, not a real one: nothing here is a real answer.
          </span>
          {mayOpen(role, 'settings') && (
            <Button size="small" onClick={() => navigate({ screen: 'settings' })}>
              Connect a real service
            </Button>
          )}
        </div>
      )}
      {signedIn?.id === EMERGENCY_SIGN_IN.id && (
        <div className="banner banner--offline" role="alert" data-testid="emergency-banner">
          <span className="banner__text">
            <strong>Signed in with the recovery code.</strong> Manager rights for this sign-in only: set a new PIN for the manager in Settings → Staff, then switch user.
          </span>
          <Button size="small" onClick={() => navigate({ screen: 'settings' })}>
            Open Settings
          </Button>
        </div>
      )}
      {justSetUp && (
        <Suspense fallback={null}>
          <RecoveryOffer />
        </Suspense>
      )}
      <DamageBanner />
      {storage !== 'ok' && (
        <div className="banner banner--offline" role="status" data-testid="disk-banner">
          <span className="banner__text">
            {storage === 'full' ? (
              <>
                {/* What to do first: a narrow window cuts the sentence's end. */}
                <strong>The disk is full.</strong> Free some space: nothing new can be saved and sending waits; it goes on by itself once there is room.
              </>
            ) : (
              <>
                <strong>The disk is nearly full.</strong> Less than 500 MB free on this computer: free some space.
              </>
            )}
          </span>
        </div>
      )}
      {offline && (
        <div className="banner banner--offline" role="status">
          <span className="banner__text">
            {/* The count first: a narrow window cuts the sentence's end, never what is waiting. */}
            <strong>Offline.</strong> {queued > 0 ? `(${queued} waiting) ` : ''}The eligibility service cannot be reached: everything you enter is saved on this
            computer and sent when the connection is back.
          </span>
          <Button size="small" onClick={() => navigate({ screen: 'sync' })}>
            See what is waiting
          </Button>
        </div>
      )}
    </>
  );
}
