import type { ReactNode } from 'react';
import type { EligibilityBadge } from '../../../shared/bridge/desk-contract';
import { eligibilityBadge } from '../../../shared/bridge/desk-eligibility';
import type { Check, Status, SyncState } from '../../../shared/contract';
import { SYNC_PHASE_LABELS, syncPhase, type SyncPhase } from '../../../shared/bridge/sync-phase';

type Tone = 'ok' | 'bad' | 'warn' | 'info' | 'neutral' | 'outline';

export function Badge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <span className={`badge badge--${tone}`}>{children}</span>;
}

const ELIGIBILITY: Record<EligibilityBadge, { tone: Tone; label: string }> = {
  active: { tone: 'ok', label: 'Active' },
  inactive: { tone: 'bad', label: 'Inactive' },
  failed: { tone: 'bad', label: 'Check failed' },
  pending: { tone: 'info', label: 'Checking…' },
  none: { tone: 'neutral', label: 'Not checked' },
};

/** Words first, colour second: the badge reads the same in greyscale. */
export function EligibilityBadgeView({ badge }: { badge: EligibilityBadge }) {
  const { tone, label } = ELIGIBILITY[badge];
  return <Badge tone={tone}>{label}</Badge>;
}

/** A check's outcome as Today shows it: Active, Inactive, Check failed or Checking…. */
export function CheckBadge({ check }: { check: Pick<Check, 'status' | 'benefits'> }) {
  return <EligibilityBadgeView badge={eligibilityBadge({ status: check.status, benefit_codes: (check.benefits ?? []).map((b) => b.code) })} />;
}

const STATUS: Record<Status, { tone: Tone; label: string }> = {
  pending: { tone: 'info', label: 'Pending' },
  success: { tone: 'ok', label: 'Done' },
  failure: { tone: 'bad', label: 'Failed' },
};

export function StatusBadge({ status }: { status: Status }) {
  const { tone, label } = STATUS[status];
  return <Badge tone={tone}>{label}</Badge>;
}

const PHASE_TONES: Record<SyncPhase, Tone> = { sending: 'outline', needs_you: 'bad', waiting: 'warn', sent: 'neutral' };

/**
 * Nothing for synced records: only what still needs the network (or a person) is marked, in
 * the three states a desk tells apart (sync-phase.ts): Sending, Needs you, Waiting for another item.
 */
export function SyncBadge({ state }: { state: SyncState | undefined }) {
  if (!state || state === 'synced') return null;
  const phase = syncPhase(state);
  return <Badge tone={PHASE_TONES[phase]}>{SYNC_PHASE_LABELS[phase]}</Badge>;
}
