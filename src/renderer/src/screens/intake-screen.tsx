import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import type { BarcodeReading, ClearinghouseEntity, ExtractedFields, InboxItem, LicenceDetails } from '../../../shared/contract';
import type { DeskPatientRow } from '../../../shared/bridge/desk-contract';
import { formMessage, plainFieldErrors, type FieldMessages } from '../forms/field-errors';
import { formatDob, patientName } from '../format';
import { DuplicateOffer } from '../intake/duplicate-offer';
import { InboxPicker } from '../intake/inbox-picker';
import type { DuplicateCandidate } from '../../../shared/bridge/practice-view';
import {
  CARD_FIELD_LABELS,
  CARD_TEXT_FIELDS,
  PATIENT_FIELD_LABELS,
  cardCreateInput,
  cardFieldErrors,
  patientCreateInput,
  prefillCard,
  type ReadPayer,
  type CardFormField,
  type CardTextField,
} from '../intake/intake-form';
import { draftHasContent, emptyDraft, useDraftField, useIntakeDraft, type ChosenPatient } from '../intake/intake-draft';
import { PhotoSlot } from '../intake/photo-slot';
import { CardPayerField } from '../intake/card-payer-field';
import { memberNamesPatient, splitMemberName } from '../intake/member-name';
import { SaveQuestion } from '../intake/save-question';
import { readingFailureSentence } from '../intake/reading-failure';
import { saveAfterReading } from '../intake/save-after-reading';
import { useKeyboardWedge } from '../intake/keyboard-wedge';
import { LicenceCheck, LicenceOffer, barcodeNotice, licencePatient, readingAsFields, SOURCE_WORDS, WAITING_NOTICE, type FieldSource } from '../intake/barcode-reading';
import { ArrivedCardOffer, arrivedCardValues } from '../digital-cards/arrived-card';
import { useBridge } from '../bridge/bridge-provider';
import { useNavigation } from '../state/navigation';
import { useReferenceData } from '../state/reference-data';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { Loading, Notice, Panel } from '../ui/notice';
import { PatientSearch } from '../ui/patient-search';
import { ScreenTitle } from '../ui/screen-title';
import { DateOfBirthField } from '../ui/date-of-birth-field';
import { ConfirmDialog } from '../ui/confirm-dialog';

const MISSING_MEMBER_ID = 'Not found on the card: type it in from the card.';

/** What Save asks before saving. */
type SaveAsk = { kind: 'marks' } | { kind: 'member'; memberName: string; patient: ChosenPatient };

const CARD_HINTS: Partial<Record<CardFormField, string>> = {
  member_id: 'Exactly as printed, letters and digits.',
};

