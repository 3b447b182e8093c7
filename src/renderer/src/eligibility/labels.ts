import type { Benefit, BenefitCode, CoverageLevel, InNetwork, TimePeriod } from '../../../shared/contract';

function sentenceCase(snake: string): string {
  const words = snake.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const BENEFIT_LABELS: Partial<Record<BenefitCode, string>> = {
  active_coverage: 'Active coverage',
  inactive: 'Inactive',
  co_payment: 'Copay',
  co_insurance: 'Coinsurance',
  deductible: 'Deductible',
  out_of_pocket_stop_loss: 'Out-of-pocket maximum',
  limitations: 'Limitations',
  non_covered: 'Not covered',
  primary_care_provider: 'Primary care provider',
  benefit_description: 'Benefit description',
  contact_following_entity: 'Contact',
  other_or_additional_payor: 'Other payer',
};

export function benefitLabel(code: BenefitCode): string {
  return BENEFIT_LABELS[code] ?? sentenceCase(code);
}

const PERIOD_LABELS: Partial<Record<TimePeriod, string>> = {
  calendar_year: 'Per calendar year',
  service_year: 'Per plan year',
  year_to_date: 'Met so far',
  remaining: 'Remaining',
  visit: 'Per visit',
  day: 'Per day',
  lifetime: 'Lifetime',
  lifetime_remaining: 'Lifetime remaining',
  admission: 'Per admission',
  episode: 'Per episode',
  contract: 'Per contract',
};

export function periodLabel(period: TimePeriod | undefined): string {
  return period ? (PERIOD_LABELS[period] ?? sentenceCase(period)) : '';
}

export function networkLabel(value: InNetwork): string {
  return { yes: 'In network', no: 'Out of network', unknown: 'Either', not_applicable: 'Either' }[value];
}

export function levelLabel(level: CoverageLevel | undefined): string {
  return level ? sentenceCase(level) : '';
}

/** "$25.00", "20%", "12 visits": what the EB segment says, in one cell. */
export function benefitValue(benefit: Benefit, money: (text: string) => string, percent: (text: string) => string): string {
  const parts: string[] = [];
  if (benefit.amount !== undefined) parts.push(money(benefit.amount));
  if (benefit.percent !== undefined) parts.push(percent(benefit.percent));
  if (benefit.quantity) parts.push(`${benefit.quantity.value} ${benefit.quantity.qualifier.replace(/_/g, ' ')}`);
  return parts.join(' · ');
}
