import type { OnlyHere } from './desk-contract';

/** The sentence a person reads when quitting while offline with records only here; null when there are none. */
export function quitWarning(status: { online: boolean | null }, only: OnlyHere, formatSince: (iso: string) => string): string | null {
  if (status.online !== false || only.records === 0 || !only.since) return null;
  return `${only.records} ${only.records === 1 ? 'record exists' : 'records exist'} only on this computer (waiting since ${formatSince(only.since)}): the service cannot be reached, so they have not been sent. They are kept and sent once Coverdesk is open and online again; if this computer is to be replaced, back it up first (Settings → Backups).`;
}
