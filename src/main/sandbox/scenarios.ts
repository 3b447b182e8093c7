import { AAA_REASONS, FOLLOW_UP_ACTIONS, type ClearinghouseEntityError } from '../../shared/contract';

/** The AAA rejections the sandbox can answer with (docs/sandbox.md), one per reserved prefix. */
export const SANDBOX_AAA_CODES = ['15', '42', '43', '72', '73', '75', '76', '79'] as const;
export type SandboxAaaCode = (typeof SANDBOX_AAA_CODES)[number];

/** How the simulated clearinghouse answers a check, picked by the card's member id. */
export type Scenario =
  | { kind: 'active' }
  | { kind: 'inactive' }
  | { kind: 'entity_error'; code: SandboxAaaCode }
  | { kind: 'clearinghouse_error' }
  | { kind: 'long_pending' };

/** X12 AAA03 descriptions, with the AAA04 follow-up action a payer typically sends with each. */
const AAA_DETAILS: Record<SandboxAaaCode, { description: string; follow_up: keyof typeof FOLLOW_UP_ACTIONS }> = {
  '15': { description: 'Required application data missing', follow_up: 'C' },
  '42': { description: 'Unable to respond at current time', follow_up: 'R' },
  '43': { description: 'Invalid/missing provider identification', follow_up: 'C' },
  '72': { description: 'Invalid/missing subscriber/insured ID', follow_up: 'C' },
  '73': { description: 'Invalid/missing subscriber/insured name', follow_up: 'C' },
  '75': { description: 'Subscriber/insured not found', follow_up: 'C' },
  '76': { description: 'Duplicate subscriber/insured ID number', follow_up: 'C' },
  '79': { description: 'Invalid participant identification', follow_up: 'N' },
};

/**
 * Reserved member-id prefixes (case-insensitive), checked in order; any other member id is
 * active coverage. docs/sandbox.md publishes this table.
 */
export const SCENARIO_PREFIXES: readonly { prefix: string; scenario: Scenario }[] = [
  { prefix: 'INACTIVE', scenario: { kind: 'inactive' } },
  ...SANDBOX_AAA_CODES.map((code) => ({ prefix: `AAA${code}`, scenario: { kind: 'entity_error', code } as Scenario })),
  { prefix: 'CHERROR', scenario: { kind: 'clearinghouse_error' } },
  { prefix: 'PENDING', scenario: { kind: 'long_pending' } },
];

/**
 * The scenario for a check on a card with this member id. A card without a member id is
 * what a payer rejects as AAA 72: nobody can be looked up without one.
 */
export function scenarioFor(memberId: string | null | undefined): Scenario {
  if (!memberId) return { kind: 'entity_error', code: '72' };
  const upper = memberId.toUpperCase();
  return SCENARIO_PREFIXES.find(({ prefix }) => upper.startsWith(prefix))?.scenario ?? { kind: 'active' };
}

/** One AAA segment as the contract's entity error. */
export function entityError(code: SandboxAaaCode): ClearinghouseEntityError {
  const { reason, field } = AAA_REASONS[code];
  const { description, follow_up } = AAA_DETAILS[code];
  return { code, reason, description, follow_up_action: FOLLOW_UP_ACTIONS[follow_up], field };
}
