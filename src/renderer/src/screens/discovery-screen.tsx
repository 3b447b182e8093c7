import { useState } from 'react';
import { serviceTypeLabel, type Discovery, type InsuranceCard } from '../../../shared/contract';
import { useBridge } from '../bridge/bridge-provider';
import { formatDob, formatWhen, patientName } from '../format';
import { useNavigation, type Route } from '../state/navigation';
import { useReferenceData } from '../state/reference-data';
import { CheckBadge, StatusBadge, SyncBadge } from '../ui/badge';
import { Button } from '../ui/button';
import { SelectField } from '../ui/field';
import { EmptyState, Loading, Notice, Panel } from '../ui/notice';
import { PatientPickerScreen } from '../ui/patient-picker-screen';
import { ScreenTitle } from '../ui/screen-title';
import { cardVersions } from '../../../shared/current-card';
import { CORRECT_PATIENT, CorrectPatientForm, correctionNote } from '../ui/correct-patient';
import { cardLabel, usePatientDetail, versionedCardLabel } from './eligibility-screen';

export function DiscoveryScreen({ route }: { route: Extract<Route, { screen: 'discovery' }> }) {
  if (!route.patientId) return <PatientPickerScreen title="Discovery" screen="discovery" />;
  return <PatientDiscovery patientId={route.patientId} />;
}

/**
 * Discovery asks which coverage a card (and the patient's details) lead to; the checks it
 * spawns are listed under it as they arrive.
 */
function PatientDiscovery({ patientId }: { patientId: string }) {
  const { navigate } = useNavigation();
  const bridge = useBridge();
  const detail = usePatientDetail(patientId);
  const { entities } = useReferenceData();
  // The card the person picked; until then the patient's current card (src/shared/current-card.ts).
  const [cardId, setCardId] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [correcting, setCorrecting] = useState(false);
  const [patientNote, setPatientNote] = useState<string | null>(null);
  const openCorrection = () => {
    setPatientNote(null);
    setCorrecting(true);
  };

  const data = detail.data;
  if (detail.loading && !data) return <Loading label="Loading the patient…" />;
  if (!data) return <Notice tone="bad">{detail.error?.message ?? 'This patient could not be loaded.'}</Notice>;

  const versions = cardVersions(data.cards);
  const card = (cardId ? data.cards.find((c) => c.id === cardId) : undefined) ?? versions.current;
  const payerName = (id: string | undefined) => entities.find((e) => e.id === id)?.name;
  const cardOf = (id: string) => data.cards.find((c) => c.id === id);
  const discoveries = data.discoveries;

  const run = async () => {
    if (!card || busy) return;
    setBusy(true);
    setError(null);
    const result = await bridge.discoveries.create({ insurance_card_id: card.id });
    setBusy(false);
    if (!result.ok) setError(result.error.message);
    else detail.reload();
  };

  return (
    <div className="screen">
      <div className="screen__header">
        <ScreenTitle subtitle={`Born ${formatDob(data.patient.date_of_birth)}`}>Discovery — {patientName(data.patient)}</ScreenTitle>
        <div className="row">
          <Button onClick={() => navigate({ screen: 'eligibility', patientId, cardId: card?.id })}>Go to Eligibility</Button>
          <Button id="correct-patient-open" onClick={openCorrection}>
            {CORRECT_PATIENT}
          </Button>
        </div>
      </div>
      {correcting ? (
        <CorrectPatientForm
          patient={data.patient}
          onCancel={() => {
            setCorrecting(false);
            requestAnimationFrame(() => document.getElementById('correct-patient-open')?.focus());
          }}
          onSaved={(result) => {
            setCorrecting(false);
            setPatientNote(correctionNote(result));
            detail.reload();
            // Next is running discovery again with the corrected details.
            requestAnimationFrame(() => document.getElementById('discovery-run-button')?.focus());
          }}
        />
      ) : (
        patientNote && (
          <Notice tone="ok" live>
            {patientNote}
          </Notice>
        )
      )}
      {!card ? (
        <Panel>
          <EmptyState title="No insurance card yet." action={<Button variant="primary" onClick={() => navigate({ screen: 'intake', patientId })}>Add a card</Button>}>
            Discovery starts from a card: capture one in Intake first.
          </EmptyState>
        </Panel>
      ) : (
        <Panel title="Find coverage" titleId="discovery-run">
          <p>Discovery asks payers which coverage this patient has, from the card and the patient’s name and date of birth. Eligibility checks it finds appear below.</p>
          {data.cards.length > 1 ? (
            <SelectField id="discovery-card" label="Card" value={card.id} onChange={setCardId} options={data.cards.map((c) => ({ value: c.id, label: versionedCardLabel(c, payerName(c.insurance_carrier_ids[0]), versions.earlier.has(c.id)) }))} />
          ) : (
            <p>
              <strong>Card:</strong> {cardLabel(card, payerName(card.insurance_carrier_ids[0]))}
            </p>
          )}
          {error && <Notice tone="bad" live>{error}</Notice>}
          <div className="row">
            <Button id="discovery-run-button" variant="primary" onClick={() => void run()} disabled={busy}>
              {busy ? 'Starting…' : 'Run discovery'}
            </Button>
          </div>
        </Panel>
      )}

      {card && (
        <Panel title="Discoveries for this patient" titleId="discovery-list">
          {discoveries.length === 0 ? (
            <EmptyState title="No discovery run for this patient yet." />
          ) : (
            <ol className="timeline">
              {discoveries.map((discovery) => {
                const spawned = data.checks.filter((c) => c.electronic_eligibility_discovery_id === discovery.id);
                const from = cardOf(discovery.insurance_card_id);
                return (
                  <li key={discovery.id} className="stack panel" data-testid="discovery">
                    <div className="row">
                      <strong>Discovery started {formatWhen(discovery.created_at)}</strong>
                      <StatusBadge status={discovery.status} />
                      <SyncBadge state={discovery.sync?.state} />
                      {discovery.finished_at && <span className="muted small">finished {formatWhen(discovery.finished_at)}</span>}
                    </div>
                    {from && <StartedFrom discovery={discovery} card={from} earlier={versions.earlier.has(from.id)} />}
                    {discovery.status === 'pending' && <Loading label="Asking payers…" />}
                    {discovery.status !== 'pending' && spawned.length === 0 && <NoCoverageFound discovery={discovery} onCorrect={openCorrection} />}
                    {spawned.length > 0 && (
                      <ul className="plain-list stack" aria-label="Checks this discovery started">
                        {spawned.map((check) => (
                          <li key={check.id} className="timeline__item">
                            <span>
                              {serviceTypeLabel(check.service_type)} · {payerName(check.clearinghouse_entity_id) ?? 'Payer'}
                              {check.insurance_card_member_id && <span className="mono"> · {check.insurance_card_member_id}</span>}
                            </span>
                            <span className="row">
                              <CheckBadge check={check} />
                              <Button size="small" onClick={() => navigate({ screen: 'eligibility', patientId, cardId: check.insurance_card_id, checkId: check.id })}>
                                Open
                              </Button>
                            </span>
                          </li>
                        ))}
                      </ul>
                    )}
                  </li>
                );
              })}
            </ol>
          )}
        </Panel>
      )}
    </div>
  );
}

