import { createContext, useCallback, useContext, useEffect, useState, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import type { InboxItem, Patient } from '../../../shared/contract';
import type { ReadPayer } from './intake-form';
import { CARD_TEXT_FIELDS, EMPTY_CARD, EMPTY_PATIENT, type CardFormField, type CardFormValues, type PatientFormValues } from './intake-values';
import type { PhotoValue } from './photo-slot';

/** `key` names the photos a reading was for (`inbox:…` for a scan read on arrival). */
export type Reading = { state: 'idle' } | { state: 'reading'; key: string } | { state: 'done'; key: string; review: number; missing: boolean; payer?: ReadPayer } | { state: 'failed'; key: string; message: string };

export type ChosenPatient = Pick<Patient, 'id' | 'first_name' | 'last_name' | 'date_of_birth'>;

/**
 * What Intake holds until the card is saved or the person discards it: the patient, the
 * photos (already stored, so only their keys) and what was read or typed. It lives above
 * the screens, so going to Today and back (or a photo finishing its upload meanwhile)
 * loses nothing.
 */
export interface IntakeDraft {
  mode: 'new' | 'existing';
  chosen: ChosenPatient | null;
  patient: PatientFormValues;
  /** Registered by this intake (saving again after a card field is fixed must not register a twin). */
  created: ChosenPatient | null;
  notDuplicate: boolean;
  front: PhotoValue | null;
  back: PhotoValue | null;
  inboxItem: InboxItem | null;
  card: CardFormValues;
  touched: Set<CardFormField>;
  review: Set<CardFormField>;
  missing: Set<CardFormField>;
  reading: Reading;
  /** The member name offered as the patient's and declined: asked once per name. */
  declinedName: string | null;
  /** A SMART Health Link read offline (its `waiting_id`): tied to the card when saved, offered here if it arrives first. */
  waitingLink: string | null;
}

export function emptyDraft(mode: IntakeDraft['mode'] = 'new'): IntakeDraft {
  return {
    mode,
    chosen: null,
    patient: EMPTY_PATIENT,
    created: null,
    notDuplicate: false,
    front: null,
    back: null,
    inboxItem: null,
    card: EMPTY_CARD,
    touched: new Set(),
    review: new Set(),
    missing: new Set(),
    reading: { state: 'idle' },
    declinedName: null,
    waitingLink: null,
  };
}

/**
 * Whether the draft holds anything a person would lose: a photo, a scan, a card field, a
 * typed patient, a patient registered without their card. A patient chosen and nothing
 * else is not kept: the next intake starts with no one chosen (issue 26, item 6).
 */
export function draftHasContent(draft: IntakeDraft): boolean {
  if (draft.front || draft.back || draft.inboxItem || draft.created || draft.waitingLink) return true;
  if (draft.card.payer_id || CARD_TEXT_FIELDS.some((field) => draft.card[field].trim())) return true;
  return draft.mode === 'new' && Object.values(draft.patient).some((value) => value.trim());
}

interface DraftStore {
  draft: IntakeDraft;
  setDraft: Dispatch<SetStateAction<IntakeDraft>>;
}

const IntakeDraftContext = createContext<DraftStore | null>(null);

/**
 * Each person's unsaved Intake draft while someone else uses the desk (issue 28, item 6): kept
 * for them, handed to no one else. A draft with nothing in it is not kept.
 */
export interface DraftShelf {
  take(owner: string): IntakeDraft | undefined;
  keep(owner: string, draft: IntakeDraft): void;
}

export function createDraftShelf(): DraftShelf {
  const drafts = new Map<string, IntakeDraft>();
  return {
    take: (owner) => drafts.get(owner),
    keep: (owner, draft) => void (draftHasContent(draft) ? drafts.set(owner, draft) : drafts.delete(owner)),
  };
}

const DraftShelfContext = createContext<DraftShelf | null>(null);

/** Above the sign-in gate, so a person's draft outlives their sign-out. */
export function IntakeDraftShelf({ children }: { children: ReactNode }) {
  const [shelf] = useState(createDraftShelf);
  return <DraftShelfContext.Provider value={shelf}>{children}</DraftShelfContext.Provider>;
}

/** `owner`: the signed-in person's id (`desk` on a desk without staff); their draft comes back with them. */
export function IntakeDraftProvider({ owner = 'desk', children }: { owner?: string; children: ReactNode }) {
  const shelf = useContext(DraftShelfContext);
  const [draft, setDraft] = useState<IntakeDraft>(() => shelf?.take(owner) ?? emptyDraft());
  useEffect(() => shelf?.keep(owner, draft), [shelf, owner, draft]);
  return <IntakeDraftContext.Provider value={{ draft, setDraft }}>{children}</IntakeDraftContext.Provider>;
}

export function useIntakeDraft(): DraftStore {
  const store = useContext(IntakeDraftContext);
  if (!store) throw new Error('useIntakeDraft needs an IntakeDraftProvider above it');
  return store;
}

/** One part of the draft as a state pair; the setter is stable, as useState's is. */
export function useDraftField<K extends keyof IntakeDraft>(store: DraftStore, key: K): [IntakeDraft[K], Dispatch<SetStateAction<IntakeDraft[K]>>] {
  const { draft, setDraft } = store;
  const set = useCallback(
    (value: SetStateAction<IntakeDraft[K]>) =>
      setDraft((current) => {
        const next = typeof value === 'function' ? (value as (previous: IntakeDraft[K]) => IntakeDraft[K])(current[key]) : value;
        return next === current[key] ? current : { ...current, [key]: next };
      }),
    [setDraft, key],
  );
  return [draft[key], set];
}
