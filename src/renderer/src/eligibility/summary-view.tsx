import type { Check } from '../../../shared/contract';
import { serviceTypeLabel } from '../../../shared/contract';
import { formatCents, formatPercent, formatWhen } from '../format';
import type { Accumulator, BenefitSummary, ByNetwork, Level } from './benefit-summary';
import { periodLabel } from './labels';

function accumulatorText(acc: Accumulator | null): string {
  if (!acc) return 'Not sent';
  const parts: string[] = [];
  if (acc.met !== null) parts.push(`${formatCents(acc.met)} met`);
  if (acc.remaining !== null) parts.push(`${formatCents(acc.remaining)} left`);
  if (acc.total !== null) parts.push(`of ${formatCents(acc.total)}`);
  return parts.join(', ');
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

/** A headline figure with its context below it, or what to do when the payer did not send it. */
function Figure({ label, testId, value, details, missing }: { label: string; testId: string; value: string | null; details: (string | null | false | undefined)[] | null; missing: string }) {
  return (
    <div className="figure" data-testid={testId}>
      <p className="figure__label">{label}</p>
      <p className="figure__value">{value ?? <span className="muted">Not sent</span>}</p>
      <p className="figure__sub">{details ? details.filter(Boolean).join(', ') : missing}</p>
    </div>
  );
}

/** One headline figure: the in-network, individual number, with its context underneath. */
function AccumulatorFigure({ label, figures, testId }: { label: string; figures: Record<Level, ByNetwork<Accumulator>>; testId: string }) {
  const acc = figures.individual.in_network ?? figures.individual.out_of_network;
  const network = figures.individual.in_network ? 'in network' : 'out of network';
  return (
    <div className="figure" data-testid={testId}>
      <p className="figure__label">
        {label} <span className="visually-hidden">(individual, {network})</span>
      </p>
      {acc ? (
        <>
          <p className="figure__value">{acc.remaining !== null ? `${formatCents(acc.remaining)} left` : acc.total !== null ? formatCents(acc.total) : formatCents(acc.met ?? 0)}</p>
          <Meter acc={acc} />
          <p className="figure__sub">
            Individual, {network}: {accumulatorText(acc)}
          </p>
        </>
      ) : (
        <p className="figure__value muted">Not sent</p>
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

/** Readable in five seconds: active or not, plan, what the visit costs, where the year stands. */
export function SummaryView({ summary, check, payerName, providerName, memberId }: SummaryViewProps) {
  const asked = serviceTypeLabel(check.service_type);
  const copay = summary.copay.in_network ?? summary.copay.out_of_network;
  const coins = summary.coinsurance.in_network ?? summary.coinsurance.out_of_network;
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
          <p>
            <strong>{summary.plan_name ?? 'Plan name not sent'}</strong>
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
            <Figure
              label="Copay"
              testId="copay"
              value={copay && formatCents(copay.cents)}
              details={
                copay && [
                  summary.copay.in_network ? 'In network' : 'Out of network',
                  periodLabel(copay.time_period ?? undefined).toLowerCase(),
                  copay.for && `for ${serviceTypeLabel(copay.for).toLowerCase()}`,
                  summary.copay.in_network && summary.copay.out_of_network && `out of network ${formatCents(summary.copay.out_of_network.cents)}`,
                ]
              }
              missing="Ask the payer if a copay applies."
            />
            <Figure
              label="Coinsurance"
              testId="coinsurance"
              value={coins && formatPercent(coins.fraction)}
              details={
                coins && [
                  summary.coinsurance.in_network ? 'Patient pays, in network' : 'Patient pays, out of network',
                  summary.coinsurance.in_network && summary.coinsurance.out_of_network && `out of network ${formatPercent(summary.coinsurance.out_of_network.fraction)}`,
                ]
              }
              missing="Ask the payer if coinsurance applies."
            />
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
