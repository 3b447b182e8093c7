import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { DEFAULT_SERVICE_TYPE, serviceTypeLabel, type Check, type FixableField, type InsuranceCard, type ServiceType } from '../../../shared/contract';
import type { DeskPatientDetail } from '../../../shared/bridge/desk-contract';
import { cardVersions } from '../../../shared/current-card';
import { summarizeBenefits } from '../../../shared/benefit-summary';
import { BenefitsTable } from '../eligibility/benefits-table';
import { correctedCard, type CardCorrection } from '../eligibility/corrected-card';
import { CardCorrectionForm } from '../eligibility/card-correction-form';
import { FailureView } from '../eligibility/failure-view';
import { SERVICE_TYPE_OPTIONS, filterServiceTypes, type ServiceTypeOption } from '../eligibility/service-type-options';
import { SummaryView } from '../eligibility/summary-view';
import { CHECK_RESULT_ID, markAsk, scrollIntoMain, useAnswerReveal } from '../eligibility/use-answer-reveal';
import { formMessage, plainFieldErrors, type FieldMessages } from '../forms/field-errors';
import { formatDob, formatWhen, patientName } from '../format';
import { PhotoThumb } from '../intake/photo-thumb';
import { objectKeyFromUrl } from '../intake/photo-file';
import { useBridge } from '../bridge/bridge-provider';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { useWatchCheck } from '../state/check-notices';
import { useDeskStatus } from '../state/desk-status';
import { useNavigation, type Route } from '../state/navigation';
import { useReferenceData } from '../state/reference-data';
import { usePayerPicker } from '../payers/use-payer-picker';
import { CheckBadge, SyncBadge } from '../ui/badge';
import { Button } from '../ui/button';
import { Combobox, type ComboOption } from '../ui/combobox';
import { SelectField } from '../ui/field';
import { EmptyState, Loading, Notice, Panel } from '../ui/notice';
import { PatientPickerScreen } from '../ui/patient-picker-screen';
import { ScreenTitle } from '../ui/screen-title';
import { CORRECT_PATIENT, CorrectPatientForm, correctionNote } from '../ui/correct-patient';
import { cardFormValues, type CardFormValues, type PatientFormValues } from '../intake/intake-form';
import { ArrivedCardOffer, arrivedCardValues } from '../digital-cards/arrived-card';
import { LicenceCheck, barcodeNotice } from '../intake/barcode-reading';
import { useKeyboardWedge } from '../intake/keyboard-wedge';
import type { LicenceDetails } from '../../../shared/contract';

const LAST_PROVIDER_KEY = 'coverdesk.lastProviderId';
const CHECK_LABELS = { provider_id: 'Provider', clearinghouse_entity_id: 'Payer', service_type: 'Service type', insurance_card_id: 'Card' };
const FIELD_CONTROLS: Partial<Record<FixableField, string>> = { provider_id: 'check-provider', clearinghouse_entity_id: 'check-payer', service_type: 'check-service-type' };

function toOption(option: ServiceTypeOption): ComboOption {
  return { value: option.value, label: option.label, detail: [option.common && 'Common', option.code].filter(Boolean).join(' · ') };
}
const SERVICE_OPTIONS = SERVICE_TYPE_OPTIONS.map(toOption);
const filterServiceOptions = (query: string) => filterServiceTypes(query).map(toOption);

export function cardLabel(card: InsuranceCard, payer: string | undefined): string {
  return [card.member_id ? `Member id ${card.member_id}` : 'No member id', payer, `added ${formatWhen(card.created_at)}`].filter(Boolean).join(' · ');
}

/** A card in a list of the patient's cards: the ones a newer card replaced say so. */
export function versionedCardLabel(card: InsuranceCard, payer: string | undefined, earlier: boolean): string {
  return `${cardLabel(card, payer)}${earlier ? ' · earlier version' : ''}`;
}

/** A check or discovery still waiting for its answer. */
function waiting(data: DeskPatientDetail | undefined): boolean {
  return !!data && (data.checks.some((c) => c.status === 'pending') || data.discoveries.some((d) => d.status === 'pending'));
}

/**
 * The patient's detail, kept live: the sync worker, the local API and discoveries write while
 * the desk looks. Each read is an audited view, so it is read when the screen opens and again
 * only when something of this patient may have changed (bridge-invalidation.ts decides which
 * events those are); while an answer is pending, a slow poll covers a host that missed one.
 */