/**
 * The card a discovery started from, as it was sent: its member id is the one the discovery
 * was sent with (the card's payer and member id may have been filled in by the discovery
 * since, so neither is credited to the card). One it found says so.
 */
function StartedFrom({ discovery, card, earlier }: { discovery: Discovery; card: InsuranceCard; earlier: boolean }) {
  const sent = discovery.insurance_card_member_id;
  const found = !sent && card.member_id ? card.member_id : undefined;
  return (
    <p className="small muted">
      From the card added {formatWhen(card.created_at)}
      {earlier ? ' (an earlier version)' : ''}: {sent ? `member id ${sent}` : 'no member id'}
      {found && (
        <>
          {' · '}
          <span data-testid="discovery-found-member-id">
            member id <span className="mono">{found}</span> found by this discovery
          </span>
        </>
      )}
    </p>
  );
}

/**
 * A discovery that found nothing (the payers know no one by that name and date of birth):
 * why, and what the desk can do next.
 */
function NoCoverageFound({ discovery, onCorrect }: { discovery: Discovery; onCorrect(): void }) {
  return (
    <div className="notice notice--warn">
      <p>
        <strong>No coverage found.</strong> No payer Coverdesk asked has a plan for {discovery.patient_first_name} {discovery.patient_last_name}, born{' '}
        {formatDob(discovery.patient_date_of_birth)}.
      </p>
      <p>What to do next:</p>
      <ul>
        <li>
          Check the spelling of the name and the date of birth with the patient: payers match them exactly. If they differ, correct them on this chart (no second patient) and
          run discovery again.{' '}
          <Button size="small" onClick={onCorrect}>
            {CORRECT_PATIENT}
          </Button>
        </li>
        <li>Ask the patient for an insurance card (or a photo of it) and add it in Intake, then check eligibility from the card.</li>
        <li>If the patient has no coverage, treat the visit as self-pay.</li>
      </ul>
    </div>
  );
}
