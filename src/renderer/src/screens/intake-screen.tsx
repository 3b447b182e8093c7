import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ClearinghouseEntity, ExtractedFields, InboxItem, Patient } from '../../../shared/contract';
import type { DeskPatientRow } from '../../../shared/bridge/desk-contract';
import { formMessage, plainFieldErrors, type FieldMessages } from '../forms/field-errors';
import { formatDob, patientName } from '../format';
import { DuplicateOffer } from '../intake/duplicate-offer';
import { InboxPicker } from '../intake/inbox-picker';
import type { DuplicateCandidate } from '../../../shared/bridge/practice-view';
import {
  CARD_FIELD_LABELS,
  CARD_TEXT_FIELDS,
  EMPTY_CARD,
  EMPTY_PATIENT,
  PATIENT_FIELD_LABELS,
  cardCreateInput,
  cardFieldErrors,
  patientCreateInput,
  prefillCard,
  type CardFormField,
  type CardTextField,
  type CardFormValues,
  type PatientFormValues,
} from '../intake/intake-form';
import { PhotoSlot, type PhotoValue } from '../intake/photo-slot';
import { useBridge } from '../bridge/bridge-provider';
import { useNavigation } from '../state/navigation';
import { useReferenceData } from '../state/reference-data';
import { Button } from '../ui/button';
import { usePayerPicker } from '../payers/use-payer-picker';
import { Combobox } from '../ui/combobox';
import { TextField } from '../ui/field';
import { Loading, Notice, Panel } from '../ui/notice';
import { PatientSearch } from '../ui/patient-search';
import { ScreenTitle } from '../ui/screen-title';
import { DateOfBirthField } from '../ui/date-of-birth-field';

type Reading = { state: 'idle' } | { state: 'reading' } | { state: 'done'; review: number } | { state: 'failed'; message: string };

type ChosenPatient = Pick<Patient, 'id' | 'first_name' | 'last_name' | 'date_of_birth'>;

const CARD_HINTS: Partial<Record<CardFormField, string>> = {
  member_id: 'Exactly as printed, letters and digits.',
};

