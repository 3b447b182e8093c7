import type { BenefitCode, Status } from '../contract';
import type { EligibilityBadge } from './desk-contract';

const ACTIVE_CODES: ReadonlySet<string> = new Set<BenefitCode>([
  'active_coverage',
  'active_full_risk_capitation',
  'active_services_capitated',
  'active_pending_investigation',
]);
const INACTIVE_CODES: ReadonlySet<string> = new Set<BenefitCode>([
  'inactive',
  'inactive_pending_eligibility_update',
  'inactive_pending_investigation',
]);

/**
 * Whether a successful check found the plan active: an active EB segment wins (payers send
 * inactive segments for dropped riders beside an active plan); inactive alone means inactive.
 * Null when the response says neither.
 */
export function planStatusFromBenefitCodes(codes: Iterable<string>): 'active' | 'inactive' | null {
  let inactive = false;
  for (const code of codes) {
    if (ACTIVE_CODES.has(code)) return 'active';
    if (INACTIVE_CODES.has(code)) inactive = true;
  }
  return inactive ? 'inactive' : null;
}

/**
 * The badge for a patient's latest check. A success that names neither state counts as
 * active: the payer answered with benefits for the member, which only an active plan has.
 */
export function eligibilityBadge(check: { status: Status; benefit_codes: Iterable<string> } | null): EligibilityBadge {
  if (!check) return 'none';
  if (check.status === 'pending') return 'pending';
  if (check.status === 'failure') return 'failed';
  return planStatusFromBenefitCodes(check.benefit_codes) ?? 'active';
}
