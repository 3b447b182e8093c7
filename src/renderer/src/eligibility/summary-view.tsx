import type { ReactNode } from 'react';
import type { Check } from '../../../shared/contract';
import { serviceTypeLabel } from '../../../shared/contract';
import { formatCents, formatPercent, formatWhen } from '../format';
import type { Accumulator, BenefitSummary, ByNetwork, Copay, Level } from '../../../shared/benefit-summary';
import { CollectToday } from './collect-today';
import { accumulatorCell, accumulatorTile, costTile, NOT_STATED, otherPayerSentence, type TileWords } from './summary-words';

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

/** A tile: its label, the figure, one sentence; or "not stated". */
function Tile({ label, testId, words, children }: { label: string; testId: string; words: TileWords | null; children?: ReactNode }) {
  return (
    <div className="figure" data-testid={testId}>
      <p className="figure__label">{label}</p>
      {words ? (
        <>
          <p className="figure__value">{words.value}</p>
          {children}
          <p className="figure__sub">{words.sentence}</p>
        </>
      ) : (
        <p className="figure__value muted">{NOT_STATED}</p>
      )}
    </div>
  );
}

function AccumulatorFigure({ label, figures, testId }: { label: string; figures: Record<Level, ByNetwork<Accumulator>>; testId: string }) {
  const acc = figures.individual.in_network ?? figures.individual.out_of_network;
  return (
    <Tile label={label} testId={testId} words={accumulatorTile(figures)}>
      <Meter acc={acc} />
    </Tile>
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
      {summary.other_payers.length > 0 && (
        <ul className="notice notice--warn summary__other-payers" aria-label="Other coverage" data-testid="other-payers">
          {summary.other_payers.map((payer) => (
            <li key={`${payer.name}|${payer.role}|${payer.for}`}>{otherPayerSentence(payer)}</li>
          ))}
        </ul>
      )}
      {summary.plan === 'inactive' ? (
        <p className="notice notice--bad">The payer says this plan is not active. Ask the patient for their current card, or run a discovery to find other coverage.</p>
      ) : (
        <>
          <CollectToday check={check} />
          <div className="figures">
            <Tile label="Copay" testId="copay" words={costTile(summary.copay, copayText, 'copay', summary.out_of_pocket_met)} />
            <Tile label="Coinsurance" testId="coinsurance" words={costTile(summary.coinsurance, (c) => `${formatPercent(c.fraction)} patient pays`, 'coinsurance', summary.out_of_pocket_met)} />
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
                  <td>{accumulatorCell(figures.individual.in_network)}</td>
                  <td>{accumulatorCell(figures.family.in_network)}</td>
                  <td>{accumulatorCell(figures.individual.out_of_network)}</td>
                  <td>{accumulatorCell(figures.family.out_of_network)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
