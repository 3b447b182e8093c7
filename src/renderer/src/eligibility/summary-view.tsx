import type { Check } from '../../../shared/contract';
import { serviceTypeLabel } from '../../../shared/contract';
import { formatCents, formatPercent, formatWhen } from '../format';
import type { Accumulator, BenefitSummary, ByNetwork, Coinsurance, Copay, FigureSource, Level } from './benefit-summary';
import { periodLabel } from './labels';

/** What the desk reads where the payer sent nothing: never a guess, never a figure of another kind. */
export const NOT_STATED = 'Not stated by the payer';

/** "for hospital", "Medicare Part A", "network not stated": what a figure is about, when it is not plainly the visit asked. */
function sourceNotes(source: FigureSource): string[] {
  return [source.insurance, source.for && `for ${serviceTypeLabel(source.for).toLowerCase()}`, !source.network_stated && 'network not stated'].filter((n): n is string => !!n);
}

function accumulatorText(acc: Accumulator | null): string {
  if (!acc) return NOT_STATED;
  const parts: string[] = [];
  if (acc.remaining !== null) parts.push(`${formatCents(acc.remaining)} left${acc.computed === 'remaining' ? ' (computed)' : ''}`);
  else parts.push('remaining not stated');
  if (acc.met !== null) parts.push(`${formatCents(acc.met)} met${acc.computed === 'met' ? ' (computed)' : ''}`);
  if (acc.total !== null) parts.push(`of ${formatCents(acc.total)}${acc.total_period ? ` ${periodLabel(acc.total_period).toLowerCase()}` : ''}`);
  return [...parts, ...sourceNotes(acc)].join(', ');
}

function copayText(copay: Copay): string {
  const per = copay.per ? ` per ${copay.per}` : '';
  const quantity = copay.quantity && copay.quantity.qualifier === 'DY' ? `, ${copay.quantity.value} days` : '';
  return `${formatCents(copay.cents)}${per}${quantity}`;
}

function Meter({ acc }: { acc: Accumulator | null }) {
  if (!acc || acc.total === null || acc.total === 0 || acc.met === null) return null;
  const share = Math.min(100, Math.round((acc.met / acc.total) * 100));
  return (
    <div className="meter" aria-hidden="true">
      <div className="meter__fill" style={{ width: `${share}%` }} />
    </div>
  );
}

/** The in-network figure, else the out-of-network one, with the words for which it is. */
function headline<T>(figures: ByNetwork<T>): { figure: T; network: string; other: T | null } | null {
  if (figures.in_network) return { figure: figures.in_network, network: 'in network', other: figures.out_of_network };
  if (figures.out_of_network) return { figure: figures.out_of_network, network: 'out of network', other: null };
  return null;
}

function CostFigure<T extends Copay | Coinsurance>({ label, testId, figures, text }: { label: string; testId: string; figures: ByNetwork<T>; text: (figure: T) => string }) {
  const shown = headline(figures);
  return (
    <div className="figure" data-testid={testId}>
      <p className="figure__label">{label}</p>
      {shown ? (
        <>
          <p className="figure__value">{text(shown.figure)}</p>
          <p className="figure__sub">
            {[
              shown.figure.network_stated ? `${shown.network[0].toUpperCase()}${shown.network.slice(1)}` : 'Either network',
              ...sourceNotes({ ...shown.figure, network_stated: true }),
              shown.figure.network_stated && (shown.other ? `out of network ${text(shown.other)}` : `out of network: ${NOT_STATED.toLowerCase()}`),
            ]
              .filter(Boolean)
              .join(', ')}
          </p>
        </>
      ) : (
        <p className="figure__value muted">{NOT_STATED}</p>
      )}
    </div>
  );
}