export function usePatientDetail(patientId: string) {
  return useBridgeQuery('desk.patient', { id: patientId }, { view: true, poll: (data) => (waiting(data) ? 4000 : false) });
}

export function EligibilityScreen({ route }: { route: Extract<Route, { screen: 'eligibility' }> }) {
  if (!route.patientId) return <PatientPickerScreen title="Eligibility" screen="eligibility" />;
  // The route's card is not a choice: the screen opens on the patient's current card (an
  // earlier version named by a route would re-send what was corrected). Its check, if named, is shown.
  return <PatientEligibility patientId={route.patientId} initialCheckId={route.checkId} />;
}

function PatientEligibility({ patientId, initialCheckId }: { patientId: string; initialCheckId?: string }) {
  const { navigate } = useNavigation();
  const bridge = useBridge();
  const watchCheck = useWatchCheck();
  const detail = usePatientDetail(patientId);
  const { providers, entities } = useReferenceData();
  const { settings, sync } = useDeskStatus();

  // The card the person picked from the list; until then, the patient's current card.
  const [cardId, setCardId] = useState<string | undefined>();
  const [providerId, setProviderId] = useState('');
  const [providerTouched, setProviderTouched] = useState(false);
  const [payerId, setPayerId] = useState('');
  const [serviceType, setServiceType] = useState<ServiceType>(DEFAULT_SERVICE_TYPE);
  const [shownCheckId, setShownCheckId] = useState<string | undefined>(initialCheckId);
  const [errors, setErrors] = useState<FieldMessages>({});
  const [runError, setRunError] = useState<string | null>(null);
  // A patient's name or date of birth being corrected (the field the payer refused first), and what it did.
  const [patientFix, setPatientFix] = useState<keyof PatientFormValues | null>(null);
  const [patientNote, setPatientNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const data: DeskPatientDetail | null = detail.data;
  const versions = useMemo(() => cardVersions(data?.cards ?? []), [data?.cards]);
  // The patient's current card (the newest: src/shared/current-card.ts), as Today, the batch
  // and the worklist have it, unless the person picked another. A card id not listed yet
  // (a correction just saved, the list still reloading) falls back to it meanwhile.
  const card = (cardId ? data?.cards.find((c) => c.id === cardId) : undefined) ?? versions.current;
  const [correcting, setCorrecting] = useState(false);
  const [correctedNote, setCorrectedNote] = useState<string | null>(null);

  // A digital card that was waiting when the card was saved, and has arrived: offered as a
  // correction of the current card (cards are create-only), never written into the stored one.
  const arrivedQuery = useBridgeQuery('digitalCards.arrivedForCards', data ? { card_ids: data.cards.map((c) => c.id) } : null);
  const arrivedReading = arrivedQuery.data;
  const arrived = arrivedReading?.waiting_id && versions.current ? arrivedCardValues(cardFormValues(versions.current), arrivedReading, entities) : null;
  const [correctFrom, setCorrectFrom] = useState<{ waitingId: string; values: CardFormValues } | null>(null);
  const answerArrived = async (id: string, answer: 'used' | 'declined') => {
    await bridge.digitalCards.answerWaitingLink({ id, answer });
    arrivedQuery.reload();
  };

  // Defaults: the card's payer, the practice's default provider (else the last one used).
  const cardPayerId = card?.insurance_carrier_ids[0];
  useEffect(() => {
    if (cardPayerId) setPayerId(cardPayerId);
  }, [card?.id, cardPayerId]);
  // The practice's usual visit (Settings), until the person picks another type.
  const [serviceTypeTouched, setServiceTypeTouched] = useState(false);
  const defaultServiceType = settings?.default_service_type ?? DEFAULT_SERVICE_TYPE;
  useEffect(() => {
    if (!serviceTypeTouched) setServiceType(defaultServiceType);
  }, [defaultServiceType, serviceTypeTouched]);
  useEffect(() => {
    if (providerId || providers.length === 0) return;
    const remembered = settings?.default_provider_id ?? localStorage.getItem(LAST_PROVIDER_KEY);
    if (remembered && providers.some((p) => p.id === remembered)) setProviderId(remembered);
    else if (providers.length === 1) setProviderId(providers[0].id);
  }, [providers, settings, providerId]);

  const checks = data?.checks ?? [];
  const shown: Check | undefined = (shownCheckId && checks.find((c) => c.id === shownCheckId)) || checks.find((c) => c.insurance_card_id === card?.id);
  const shownCard = data?.cards.find((c) => c.id === shown?.insurance_card_id);
  // An answer about an earlier version (opened from a notice or the history) is run again
  // with the card in use now, never with the one that was replaced.
  const rerunCard = shownCard && shownCard.id === card?.id ? shownCard : card;
  useAnswerReveal(shown, initialCheckId);
  const payerName = (id: string | undefined) => entities.find((e) => e.id === id)?.name;
  const providerName = (id: string | undefined) => providers.find((p) => p.id === id)?.name;

  const runCheck = async (useCardId: string | undefined, askAbout: ServiceType = serviceType, forProvider: string = providerId) => {
    const missing: FieldMessages = {};
    if (!useCardId) missing.insurance_card_id = 'Add a card for this patient first.';
    if (!forProvider) missing.provider_id = 'Choose the provider the patient will see.';
    if (!payerId) missing.clearinghouse_entity_id = 'Choose the payer named on the card.';
    setErrors(missing);
    setRunError(null);
    if (Object.keys(missing).length > 0 || !useCardId) return;
    const ask = markAsk();
    const result = await bridge.checks.create({ insurance_card_id: useCardId, provider_id: forProvider, clearinghouse_entity_id: payerId, service_type: askAbout });
    if (!result.ok) {
      setErrors(plainFieldErrors(result.error, CHECK_LABELS));
      setRunError(formMessage(result.error));
      return;
    }
    localStorage.setItem(LAST_PROVIDER_KEY, forProvider);
    ask.asked(result.value.id);
    setShownCheckId(result.value.id);
    if (data) watchCheck({ checkId: result.value.id, patientId, cardId: useCardId, patientLabel: patientName(data.patient) });
    detail.reload();
    // The answer replaces the form: a person reads the result next, unless they have already
    // gone on to type in another field while the check was being saved.
    requestAnimationFrame(() => {
      if (ask.typedSince()) return;
      const result = document.getElementById(CHECK_RESULT_ID);
      result?.focus({ preventScroll: true });
      if (result) scrollIntoMain(result);
    });
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      await runCheck(card?.id);
    } finally {
      setBusy(false);
    }
  };

  const rerun = async (corrections: CardCorrection) => {
    if (busy) return;
    setBusy(true);
    try {
      let useCard = rerunCard;
      if (useCard && Object.keys(corrections).length > 0) {
        const created = await bridge.cards.create(correctedCard(useCard, patientId, corrections));
        if (!created.ok) {
          setRunError(`The correction was not saved: ${created.error.errors?.map((e) => e.message).join(' ') || created.error.message}`);
          return;
        }
        useCard = created.value;
        setCardId(created.value.id);
      }
      // Run again, the check asks what the refused one asked (a batch's check asks about the
      // appointment's visit type and provider, not the screen's defaults, which may not even be
      // read yet), unless the person chose another since.
      await runCheck(useCard?.id, !serviceTypeTouched && shown ? shown.service_type : serviceType, !providerTouched && shown ? shown.provider_id : providerId);
    } finally {
      setBusy(false);
    }
  };

  const focusField = (field: FixableField) => {
    const id = FIELD_CONTROLS[field];
    if (id) document.getElementById(id)?.focus();
  };

  const payerPicker = usePayerPicker(entities);

  // A keyboard-wedge scan here: a licence confirms the patient (or says what differs, changing
  // nothing); a card's barcode is for Intake, where a card is made.
  const [scannedLicence, setScannedLicence] = useState<LicenceDetails | null>(null);
  const [scanNote, setScanNote] = useState<string | null>(null);
  useKeyboardWedge((text) => {
    void bridge.barcodes.read({ text }).then((result) => {
      if (!result.ok) return setScanNote(result.error.message);
      const licence = result.value.kind === 'licence' ? result.value.licence : undefined;
      setScannedLicence(licence ?? null);
      setScanNote(licence ? null : (barcodeNotice(result.value) ?? 'That is an insurance card’s barcode: use Add a card and scan it on Intake to save it for this patient.'));
    });
  });

  if (detail.loading && !data) return <Loading label="Loading the patient…" />;
  if (!data) return <Notice tone="bad">{detail.error?.message ?? 'This patient could not be loaded.'}</Notice>;

  const { patient } = data;
  const offline = sync?.online === false;
  return (
    <div className="screen">
      <div className="screen__header">
        <ScreenTitle subtitle={`Born ${formatDob(patient.date_of_birth)}`}>Eligibility — {patientName(patient)}</ScreenTitle>
        <div className="row no-print">
          <Button onClick={() => navigate({ screen: 'discovery', patientId, cardId: card?.id })}>Go to Discovery</Button>
          <Button onClick={() => navigate({ screen: 'intake', patientId })}>Add a card</Button>
          <Button
            id="correct-patient-open"
            onClick={() => {
              setPatientNote(null);
              setPatientFix('first_name');
            }}
          >
            {CORRECT_PATIENT}
          </Button>
        </div>
      </div>
      {patientFix ? (
        <CorrectPatientForm
          patient={patient}
          focus={patientFix}
          onCancel={() => {
            setPatientFix(null);
            requestAnimationFrame(() => document.getElementById('correct-patient-open')?.focus());
          }}
          onSaved={(result) => {
            setPatientFix(null);
            setPatientNote(correctionNote(result));
            detail.reload();
            // Next is the re-run: focus waits on it where a failed check is shown.
            requestAnimationFrame(() => (document.querySelector<HTMLElement>('[data-testid="check-failure"] button[type="submit"]') ?? document.getElementById('correct-patient-open'))?.focus());
          }}
        />
      ) : (
        patientNote && (
          <Notice tone="ok" live>
            {patientNote}
          </Notice>
        )
      )}
      {scannedLicence && <LicenceCheck licence={scannedLicence} patient={patient} onDismiss={() => setScannedLicence(null)} />}
      {scanNote && (
        <Notice tone="info" live>
          {scanNote}
        </Notice>
      )}
      <p className="print-only">
        {patientName(patient)}, born {formatDob(patient.date_of_birth)} · printed {new Date().toLocaleString('en-US')}
      </p>

      {correctedNote && !correcting && (
        <Notice tone="ok" live>
          {correctedNote}
        </Notice>
      )}
      {arrivedReading?.waiting_id && arrived && versions.current && !correcting && (
        <ArrivedCardOffer
          reading={arrivedReading}
          arrived={arrived}
          payerName={(id) => payerName(id) ?? id}
          onUse={() => {
            setCardId(versions.current?.id);
            setCorrectedNote(null);
            setCorrectFrom({ waitingId: arrivedReading.waiting_id!, values: arrived.values });
            setCorrecting(true);
          }}
          onDecline={() => void answerArrived(arrivedReading.waiting_id!, 'declined')}
        />
      )}
      {correcting && card ? (
        <CardCorrectionForm
          card={card}
          patientId={patientId}
          {...(correctFrom ? { initial: { values: correctFrom.values, note: 'The digital card’s details are typed in: check them, then save.' } } : {})}
          onCancel={() => {
            setCorrectFrom(null);
            setCorrecting(false);
            requestAnimationFrame(() => document.getElementById('correct-card-open')?.focus());
          }}
          onSaved={(created) => {
            if (correctFrom) void answerArrived(correctFrom.waitingId, 'used');
            setCorrectFrom(null);
            setCardId(created.id);
            setCorrecting(false);
            setCorrectedNote('Saved the corrected card: it is the one used for checks now. The card as it was is kept, listed as an earlier version.');
            detail.reload();
            requestAnimationFrame(() => document.getElementById('correct-card-open')?.focus());
          }}
        />
      ) : data.cards.length === 0 ? (
        <Panel>
          <EmptyState title="No insurance card yet." action={<Button variant="primary" onClick={() => navigate({ screen: 'intake', patientId })}>Add a card</Button>}>
            Capture the patient’s card in Intake, then check eligibility here.
          </EmptyState>
        </Panel>
      ) : (
        <form className="panel no-print" onSubmit={(event) => void submit(event)} aria-labelledby="check-form-title" noValidate>
          <div className="panel__header">
            <h2 id="check-form-title">Check eligibility</h2>
            {card && <SyncBadge state={card.sync?.state} />}
          </div>
          <div className="grid-2 grid-2--form-first">
            <div className="stack">
              {data.cards.length > 1 ? (
                <SelectField
                  id="check-card"
                  label="Card"
                  value={card?.id ?? ''}
                  onChange={setCardId}
                  options={data.cards.map((c) => ({ value: c.id, label: versionedCardLabel(c, payerName(c.insurance_carrier_ids[0]), versions.earlier.has(c.id)) }))}
                  error={errors.insurance_card_id}
                />
              ) : (
                card && (
                  <p>
                    <strong>Card:</strong> {cardLabel(card, payerName(card.insurance_carrier_ids[0]))}
                  </p>
                )
              )}
              {card && (
                <div className="row">
                  <Button
                    size="small"
                    id="correct-card-open"
                    onClick={() => {
                      setCorrectedNote(null);
                      setCorrecting(true);
                    }}
                  >
                    Correct this card
                  </Button>
                  {versions.earlier.has(card.id) && <span className="card-version-note">An earlier version: a newer card replaced it.</span>}
                </div>
              )}
              <SelectField
                id="check-provider"
                label="Provider"
                placeholder="Choose the provider"
                value={providerId}
                onChange={(value) => {
                  setProviderTouched(true);
                  setProviderId(value);
                }}
                options={providers.map((p) => ({ value: p.id, label: `${p.name} (NPI ${p.npi})` }))}
                error={errors.provider_id}
                hint={settings?.default_provider_id ? undefined : 'Set a default provider in Settings to have it chosen for you.'}
              />
              <Combobox
                id="check-payer"
                label="Payer"
                placeholder="A name, abbreviation (BCBS TX) or payer id"
                options={payerPicker.options}
                filter={payerPicker.filter}
                value={payerId}
                onChange={setPayerId}
                error={errors.clearinghouse_entity_id}
                emptyHint="Not listed? Find the patient’s coverage with a discovery (button below)."
              />
              <p className="small muted">
                Payer not listed, or not on the card?{' '}
                <Button size="small" onClick={() => navigate({ screen: 'discovery', patientId, cardId: card?.id })}>
                  Find coverage with a discovery
                </Button>
              </p>
              <Combobox
                id="check-service-type"
                label="Service type"
                options={SERVICE_OPTIONS}
                filter={filterServiceOptions}
                value={serviceType}
                onChange={(value) => {
                  setServiceTypeTouched(true);
                  setServiceType(value as ServiceType);
                }}
                error={errors.service_type}
                hint={`Common types come first; type words or an X12 code (e.g. 98) to search all 190.${settings?.default_service_type ? '' : ' Set the practice’s usual visit in Settings to have it chosen for you.'}`}
              />
            </div>
            {card && (
              <div className="stack">
                {card.front_photo_download_url && <PhotoThumb objectKey={objectKeyFromUrl(card.front_photo_download_url)} alt="Front of the card" className="photo-slot__preview" />}
                {card.back_photo_download_url && <PhotoThumb objectKey={objectKeyFromUrl(card.back_photo_download_url)} alt="Back of the card" className="photo-slot__preview" />}
              </div>
            )}
          </div>
          {runError && (
            <Notice tone="bad" live>
              {runError}
            </Notice>
          )}
          <div className="row">
            <Button type="submit" variant="primary" disabled={busy}>
              {busy ? 'Sending…' : 'Check eligibility'}
            </Button>
            {offline && <span className="muted">Offline: the check will be queued and sent when the connection is back.</span>}
          </div>
        </form>
      )}

      <p className="visually-hidden" role="status">
        {shown ? `Eligibility check: ${shown.status === 'pending' ? 'waiting for the answer' : shown.status === 'success' ? 'answered' : 'failed'}.` : ''}
      </p>
      <div id="check-result" tabIndex={-1} className="stack" data-check-id={shown?.id} data-status={shown?.status}>
        {shown && shownCard && versions.earlier.has(shownCard.id) && (
          <Notice tone="warn">
            This answer is for an earlier version of the card{shownCard.member_id ? ` (member id ${shownCard.member_id})` : ''}. Checks now use the current card
            {rerunCard?.member_id ? ` (member id ${rerunCard.member_id})` : ''}.
          </Notice>
        )}
        {shown && (
          <CheckResult
            check={shown}
            card={shownCard}
            rerunCard={rerunCard}
            payerName={payerName(shown.clearinghouse_entity_id)}
            providerName={providerName(shown.provider_id)}
            offline={offline}
            busy={busy}
            onRerun={(corrections) => void rerun(corrections)}
            onFocusField={focusField}
            onCorrectPatient={(field) => {
              setPatientNote(null);
              setPatientFix(field);
            }}
            onOpenSync={() => navigate({ screen: 'sync' })}
          />
        )}
      </div>

      {checks.length > 0 && (
        <Panel title="Earlier checks" titleId="history-title" className="no-print">
          <ol className="timeline">
            {checks.map((check) => (
              <li key={check.id} className="timeline__item">
                <span>
                  <strong>{serviceTypeLabel(check.service_type)}</strong> · {payerName(check.clearinghouse_entity_id) ?? 'Payer'}
                  {check.insurance_card_member_id && <span className="mono"> · {check.insurance_card_member_id}</span>} · {formatWhen(check.created_at)}
                  {check.source === 'system' && ' · found by discovery'}
                </span>
                <span className="row">
                  <CheckBadge check={check} />
                  <SyncBadge state={check.sync?.state} />
                  <Button size="small" onClick={() => setShownCheckId(check.id)} aria-pressed={shown?.id === check.id}>
                    {shown?.id === check.id ? 'Shown above' : 'Show'}
                  </Button>
                </span>
              </li>
            ))}
          </ol>
        </Panel>
      )}
    </div>
  );
}

