import { useId } from 'react';
import type { Estimate } from '../../../shared/bridge/estimate-contract';
import { formatCents } from '../../../shared/money';

/** "$40.00", a range "$0.00–$120.00", or "at least $40.00": the headline's amount, short enough for a row. */
export function collectAmount(estimate: Pick<Estimate, 'min_cents' | 'max_cents'>): string {
  if (estimate.max_cents === null) return `at least ${formatCents(estimate.min_cents)}`;
  return estimate.max_cents === estimate.min_cents ? formatCents(estimate.min_cents) : `${formatCents(estimate.min_cents)}–${formatCents(estimate.max_cents)}`;
}

/** The steps that led to the amount, as one sentence: what the tag shows on hover and focus. */
export function collectSteps(estimate: Estimate): string {
  const network = estimate.network === 'out_of_network' ? ' (out of network)' : '';
  const stale = estimate.stale ? ` Stale: the check is older than ${estimate.freshness_days} days; check again before collecting.` : '';
  const range = estimate.exact ? '' : ' A range: the payer’s figures leave the exact amount open.';
  return `${estimate.steps.map((step) => step.text).join('; ')}${network}.${range}${stale}`;
}

/**
 * "Collect today: $X" in a row of Today or the worklist (issue 30): the amount (a range where
 * the benefits leave it open), "stale" when the check is older than the freshness window,
 * and the steps under it on hover and on focus. `focusable` is false inside Today's listbox,
 * whose options take no focus of their own: there the active row shows the steps.
 */
export function CollectTodayTag({ estimate, focusable = true, compact = false }: { estimate: Estimate; focusable?: boolean; compact?: boolean }) {
  const id = useId();
  return (
    <span
      className={`collect-tag${estimate.stale ? ' collect-tag--stale' : ''}`}
      data-testid="collect-today-tag"
      tabIndex={focusable ? 0 : undefined}
      aria-describedby={focusable ? id : undefined}
    >
      <span className="collect-tag__amount">
        {/* Compact (Today's narrow status column): "today" is said to a screen reader, not shown. */}
        Collect{compact ? <span className="visually-hidden"> today:</span> : ' today:'} {collectAmount(estimate)}
      </span>
      {estimate.stale && <span className="collect-tag__flag"> (stale)</span>}
      <span className="collect-tag__steps" id={id} role={focusable ? 'tooltip' : undefined} data-testid="collect-today-tag-steps">
        {collectSteps(estimate)}
      </span>
    </span>
  );
}
