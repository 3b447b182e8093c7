import { useMemo, useState } from 'react';
import { serviceTypeLabel, type Benefit, type ServiceType } from '../../../shared/contract';
import { formatCents, formatPercent } from '../format';
import { centsFromDecimal, fractionFromDecimal } from '../../../shared/money';
import { benefitLabel, benefitValue, levelLabel, networkLabel, periodLabel } from './labels';

function money(text: string): string {
  const cents = centsFromDecimal(text);
  return cents === null ? text : formatCents(cents);
}
function percent(text: string): string {
  const fraction = fractionFromDecimal(text);
  return fraction === null ? text : formatPercent(fraction);
}

/** The payer's own words beside a benefit: the plan or coverage it names, the entities of its 2120 loop, its messages. */
function notesOf(benefit: Benefit): string {
  const names = (benefit.related_entities ?? []).flatMap((e) => (e.name ? [e.name] : []));
  return [benefit.plan_description, ...names, ...benefit.messages].filter(Boolean).join(' · ');
}

/** Every benefit the payer sent, grouped by service type, the type asked about first. */
export function BenefitsTable({ benefits, asked }: { benefits: Benefit[]; asked: ServiceType }) {
  const [filter, setFilter] = useState('');
  const groups = useMemo(() => {
    const byType = new Map<ServiceType, Benefit[]>();
    for (const benefit of benefits) {
      for (const type of benefit.service_types.length ? benefit.service_types : [asked]) {
        const list = byType.get(type) ?? [];
        list.push(benefit);
        byType.set(type, list);
      }
    }
    const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
    return [...byType.entries()]
      .filter(([type]) => words.every((w) => serviceTypeLabel(type).toLowerCase().includes(w)))
      .sort(([a], [b]) => (a === asked ? -1 : b === asked ? 1 : serviceTypeLabel(a).localeCompare(serviceTypeLabel(b))));
  }, [benefits, asked, filter]);

  return (
    <section className="panel" aria-labelledby="benefits-title">
      <div className="panel__header">
        <h2 id="benefits-title">All benefits ({benefits.length})</h2>
        <div className="field no-print">
          <label className="field__label visually-hidden" htmlFor="benefits-filter">
            Filter by service type
          </label>
          <input id="benefits-filter" className="input" type="search" placeholder="Filter by service type" value={filter} onChange={(e) => setFilter(e.target.value)} />
        </div>
      </div>
      {groups.length === 0 ? (
        <p className="muted">{benefits.length === 0 ? 'The payer sent no benefit details.' : 'No service type matches that filter.'}</p>
      ) : (
        // Focusable so keyboard users can scroll it.
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Benefits table">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Benefit</th>
                <th scope="col">Network</th>
                <th scope="col">Level</th>
                <th scope="col">Period</th>
                <th scope="col">Amount</th>
                <th scope="col">Authorization</th>
                <th scope="col">Notes</th>
              </tr>
            </thead>
            {groups.map(([type, list]) => (
              <tbody key={type}>
                <tr>
                  <th scope="rowgroup" colSpan={7}>
                    {serviceTypeLabel(type)}
                  </th>
                </tr>
                {list.map((benefit, index) => (
                  <tr key={index}>
                    <td>{benefitLabel(benefit.code)}</td>
                    <td>{networkLabel(benefit.in_network)}</td>
                    <td>{levelLabel(benefit.coverage_level)}</td>
                    <td>{periodLabel(benefit.time_period)}</td>
                    <td>{benefitValue(benefit, money, percent)}</td>
                    <td>{benefit.authorization_required === 'yes' ? 'Required' : benefit.authorization_required === 'no' ? 'Not required' : ''}</td>
                    <td>{notesOf(benefit)}</td>
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </div>
      )}
    </section>
  );
}
