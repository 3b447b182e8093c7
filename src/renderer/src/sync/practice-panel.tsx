import { useBridge } from '../bridge/bridge-provider';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { formatDob, formatWhen, patientName } from '../format';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Loading, Notice, Panel } from '../ui/notice';
import type { PracticeViewDetail } from '../../../shared/bridge/practice-view';

/** "3 minutes" from milliseconds: how far behind, in the words a desk uses. */
function howLong(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} hours` : `${Math.round(hours / 24)} days`;
}

/** Where this desk stands against the practice: bootstrap progress, last heard, behind by. */
function standing(view: PracticeViewDetail, now: Date): { tone: 'ok' | 'warn' | 'bad' | 'neutral'; badge: string; text: string } {
  if (view.available === false) return { tone: 'warn', badge: 'Practice view unavailable', text: 'The service does not offer the practice’s changes: this desk still sends its work, but does not see other desks’ patients, cards or checks.' };
  if (view.available === null) return { tone: 'neutral', badge: 'Not asked yet', text: 'This desk has not heard from the practice yet.' };
  if (!view.caught_up_at) return { tone: 'warn', badge: 'Getting the practice’s records', text: `${view.received.toLocaleString('en-US')} records received so far. You can keep working while this runs.` };
  const behindMs = view.behind ? now.getTime() - Date.parse(view.caught_up_at) : 0;
  if (view.error) return { tone: 'bad', badge: 'Cannot reach the practice', text: `Up to date as of ${formatWhen(view.caught_up_at, now)} (${howLong(now.getTime() - Date.parse(view.caught_up_at))} ago).` };
  return view.behind
    ? { tone: 'warn', badge: 'Catching up', text: `Behind by ${howLong(behindMs)}: up to date as of ${formatWhen(view.caught_up_at, now)}.` }
    : { tone: 'ok', badge: 'Up to date', text: 'This desk has everything the practice had when it last asked.' };
}

/** The pull side on the Sync screen: the practice's records reaching this desk, what was set aside, possible duplicates. */
export function PracticePanel() {
  const bridge = useBridge();
  const view = useBridgeQuery('sync.practice', {}, { poll: 2000 });
  const duplicates = useBridgeQuery('patients.possibleDuplicates', {}, { poll: 10_000 });
  const now = new Date();
  const open = duplicates.data?.data.filter((d) => d.state === 'open') ?? [];
  return (
    <Panel title="The practice" titleId="sync-practice">
      {!view.data ? (
        view.error ? <Notice tone="warn">{view.error.message}</Notice> : <Loading label="Reading what this desk has of the practice…" />
      ) : (
        (() => {
          const s = standing(view.data, now);
          return (
            <>
              <div className="row" data-testid="practice-standing">
                <Badge tone={s.tone}>{s.badge}</Badge>
                <span>{s.text}</span>
                <span className="muted">Last heard from the practice: {view.data.last_pulled_at ? formatWhen(view.data.last_pulled_at, now) : 'never'}</span>
              </div>
              {view.data.set_aside > 0 && (
                <>
                  <Notice tone="warn">
                    {view.data.set_aside} {view.data.set_aside === 1 ? 'record' : 'records'} from the practice could not be taken. Everything else arrived.
                  </Notice>
                  <ul className="practice__set-aside">
                    {view.data.set_aside_records.map((record) => (
                      <li key={record.id}>
                        <strong>{record.collection.replaceAll('_', ' ')}</strong> {record.upstream_id ?? ''}: {record.reason}
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </>
          );
        })()
      )}
      {open.length > 0 && (
        <section aria-labelledby="possible-duplicates">
          <h3 id="possible-duplicates">Possibly the same person</h3>
          <p className="small muted">Registered at two desks. Nothing is merged: say whether they are one person.</p>
          <ul className="practice__duplicates">
            {open.map((pair) => (
              <li key={`${pair.patient.patient_id}/${pair.other.patient_id}`} className="row">
                <span>
                  {patientName(pair.patient)} and {patientName(pair.other)}, born {formatDob(pair.patient.date_of_birth)}
                </span>
                {(['linked', 'dismissed'] as const).map((state) => (
                  <Button
                    key={state}
                    size="small"
                    onClick={() =>
                      void bridge.patients
                        .resolveDuplicate({ patient_id: pair.patient.patient_id, other_patient_id: pair.other.patient_id, state })
                        .then(() => duplicates.reload())
                    }
                  >
                    {state === 'linked' ? 'Same person' : 'Different people'}
                  </Button>
                ))}
              </li>
            ))}
          </ul>
        </section>
      )}
    </Panel>
  );
}
