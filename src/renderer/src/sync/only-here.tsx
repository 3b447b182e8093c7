import { useEffect } from 'react';
import { quitWarning } from '../../../shared/bridge/only-here';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { formatWhen } from '../format';

/** The Sync screen's line: how many records exist only on this desk, and since when. */
export function OnlyHereLine() {
  const only = useBridgeQuery('sync.onlyHere', {});
  const value = only.data;
  if (!value) return null;
  return (
    <p data-testid="only-here" className={value.records ? undefined : 'muted'}>
      {value.records === 0 || !value.since
        ? 'Nothing exists only on this computer: the service has everything.'
        : `${value.records} ${value.records === 1 ? 'record exists' : 'records exist'} only on this computer, the oldest since ${formatWhen(value.since)}: until they are sent, a backup is their only other copy.`}
    </p>
  );
}

/**
 * Browser mode: leaving the page while offline with records only here asks first (the
 * browser's own "Leave site?" prompt; the Sync screen says how many). The desktop app asks in
 * its `before-quit` instead: a `beforeunload` there would cancel the close without a word.
 */
export function QuitWarningOnLeave() {
  // Read here, not from the desk's status: this sits above the sign-in gate (both are `anyone`).
  const { data: sync } = useBridgeQuery('sync.status', {});
  const only = useBridgeQuery('sync.onlyHere', {});
  const warning = sync && only.data ? quitWarning(sync, only.data, (iso) => formatWhen(iso)) : null;
  useEffect(() => {
    if (!warning) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = warning;
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [warning]);
  return warning ? (
    <span className="visually-hidden" data-testid="quit-warning">
      {warning}
    </span>
  ) : null;
}
