import type { SyncState } from '../contract';

/**
 * The three states a desk tells apart for work not yet sent, plus done: `sending` (queued or
 * on its way: nothing to do), `needs_you` (refused, or unsure whether it arrived: someone must
 * decide), `waiting` (held behind another item that needs someone). The six outbox states
 * are the worker's; these are the desk's. Shared by Today's badges and the Sync screen.
 */
export type SyncPhase = 'sending' | 'needs_you' | 'waiting' | 'sent';

const PHASE_OF: Record<SyncState, SyncPhase> = {
  queued: 'sending',
  sending: 'sending',
  failed: 'needs_you',
  needs_review: 'needs_you',
  blocked: 'waiting',
  synced: 'sent',
};

export function syncPhase(state: SyncState): SyncPhase {
  return PHASE_OF[state];
}

export const SYNC_PHASE_LABELS: Record<SyncPhase, string> = {
  sending: 'Sending',
  needs_you: 'Needs you',
  waiting: 'Waiting for another item',
  sent: 'Sent',
};