/** Find or register the patient, capture the card, check what was read, save. */
export function IntakeScreen({ patientId }: { patientId?: string }) {
  const { navigate } = useNavigation();
  const bridge = useBridge();
  // The draft outlives this screen (intake-draft.tsx): leaving Intake keeps the photos and
  // what was read or typed until the card is saved or discarded.
  const store = useIntakeDraft();
  // Opened with nothing worth keeping: a new intake, for the route's patient or for no one.
  const [restored, setRestored] = useState(() => draftHasContent(store.draft));
  useLayoutEffect(() => {
    if (!restored) store.setDraft(emptyDraft(patientId ? 'existing' : 'new'));
    // Once, on opening: later changes of the draft are this screen's own.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const [mode, setMode] = useDraftField(store, 'mode');
  const [chosen, setChosen] = useDraftField(store, 'chosen');
  const [patient, setPatient] = useDraftField(store, 'patient');
  const [patientErrors, setPatientErrors] = useState<FieldMessages>({});
  // Once registered, saving again (after fixing a card field) must not register a twin.
  const [created, setCreated] = useDraftField(store, 'created');
  // One patient, one record: who may already be this person, asked before registering.
  const [duplicates, setDuplicates] = useState<DuplicateCandidate[] | null>(null);
  const [notDuplicate, setNotDuplicate] = useDraftField(store, 'notDuplicate');

  const [front, setFront] = useDraftField(store, 'front');
  const [back, setBack] = useDraftField(store, 'back');
  const [inboxItem, setInboxItem] = useDraftField(store, 'inboxItem');

  const [card, setCard] = useDraftField(store, 'card');
  const [touched, setTouched] = useDraftField(store, 'touched');
  const [review, setReview] = useDraftField(store, 'review');
  const [missing, setMissing] = useDraftField(store, 'missing');
  const [cardErrors, setCardErrors] = useState<FieldMessages>({});
  const [reading, setReading] = useDraftField(store, 'reading');
  const [saving, setSaving] = useState(false);
  // Save pressed while the photo was still being saved or read: it goes on when the reading ends.
  const [queued, setQueued] = useState(false);
  const [uploading, setUploading] = useState({ front: false, back: false });
  const frontBusy = useCallback((busy: boolean) => setUploading((u) => (u.front === busy ? u : { ...u, front: busy })), []);
  const backBusy = useCallback((busy: boolean) => setUploading((u) => (u.back === busy ? u : { ...u, back: busy })), []);
  // The member name offered as the patient's, once per name: declining is remembered.
  const [declinedName, setDeclinedName] = useDraftField(store, 'declinedName');
  const [waitingLink, setWaitingLink] = useDraftField(store, 'waitingLink');
  const [formError, setFormError] = useState<string | null>(null);
  const [question, setQuestion] = useState<SaveAsk | null>(null);

  // Every payer the desk knows (the directory runs to over a thousand), as on Eligibility.
  const entityList: ClearinghouseEntity[] = useReferenceData().entities;

  // The patient comes from the route or from a scan: a one-off read into the form's state.
  // A kept draft is not re-pointed at another patient behind the person's back: they are
  // offered to start over for the route's patient instead.
  const [routePatient, setRoutePatient] = useState<ChosenPatient | null>(null);
  useEffect(() => {
    if (!patientId) return;
    void bridge.patients.get({ id: patientId }).then((result) => result.ok && (restored ? setRoutePatient(result.value) : setChosen(result.value)));
  }, [bridge, patientId, restored, setChosen]);
  const [discarding, setDiscarding] = useState(false);
  const startOver = (forPatient: ChosenPatient | null) => {
    store.setDraft({ ...emptyDraft(forPatient ? 'existing' : 'new'), chosen: forPatient });
    setRoutePatient(null);
    setRestored(false);
    setFormError(null);
    setPatientErrors({});
    setCardErrors({});
    setDuplicates(null);
  };

  // The reading answers later: it must fill in the form as it is then, not as it was asked.
  const latest = useRef({ card, touched, entityList });
  latest.current = { card, touched, entityList };
  // Which fields a barcode or a digital card filled: the desk sees where each value came from.
  const [sources, setSources] = useState<Partial<Record<CardFormField, FieldSource>>>({});
  // A licence's details, offered for the new patient (never filled silently); and what a scan said.
  const [licence, setLicence] = useState<LicenceDetails | null>(null);
  const [scanNotice, setScanNotice] = useState<string | null>(null);
  const applyExtraction = (fields: ExtractedFields): { review: number; missing: boolean; payer?: ReadPayer } => {
    const { card: values, touched: typed, entityList: entitiesNow } = latest.current;
    const filled = prefillCard({ values, touched: typed, fields, entities: entitiesNow });
    const from: Partial<Record<CardFormField, FieldSource>> = {};
    for (const [name, field] of Object.entries(fields)) if (field?.source && !typed.has(name as CardFormField)) from[name as CardFormField] = field.source;
    setSources((before) => ({ ...before, ...from }));
    setCard(filled.values);
    setReview(filled.review);
    setMissing(filled.missing);
    return { review: filled.review.size, missing: filled.missing.size > 0, ...(filled.payer ? { payer: filled.payer } : {}) };
  };
  const applyLatest = useRef(applyExtraction);
  applyLatest.current = applyExtraction;

  // Read the card whenever its photos change (not for an inbox scan: that was read on arrival).
  const frontKey = front?.object_key;
  const backKey = back?.object_key;
  const readKey = frontKey && !inboxItem ? `${frontKey}|${backKey ?? ''}` : null;
  const readingNow = useRef(reading);
  readingNow.current = reading;
  useEffect(() => {
    if (!frontKey || inboxItem) return;
    let current = true;
    const key = `${frontKey}|${backKey ?? ''}`;
    // Read before the person left Intake and came back: the draft has it already.
    const before = readingNow.current;
    if ((before.state === 'done' || before.state === 'failed') && before.key === key) return;
    setReading({ state: 'reading', key });
    void bridge.extractions.preview({ front_photo_object_key: frontKey, ...(backKey ? { back_photo_object_key: backKey } : {}) }).then((result) => {
      if (!current) return;
      if (!result.ok) {
        setReading({ state: 'failed', key, message: result.error.code === 'internal_error' ? readingFailureSentence('engine_failed') : result.error.message });
      } else if (result.value.status === 'failure' || !result.value.fields) {
        setReading({ state: 'failed', key, message: readingFailureSentence(result.value.failure_reason) });
      } else if (result.value.barcodes?.some((b) => b.kind === 'licence') && Object.keys(result.value.fields).length === 0) {
        // A licence, not a card: its details are offered for the patient; the card is still to photograph.
        for (const b of result.value.barcodes) takeBarcode.current(b);
        setReading({ state: 'failed', key, message: 'That photo is a driver’s licence or ID: its details are offered above. Photograph the insurance card for the card’s fields.' });
      } else {
        // A digital card's fields are in the reading already; a link that waits is still to be kept.
        for (const b of result.value.barcodes ?? []) if ((b.kind !== 'payer' && b.kind !== 'digital_card') || b.waiting_id) takeBarcode.current(b);
        setReading({ state: 'done', key, ...applyLatest.current(result.value.fields) });
      }
    });
    return () => {
      current = false;
    };
  }, [bridge, frontKey, backKey, inboxItem, setReading]);

  /** A barcode read from a photo or typed by a scanner: a licence is offered, a card's fields fill the form, anything else is said. */
  const takeBarcodeNow = (reading: BarcodeReading) => {
    setScanNotice(barcodeNotice(reading));
    if (reading.kind === 'licence' && reading.licence) setLicence(reading.licence);
    if (reading.status === 'waiting' && reading.waiting_id) setWaitingLink(reading.waiting_id);
    const fields = readingAsFields(reading);
    if (fields) setReading({ state: 'done', key: `scan:${Date.now()}`, ...applyExtraction(fields) });
  };
  const takeBarcode = useRef(takeBarcodeNow);
  takeBarcode.current = takeBarcodeNow;
  useKeyboardWedge((text) => {
    void bridge.barcodes.read({ text }).then((result) => (result.ok ? takeBarcode.current(result.value) : setScanNotice(result.error.message)));
  });

  // The waiting link arriving while the draft is open: its fields are offered here, not filled.
  const [arrivedReading, setArrivedReading] = useState<BarcodeReading | null>(null);
  useEffect(() => {
    setArrivedReading(null);
    if (!waitingLink) return;
    let current = true;
    const look = () =>
      void bridge.digitalCards.waitingLink({ id: waitingLink }).then((result) => {
        if (current && result.ok && result.value.status !== 'waiting') setArrivedReading(result.value);
      });
    // Arrived while the desk was on another screen, or arriving now.
    look();
    const stop = bridge.on('records.changed', (change) => change.collection === 'digital_cards' && change.id === waitingLink && look());
    return () => {
      current = false;
      stop();
    };
  }, [bridge, waitingLink]);
  const arrived = arrivedReading ? arrivedCardValues(card, arrivedReading, entityList) : null;
  const answerArrived = (answer: 'used' | 'declined') => {
    if (!waitingLink) return;
    if (answer === 'used' && arrived) {
      setCard(arrived.values);
      setSources((before) => ({ ...before, ...Object.fromEntries(arrived.changed.map((field) => [field, 'digital_card' as const])) }));
      const without = (set: Set<CardFormField>) => new Set([...set].filter((field) => !arrived.changed.includes(field)));
      setReview(without);
      setMissing(without);
    }
    void bridge.digitalCards.answerWaitingLink({ id: waitingLink, answer });
    setWaitingLink(null);
  };

  const acceptLicence = () => {
    if (!licence) return;
    setMode('new');
    setPatient((p) => ({ ...p, ...licencePatient(licence) }));
    setPatientErrors(({ first_name: _f, last_name: _l, date_of_birth: _d, ...rest }) => rest);
    setLicence(null);
  };

  const useInboxItem = (item: InboxItem) => {
    setInboxItem(item);
    setFront({ object_key: item.front_photo_object_key });
    setBack(item.back_photo_object_key ? { object_key: item.back_photo_object_key } : null);
    const key = `inbox:${item.id}`;
    if (item.extraction_fields) setReading({ state: 'done', key, ...applyExtraction(item.extraction_fields) });
    else if (item.extraction_status === 'failure') setReading({ state: 'failed', key, message: readingFailureSentence(item.extraction_failure_reason) });
    else setReading({ state: 'idle' });
    if (item.patient_id) {
      setMode('existing');
      void bridge.patients.get({ id: item.patient_id }).then((result) => result.ok && setChosen(result.value));
    } else if (item.patient_first_name || item.patient_last_name) {
      setMode('new');
      setPatient((values) => ({
        first_name: values.first_name || item.patient_first_name || '',
        last_name: values.last_name || item.patient_last_name || '',
        date_of_birth: values.date_of_birth || (item.patient_date_of_birth ? formatDob(item.patient_date_of_birth) : ''),
      }));
    }
  };

  const setCardField = (field: CardFormField, value: string) => {
    setCard((values) => ({ ...values, [field]: value }));
    setTouched((set) => new Set(set).add(field));
    const without = (set: Set<CardFormField>) => {
      if (!set.has(field)) return set;
      const next = new Set(set);
      next.delete(field);
      return next;
    };
    setReview(without);
    setMissing(without);
    setSources(({ [field]: _s, ...rest }) => rest);
    setCardErrors(({ [field]: _, ...rest }) => rest);
    setQuestion(null);
  };

  // Where the person goes to check the card: the member id to type, else the first marked field.
  const firstMarked = (): CardFormField | undefined => [...missing, ...(['payer_id', ...CARD_TEXT_FIELDS] as const).filter((f) => review.has(f))][0];

  // Still saving or reading the photos: a save now would store the card without what is read.
  const readPending = uploading.front || uploading.back || (readKey !== null && !((reading.state === 'done' || reading.state === 'failed') && reading.key === readKey));

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (saving || queued) return;
    setFormError(null);
    if (readPending) setQueued(true);
    else void submit();
  };

  // The queued save, once the reading has ended and its values are in the form.
  const submitRef = useRef<() => Promise<void>>(null);
  useEffect(() => {
    if (!queued || readPending) return;
    setQueued(false);
    const end = reading.state === 'failed' ? reading : { state: 'done' as const, review: review.size, missingMemberId: missing.size > 0 };
    const next = saveAfterReading(end, { memberId: card.member_id });
    if (next.go) {
      void submitRef.current?.();
      return;
    }
    setFormError(next.message);
    // Where the person goes next: the member id to type, else the first field to check.
    const first = end.state === 'failed' ? 'member_id' : firstMarked();
    if (first) document.getElementById(first)?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- firstMarked reads review and missing, both listed
  }, [queued, readPending, reading, review, missing, card.member_id]);

  /** `answers`: what the person said to Save's questions (marks checked; the patient is a dependent on the card). */
  const submit = async (answers: { marksChecked?: boolean; dependent?: boolean } = {}) => {
    if (saving) return;
    setFormError(null);
    setQuestion(null);
    setSaving(true);
    try {
      let owner = mode === 'existing' ? chosen : created;
      if (mode === 'existing' && !owner) {
        setFormError('Choose the patient first: search for them above, or switch to “New patient”.');
        return;
      }
      const cardProblems = cardFieldErrors(card);
      const checked = owner ? null : patientCreateInput(patient);
      if (Object.keys(cardProblems).length > 0 || (checked && !checked.ok)) {
        setCardErrors(cardProblems);
        setPatientErrors(checked && !checked.ok ? checked.errors : {});
        setFormError('Some fields need attention: see the messages below each one.');
        return;
      }
      // Fields still marked "Check this" were never looked at, as far as the desk knows: ask.
      if (review.size > 0 && !answers.marksChecked) {
        setQuestion({ kind: 'marks' });
        return;
      }
      // A card printed for someone else is not filed under the chosen patient without asking.
      const memberName = card.member_name.trim();
      if (mode === 'existing' && owner && !answers.dependent && !memberNamesPatient(memberName, owner)) {
        setQuestion({ kind: 'member', memberName, patient: owner });
        return;
      }
      if (!owner) {
        if (!checked?.ok) return;
        if (!notDuplicate) {
          const memberId = card.member_id.trim();
          const found = await bridge.patients.findDuplicates({ ...checked.input, ...(memberId ? { member_id: memberId } : {}) });
          if (found.ok && found.value.data.length > 0) {
            setDuplicates(found.value.data);
            setFormError('This person may already be registered: use the existing patient above, or say they are someone else.');
            return;
          }
        }
        const result = await bridge.patients.create(checked.input);
        if (!result.ok) {
          setPatientErrors(plainFieldErrors(result.error, PATIENT_FIELD_LABELS));
          setFormError(formMessage(result.error));
          return;
        }
        owner = result.value;
        setCreated(owner);
        setPatientErrors({});
      }
      const input = cardCreateInput(owner.id, card, { front: front?.object_key, back: back?.object_key });
      if (answers.dependent) input.dependent_names = [`${owner.first_name} ${owner.last_name}`];
      const result = await bridge.cards.create(input);
      if (!result.ok) {
        setCardErrors(plainFieldErrors(result.error, CARD_FIELD_LABELS));
        setFormError(formMessage(result.error));
        return;
      }
      if (inboxItem) await bridge.inbox.resolve({ id: inboxItem.id, state: 'used', insurance_card_id: result.value.id });
      // Saved with what the desk had: the digital card's fields are offered on the patient's screen when it arrives.
      if (waitingLink) await bridge.digitalCards.tieWaitingLink({ id: waitingLink, card_id: result.value.id });
      // Saved: the next intake starts empty, with no patient chosen.
      store.setDraft(emptyDraft());
      navigate({ screen: 'eligibility', patientId: owner.id, cardId: result.value.id });
    } finally {
      setSaving(false);
    }
  };

  submitRef.current = submit;

  const cardField = (field: CardTextField) => (
    <TextField
      key={field}
      id={field}
      label={CARD_FIELD_LABELS[field]}
      autoComplete="off"
      value={card[field]}
      onChange={(v) => setCardField(field, v)}
      error={cardErrors[field]}
      hint={sources[field] ? SOURCE_WORDS[sources[field]] : CARD_HINTS[field]}
      review={missing.has(field) ? MISSING_MEMBER_ID : review.has(field) ? 'Check this against the card: it was hard to read.' : undefined}
    />
  );

  const owner = mode === 'existing' ? chosen : created;
  // The card's member as the patient's name: offered, never filled in silently (the member
  // may be the subscriber, not the patient in front of the desk).
  const offeredName = mode === 'new' && !created && !duplicates && !patient.first_name.trim() && !patient.last_name.trim() && card.member_name.trim() !== declinedName ? splitMemberName(card.member_name) : null;
  const acceptName = () => {
    if (!offeredName) return;
    setPatient((p) => ({ ...p, first_name: offeredName.first, last_name: offeredName.last }));
    setPatientErrors(({ first_name: _f, last_name: _l, ...rest }) => rest);
    // The offer goes away with the names filled in: the date of birth is what is left to type.
    requestAnimationFrame(() => document.getElementById('date_of_birth')?.focus());
  };
  return (
    <form className="screen" onSubmit={(event) => void save(event)} noValidate aria-labelledby="intake-title">
      <div className="screen__header">
        <ScreenTitle subtitle="Register the patient and their insurance card. Everything is saved on this computer first.">
          <span id="intake-title">Intake</span>
        </ScreenTitle>
      </div>
      {restored && routePatient && routePatient.id !== owner?.id ? (
        <div className="notice notice--warn row" data-testid="intake-kept-draft">
          <span>
            <strong>A card you started is not saved yet</strong>
            {owner ? ` (for ${patientName(owner)})` : ''}: it is kept below. Save it, or start over for {patientName(routePatient)}.
          </span>
          <Button size="small" onClick={() => startOver(routePatient)}>
            Discard it and start a card for {patientName(routePatient)}
          </Button>
        </div>
      ) : (
        restored && (
          <div className="notice notice--info" data-testid="intake-kept-draft">
            The card you started is kept as you left it: save it, or discard it.
          </div>
        )
      )}

      <Panel title="Patient" titleId="intake-patient">
        <fieldset className="radio-row" disabled={!!created}>
          <legend className="visually-hidden">New or existing patient</legend>
          <label className="choice">
            <input type="radio" name="patient-mode" checked={mode === 'new'} onChange={() => setMode('new')} /> New patient
          </label>
          <label className="choice">
            <input type="radio" name="patient-mode" checked={mode === 'existing'} onChange={() => setMode('existing')} /> Existing patient
          </label>
        </fieldset>
        {licence && !owner && <LicenceOffer licence={licence} onUse={acceptLicence} onDecline={() => setLicence(null)} />}
        {licence && owner && <LicenceCheck licence={licence} patient={owner} onDismiss={() => setLicence(null)} />}
        {owner ? (
          <div className="row">
            <Notice tone="ok">
              {created ? 'Registered: ' : 'Patient: '}
              <strong>{patientName(owner)}</strong>, born {formatDob(owner.date_of_birth)}
            </Notice>
            {mode === 'existing' && (
              <Button size="small" onClick={() => setChosen(null)}>
                Choose someone else
              </Button>
            )}
          </div>
        ) : duplicates && mode === 'new' ? (
          <DuplicateOffer
            candidates={duplicates}
            onUse={(c) => {
              setMode('existing');
              setChosen({ id: c.patient_id, first_name: c.first_name, last_name: c.last_name, date_of_birth: c.date_of_birth });
              setDuplicates(null);
              setFormError(null);
            }}
            onNew={() => {
              setNotDuplicate(true);
              setDuplicates(null);
              setFormError(null);
            }}
          />
        ) : mode === 'existing' ? (
          <PatientSearch id="intake-patient-search" label="Find the patient" onPick={(row: DeskPatientRow) => setChosen({ id: row.patient_id, first_name: row.first_name, last_name: row.last_name, date_of_birth: row.date_of_birth })} />
        ) : (
          <div className="stack">
            {offeredName && (
              <div className="name-offer" role="group" aria-labelledby="name-offer-text">
                <p id="name-offer-text">
                  The card’s member is <strong>{card.member_name.trim()}</strong>. Is that the patient?
                </p>
                <div className="row">
                  <Button size="small" variant="primary" onClick={acceptName}>
                    Use “{offeredName.first} {offeredName.last}” as the patient’s name
                  </Button>
                  <Button size="small" onClick={() => setDeclinedName(card.member_name.trim())}>
                    No, someone else
                  </Button>
                </div>
              </div>
            )}
            <div className="grid-3">
              <TextField id="first_name" label="First name" autoComplete="off" value={patient.first_name} error={patientErrors.first_name} onChange={(v) => setPatient((p) => ({ ...p, first_name: v }))} />
              <TextField id="last_name" label="Last name" autoComplete="off" value={patient.last_name} error={patientErrors.last_name} onChange={(v) => setPatient((p) => ({ ...p, last_name: v }))} />
              <DateOfBirthField id="date_of_birth" value={patient.date_of_birth} error={patientErrors.date_of_birth} onChange={(v) => setPatient((p) => ({ ...p, date_of_birth: v }))} />
            </div>
          </div>
        )}
      </Panel>

      {scanNotice && (
        <Notice tone="info" live>
          {scanNotice}
        </Notice>
      )}
      <InboxPicker chosenId={inboxItem?.id ?? null} onUse={useInboxItem} />

      {/* The photo beside what was read from it, so each field is checked against the card at a glance. */}
      <div className="intake-card">
        <Panel title="Card photos" titleId="intake-photos" className="intake-card__photos">
          <PhotoSlot side="front" value={front} onBusyChange={frontBusy} onChange={(v) => { setInboxItem(null); setFront(v); }} />
          <PhotoSlot side="back" value={back} onBusyChange={backBusy} onChange={(v) => { setInboxItem(null); setBack(v); }} />
        </Panel>

        <Panel title="Card details" titleId="intake-card" className="intake-card__fields">
          {/* Next to the fields it fills: where the eye already is. */}
          {reading.state === 'reading' && <Loading label="Reading the card…" />}
          {waitingLink && arrivedReading && arrived ? (
            <ArrivedCardOffer reading={arrivedReading} arrived={arrived} payerName={(id) => entityList.find((e) => e.id === id)?.name ?? id} onUse={() => answerArrived('used')} onDecline={() => answerArrived('declined')} />
          ) : waitingLink && arrivedReading ? (
            <Notice tone="warn" live>
              The digital card could not be read{arrivedReading.reason ? `: ${arrivedReading.reason}` : '.'} Save the card with what you have.
            </Notice>
          ) : (
            waitingLink && (
              <Notice tone="info" live>
                <span data-testid="digital-card-waiting">{WAITING_NOTICE}</span>
              </Notice>
            )
          )}
          {/* The marks as they are now: each field checked takes one off the count. */}
          {reading.state === 'done' && (
            <Notice tone={review.size > 0 || missing.size > 0 ? 'warn' : 'ok'} live>
              {readingSummary(review.size, missing.size > 0)}
            </Notice>
          )}
          {reading.state === 'failed' && <Notice tone="warn" live>{reading.message}</Notice>}
          <CardPayerField
            id="payer_id"
            entities={entityList}
            value={card.payer_id}
            onChange={(v) => setCardField('payer_id', v)}
            error={cardErrors.insurance_carrier_ids ?? cardErrors.payer_id}
            review={review.has('payer_id') ? 'Check this: the payer on the card was not clear.' : undefined}
            evidence={reading.state === 'done' && reading.payer?.id === card.payer_id ? reading.payer.evidence : undefined}
          />
          <div className="card-fields">{CARD_TEXT_FIELDS.map(cardField)}</div>
          {(cardErrors.front_photo_object_key || cardErrors.back_photo_object_key || cardErrors.patient_id) && (
            <Notice tone="bad">{cardErrors.front_photo_object_key ?? cardErrors.back_photo_object_key ?? cardErrors.patient_id}</Notice>
          )}
        </Panel>
      </div>

      {question?.kind === 'marks' && (
        <SaveQuestion
          id="save-question-marks"
          title={`${review.size === 1 ? '1 field is' : `${review.size} fields are`} still marked “Check this”.`}
          actions={
            <>
              <Button
                variant="primary"
                onClick={() => {
                  setQuestion(null);
                  document.getElementById(firstMarked() ?? 'member_id')?.focus();
                }}
              >
                Check {review.size === 1 ? 'it' : 'them'} first
              </Button>
              <Button onClick={() => void submit({ marksChecked: true })}>{review.size === 1 ? 'It matches' : 'They match'} the card: save</Button>
            </>
          }
        >
          {review.size === 1 ? 'It was' : 'They were'} hard to read: compare {review.size === 1 ? 'it' : 'each'} with the card before saving.
        </SaveQuestion>
      )}
      {question?.kind === 'member' && question.patient.id === owner?.id && (
        <SaveQuestion
          id="save-question-member"
          title={`The card’s member is ${question.memberName}, not ${patientName(question.patient)}.`}
          actions={
            <>
              <Button variant="primary" onClick={() => void submit({ marksChecked: true, dependent: true })}>
                {question.patient.first_name} is a dependent on this card: save
              </Button>
              <Button
                onClick={() => {
                  setQuestion(null);
                  setChosen(null);
                  requestAnimationFrame(() => document.getElementById('intake-patient-search')?.focus());
                }}
              >
                Choose another patient
              </Button>
            </>
          }
        >
          Is {question.patient.first_name} covered as a dependent of the subscriber? If the member name was read wrong, correct it above and save again.
        </SaveQuestion>
      )}
      {formError && (
        <Notice tone="bad" live>
          {formError}
        </Notice>
      )}
      <div className="row row--end">
        {queued && <Loading label="Saving as soon as the card is read: what you typed is kept, and what is read fills the blank fields." />}
        <Button
          onClick={() => {
            if (draftHasContent(store.draft)) setDiscarding(true);
            else {
              startOver(null);
              navigate({ screen: 'today' });
            }
          }}
        >
          {draftHasContent(store.draft) ? 'Discard this card…' : 'Cancel'}
        </Button>
        <Button type="submit" variant="primary" disabled={saving}>
          {queued ? 'Waiting for the reading…' : saving ? 'Saving…' : 'Save card'}
        </Button>
      </div>
      <ConfirmDialog
        open={discarding}
        title="Discard this card?"
        message={`The photos and everything read or typed for this card are dropped.${created ? ` ${patientName(created)} stays registered.` : ''}`}
        confirmLabel="Discard the card"
        onConfirm={() => {
          setDiscarding(false);
          startOver(null);
          navigate({ screen: 'today' });
        }}
        onCancel={() => setDiscarding(false)}
      />
    </form>
  );
}

function readingSummary(review: number, missing: boolean): string {
  if (review === 0 && !missing) return 'Read the card: check the fields below against it before saving.';
  const parts: string[] = [];
  if (missing) parts.push('its member id was not found: type it in');
  if (review > 0) parts.push(`${review} ${review === 1 ? 'field was' : 'fields were'} hard to read: check the ones marked against the card`);
  return `Read the card, but ${parts.join(', and ')}.`;
}