/** Find or register the patient, capture the card, check what was read, save. */
export function IntakeScreen({ patientId }: { patientId?: string }) {
  const { navigate } = useNavigation();
  const bridge = useBridge();
  const [mode, setMode] = useState<'new' | 'existing'>(patientId ? 'existing' : 'new');
  const [chosen, setChosen] = useState<ChosenPatient | null>(null);
  const [patient, setPatient] = useState<PatientFormValues>(EMPTY_PATIENT);
  const [patientErrors, setPatientErrors] = useState<FieldMessages>({});
  // Once registered, saving again (after fixing a card field) must not register a twin.
  const [created, setCreated] = useState<ChosenPatient | null>(null);
  // One patient, one record: who may already be this person, asked before registering.
  const [duplicates, setDuplicates] = useState<DuplicateCandidate[] | null>(null);
  const [notDuplicate, setNotDuplicate] = useState(false);

  const [front, setFront] = useState<PhotoValue | null>(null);
  const [back, setBack] = useState<PhotoValue | null>(null);
  const [inboxItem, setInboxItem] = useState<InboxItem | null>(null);

  const [card, setCard] = useState<CardFormValues>(EMPTY_CARD);
  const [touched, setTouched] = useState<Set<CardFormField>>(new Set());
  const [review, setReview] = useState<Set<CardFormField>>(new Set());
  const [cardErrors, setCardErrors] = useState<FieldMessages>({});
  const [reading, setReading] = useState<Reading>({ state: 'idle' });
  const [saving, setSaving] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);

  // Every payer the desk knows (the directory runs to over a thousand), as on Eligibility.
  const entityList: ClearinghouseEntity[] = useReferenceData().entities;
  const payerPicker = usePayerPicker(entityList);

  // The patient comes from the route or from a scan: a one-off read into the form's state.
  useEffect(() => {
    if (!patientId) return;
    void bridge.patients.get({ id: patientId }).then((result) => result.ok && setChosen(result.value));
  }, [bridge, patientId]);

  // The reading answers later: it must fill in the form as it is then, not as it was asked.
  const latest = useRef({ card, touched, entityList });
  latest.current = { card, touched, entityList };
  const applyExtraction = (fields: ExtractedFields): number => {
    const { card: values, touched: typed, entityList: entitiesNow } = latest.current;
    const filled = prefillCard({ values, touched: typed, fields, entities: entitiesNow });
    setCard(filled.values);
    setReview(filled.review);
    return filled.review.size;
  };

  // Read the card whenever its photos change (not for an inbox scan: that was read on arrival).
  const frontKey = front?.object_key;
  const backKey = back?.object_key;
  useEffect(() => {
    if (!frontKey || inboxItem) return;
    let current = true;
    setReading({ state: 'reading' });
    void bridge.extractions.preview({ front_photo_object_key: frontKey, ...(backKey ? { back_photo_object_key: backKey } : {}) }).then((result) => {
      if (!current) return;
      if (!result.ok) {
        setReading({ state: 'failed', message: result.error.code === 'internal_error' ? 'Reading cards is not available right now: type the fields in from the card.' : result.error.message });
      } else if (result.value.status === 'failure' || !result.value.fields) {
        setReading({ state: 'failed', message: 'The card could not be read: type the fields in from the card.' });
      } else {
        setReading({ state: 'done', review: applyExtraction(result.value.fields) });
      }
    });
    return () => {
      current = false;
    };
  }, [bridge, frontKey, backKey, inboxItem]);

  const useInboxItem = (item: InboxItem) => {
    setInboxItem(item);
    setFront({ object_key: item.front_photo_object_key });
    setBack(item.back_photo_object_key ? { object_key: item.back_photo_object_key } : null);
    if (item.extraction_fields) setReading({ state: 'done', review: applyExtraction(item.extraction_fields) });
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
    setReview((set) => {
      const next = new Set(set);
      next.delete(field);
      return next;
    });
    setCardErrors(({ [field]: _, ...rest }) => rest);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    setFormError(null);
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
      const result = await bridge.cards.create(cardCreateInput(owner.id, card, { front: front?.object_key, back: back?.object_key }));
      if (!result.ok) {
        setCardErrors(plainFieldErrors(result.error, CARD_FIELD_LABELS));
        setFormError(formMessage(result.error));
        return;
      }
      if (inboxItem) await bridge.inbox.resolve({ id: inboxItem.id, state: 'used', insurance_card_id: result.value.id });
      navigate({ screen: 'eligibility', patientId: owner.id, cardId: result.value.id });
    } finally {
      setSaving(false);
    }
  };

  const cardField = (field: CardTextField) => (
    <TextField
      key={field}
      id={field}
      label={CARD_FIELD_LABELS[field]}
      autoComplete="off"
      value={card[field]}
      onChange={(v) => setCardField(field, v)}
      error={cardErrors[field]}
      hint={CARD_HINTS[field]}
      review={review.has(field) ? 'Check this against the card: it was hard to read.' : undefined}
    />
  );

  const owner = mode === 'existing' ? chosen : created;
  return (
    <form className="screen" onSubmit={(event) => void save(event)} noValidate aria-labelledby="intake-title">
      <div className="screen__header">
        <ScreenTitle subtitle="Register the patient and their insurance card. Everything is saved on this computer first.">
          <span id="intake-title">Intake</span>
        </ScreenTitle>
      </div>

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
          <div className="grid-3">
            <TextField id="first_name" label="First name" autoComplete="off" value={patient.first_name} error={patientErrors.first_name} onChange={(v) => setPatient((p) => ({ ...p, first_name: v }))} />
            <TextField id="last_name" label="Last name" autoComplete="off" value={patient.last_name} error={patientErrors.last_name} onChange={(v) => setPatient((p) => ({ ...p, last_name: v }))} />
            <DateOfBirthField id="date_of_birth" value={patient.date_of_birth} error={patientErrors.date_of_birth} onChange={(v) => setPatient((p) => ({ ...p, date_of_birth: v }))} />
          </div>
        )}
      </Panel>

      <Panel title="Card photos" titleId="intake-photos">
        <div className="grid-2">
          <PhotoSlot side="front" value={front} onChange={(v) => { setInboxItem(null); setFront(v); }} />
          <PhotoSlot side="back" value={back} onChange={(v) => { setInboxItem(null); setBack(v); }} />
        </div>
        {reading.state === 'reading' && <Loading label="Reading the card…" />}
        {reading.state === 'done' && (
          <Notice tone={reading.review > 0 ? 'warn' : 'ok'} live>
            {reading.review > 0
              ? `Read the card. ${reading.review} ${reading.review === 1 ? 'field was' : 'fields were'} hard to read: check the ones marked below against the card.`
              : 'Read the card: check the fields below against it before saving.'}
          </Notice>
        )}
        {reading.state === 'failed' && <Notice tone="warn" live>{reading.message}</Notice>}
      </Panel>

      <InboxPicker chosenId={inboxItem?.id ?? null} onUse={useInboxItem} />

      <Panel title="Card details" titleId="intake-card">
        <Combobox
          id="payer_id"
          label="Payer"
          placeholder="Type to search payers"
          options={payerPicker.options}
          filter={payerPicker.filter}
          value={card.payer_id}
          onChange={(v) => setCardField('payer_id', v)}
          error={cardErrors.insurance_carrier_ids ?? cardErrors.payer_id}
          review={review.has('payer_id') ? 'Check this: the payer on the card was not clear.' : undefined}
          hint={card.payer_id ? undefined : 'The insurance company named on the card.'}
        />
        <div className="grid-2">{CARD_TEXT_FIELDS.slice(0, 4).map(cardField)}</div>
        <div className="grid-3">{CARD_TEXT_FIELDS.slice(4).map(cardField)}</div>
        {(cardErrors.front_photo_object_key || cardErrors.back_photo_object_key || cardErrors.patient_id) && (
          <Notice tone="bad">{cardErrors.front_photo_object_key ?? cardErrors.back_photo_object_key ?? cardErrors.patient_id}</Notice>
        )}
      </Panel>

      {formError && (
        <Notice tone="bad" live>
          {formError}
        </Notice>
      )}
      <div className="row row--end">
        <Button onClick={() => navigate({ screen: 'today' })}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save card'}
        </Button>
      </div>
    </form>
  );
}
