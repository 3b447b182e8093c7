import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Estimate } from '@src/shared/bridge/estimate-contract';
import { CollectTodayTag } from '@src/renderer/src/estimates/collect-today-tag';

// Issue 30, item 2: "Collect today" on Today's and the worklist's rows.
const EXACT: Estimate = {
  check_id: 'eec_1',
  visit_type: 'Office visit',
  service_type: 'professional_physician_visit_office',
  network: 'in_network',
  basis: 'fee_schedule',
  allowed_cents: 10000,
  min_cents: 4000,
  max_cents: 4000,
  exact: true,
  headline: 'Collect today: $40.00',
  steps: [
    { kind: 'allowed', cents: null, text: '$100.00 expected allowed amount (fee schedule)' },
    { kind: 'copay', cents: 4000, text: '$40.00 copay' },
    { kind: 'deductible', cents: 0, text: 'deductible met' },
    { kind: 'out_of_pocket', cents: null, text: 'out-of-pocket $1,240.00 left' },
  ],
  stale: false,
  checked_at: '2026-11-23T09:00:00.000Z',
  freshness_days: 30,
};

describe('the Collect today tag', () => {
  it('shows the amount, with the steps as its description for hover and focus', () => {
    const html = renderToStaticMarkup(<CollectTodayTag estimate={EXACT} />);
    expect(html).toContain('Collect today: $40.00');
    expect(html).toMatch(/tabindex="0" aria-describedby="([^"]+)".*id="\1" role="tooltip"/);
    expect(html).toContain('$100.00 expected allowed amount (fee schedule); $40.00 copay; deductible met; out-of-pocket $1,240.00 left.');
    expect(html).not.toContain('stale');
  });

  it('shows a range where the benefits are ambiguous, never one made-up figure, and marks a stale check', () => {
    const html = renderToStaticMarkup(<CollectTodayTag estimate={{ ...EXACT, min_cents: 0, max_cents: 12000, exact: false, stale: true, network: 'out_of_network' }} />);
    expect(html).toContain('Collect today: $0.00–$120.00');
    expect(html).toContain('(stale)');
    expect(html).toContain('(out of network). A range: the payer’s figures leave the exact amount open. Stale: the check is older than 30 days; check again before collecting.');
    const open = renderToStaticMarkup(<CollectTodayTag estimate={{ ...EXACT, max_cents: null, exact: false }} />);
    expect(open).toContain('Collect today: at least $40.00');
  });

  it('inside Today’s listbox takes no focus of its own', () => {
    const html = renderToStaticMarkup(<CollectTodayTag estimate={EXACT} focusable={false} />);
    expect(html).not.toContain('tabindex');
    expect(html).not.toContain('role="tooltip"');
  });
});