/** One headline figure: what is left for the individual in network, said as the payer said it. */
function AccumulatorFigure({ label, figures, testId }: { label: string; figures: Record<Level, ByNetwork<Accumulator>>; testId: string }) {
  const shown = headline(figures.individual);
  const acc = shown?.figure ?? null;
  const network = acc && !acc.network_stated ? 'either network' : shown?.network;
  return (
    <div className="figure" data-testid={testId}>
      <p className="figure__label">
        {label} <span className="visually-hidden">(individual, {network ?? 'in network'})</span>
      </p>
      {acc ? (
        <>
          {/* A limit is never shown as what is left: without a remainder the headline says so. */}
          <p className="figure__value">{acc.remaining !== null ? `${formatCents(acc.remaining)} left${acc.computed === 'remaining' ? ' (computed)' : ''}` : 'Remaining not stated'}</p>
          <Meter acc={acc} />
          <p className="figure__sub">
            Individual, {network}: {accumulatorText({ ...acc, network_stated: true })}
          </p>
        </>
      ) : (
        <p className="figure__value muted">{NOT_STATED}</p>
      )}
    </div>
  );
}

interface SummaryViewProps {
  summary: BenefitSummary;
  check: Check;
  payerName: string | undefined;
  providerName: string | undefined;
  memberId: string | undefined;
}

/** Readable in five seconds: active or not, the payer's plan, what the visit costs, what is left of the year. */
export function SummaryView({ summary, check, payerName, providerName, memberId }: SummaryViewProps) {
  const asked = serviceTypeLabel(check.service_type);
  return (
    <section className="panel summary" aria-labelledby="summary-title" data-testid="benefits-summary">
      <div className="panel__header">
        <h2 id="summary-title">Coverage summary</h2>
        <p className="muted small">
          {asked} · checked {formatWhen(check.finished_at ?? check.created_at)}
        </p>
      </div>
      <div className="summary__status">
        <span className={`summary__plan-state summary__plan-state--${summary.plan}`} data-testid="plan-state">
          {summary.plan === 'active' ? 'Active' : 'Inactive'}
        </span>
        <div>
          <p data-testid="plan-name">
            <strong>{summary.plan_name ?? 'Plan name not stated by the payer'}</strong>
            {summary.plan_name_source === 'card' && <span className="muted small"> (from the card; the payer did not name the plan)</span>}
          </p>
          <p className="muted small">
            {[payerName, memberId && `Member id ${memberId}`, providerName && `for ${providerName}`].filter(Boolean).join(' · ')}
          </p>
        </div>
      </div>
      {summary.plan === 'inactive' ? (
        <p className="notice notice--bad">The payer says this plan is not active. Ask the patient for their current card, or run a discovery to find other coverage.</p>
      ) : (
        <>
          <div className="figures">
            <CostFigure label="Copay" testId="copay" figures={summary.copay} text={copayText} />
            <CostFigure label="Coinsurance" testId="coinsurance" figures={summary.coinsurance} text={(c) => `${formatPercent(c.fraction)} patient pays`} />
            <AccumulatorFigure label="Deductible" figures={summary.deductible} testId="deductible" />
            <AccumulatorFigure label="Out-of-pocket maximum" figures={summary.out_of_pocket} testId="out-of-pocket" />
          </div>
          <table className="table" aria-label="Deductible and out-of-pocket, by network and coverage level">
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">Figure</span>
                </th>
                <th scope="col">Individual, in network</th>
                <th scope="col">Family, in network</th>
                <th scope="col">Individual, out of network</th>
                <th scope="col">Family, out of network</th>
              </tr>
            </thead>
            <tbody>
              {(
                [
                  ['Deductible', summary.deductible],
                  ['Out-of-pocket maximum', summary.out_of_pocket],
                ] as const
              ).map(([label, figures]) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  <td>{accumulatorText(figures.individual.in_network)}</td>
                  <td>{accumulatorText(figures.family.in_network)}</td>
                  <td>{accumulatorText(figures.individual.out_of_network)}</td>
                  <td>{accumulatorText(figures.family.out_of_network)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