interface CheckResultProps {
  check: Check;
  card: InsuranceCard | undefined;
  /** The card a re-run uses (corrections start from its fields). */
  rerunCard: InsuranceCard | undefined;
  payerName: string | undefined;
  providerName: string | undefined;
  offline: boolean;
  busy: boolean;
  onRerun(corrections: CardCorrection): void;
  onFocusField(field: FixableField): void;
  onCorrectPatient(field: keyof PatientFormValues): void;
  onOpenSync(): void;
}

function CheckResult({ check, card, rerunCard, payerName, providerName, offline, busy, onRerun, onFocusField, onCorrectPatient, onOpenSync }: CheckResultProps) {
  const bridge = useBridge();
  const summary = useMemo(
    () => (check.status === 'success' ? summarizeBenefits({ benefits: check.benefits ?? [], service_type: check.service_type, card_plan_name: card?.plan_name }) : null),
    [check, card?.plan_name],
  );
  const syncState = check.sync?.state;
  if (check.status === 'pending') {
    const queued = syncState === 'queued' || syncState === 'blocked';
    return (
      <Panel title="Eligibility check" titleId="pending-title">
        <div data-testid="check-pending" className="stack">
          {syncState === 'failed' || syncState === 'needs_review' ? (
            <Notice tone="bad">
              This check could not be sent: {check.sync?.error?.message ?? 'the service refused it'}.{' '}
              <Button size="small" onClick={onOpenSync}>
                Open Sync to retry
              </Button>
            </Notice>
          ) : queued && offline ? (
            <Notice tone="warn">
              <strong>Queued.</strong> There is no connection to the eligibility service. The check is saved and will be sent when the connection is back; the answer will appear here.
            </Notice>
          ) : (
            <Loading label={`Checking with ${payerName ?? 'the payer'}… ${queued ? '(queued to send)' : ''}`} />
          )}
          <p className="small muted">
            {serviceTypeLabel(check.service_type)} · started {formatWhen(check.created_at)} <SyncBadge state={syncState} />
          </p>
        </div>
      </Panel>
    );
  }
  if (check.status === 'failure') {
    return <FailureView check={check} card={rerunCard} busy={busy} onRerun={onRerun} onFocusField={onFocusField} onCorrectPatient={onCorrectPatient} />;
  }
  return (
    <>
      {summary && <SummaryView summary={summary} check={check} payerName={payerName} providerName={providerName} memberId={card?.member_id ?? check.insurance_card_member_id} />}
      <div className="row no-print">
        <Button
          onClick={() => {
            // Who printed which record is audited; the print itself never waits on it.
            void bridge.audit.record({ action: 'print', record_id: check.id });
            window.print();
          }}
        >
          Print or save as PDF
        </Button>
      </div>
      <BenefitsTable benefits={check.benefits ?? []} asked={check.service_type} />
    </>
  );
}
