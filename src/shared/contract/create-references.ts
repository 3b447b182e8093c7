import type { Collection, CreatableCollection, CreateInputOf } from './resources';

/**
 * What a field of a create request may point at: a record this desk may have created (a
 * creatable collection, or a photo, named by its object key and uploaded with POST
 * /v1/photos), or reference data the upstream lists.
 */
export type LocalReferenceTarget = CreatableCollection | 'photos';
export type ReferenceTarget = LocalReferenceTarget | Exclude<Collection, CreatableCollection>;

/**
 * `local: true`: the field holds a local id until the sync worker rewrites it to the
 * upstream's, and the new record's outbox entry waits for the referenced one's.
 * `local: false`: reference data (providers, clearinghouse entities) whose ids are already
 * the upstream's. `many`: the field is a list of ids, each checked (`field.i` when missing).
 */
export type CreateReference =
  | { target: LocalReferenceTarget; local: true; many?: true }
  | { target: Exclude<Collection, CreatableCollection>; local: false; many?: true };

type ReferencesOf<K extends CreatableCollection> = { [F in keyof CreateInputOf<K>]?: CreateReference };

/**
 * Every field of a create request that names another record, declared once. The host's
 * create builders check each exists (and make the new record depend on the local ones);
 * the sync worker rewrites the local ones to the upstream's ids. A reference field added
 * to a create schema belongs here: a unit test fails on any `_id`/`_ids`/`_object_key`
 * field that is neither here nor in `NOT_REFERENCES`.
 */
export const CREATE_REFERENCES: { [K in CreatableCollection]: ReferencesOf<K> } = {
  patients: {},
  insurance_cards: {
    patient_id: { target: 'patients', local: true },
    front_photo_object_key: { target: 'photos', local: true },
    back_photo_object_key: { target: 'photos', local: true },
    insurance_carrier_ids: { target: 'clearinghouse_entities', local: false, many: true },
  },
  extractions: { insurance_card_id: { target: 'insurance_cards', local: true } },
  electronic_eligibility_discoveries: { insurance_card_id: { target: 'insurance_cards', local: true } },
  electronic_eligibility_checks: {
    insurance_card_id: { target: 'insurance_cards', local: true },
    provider_id: { target: 'providers', local: false },
    clearinghouse_entity_id: { target: 'clearinghouse_entities', local: false },
  },
};

/**
 * Fields whose names look like references but are not: values the caller makes up, kept
 * as given. `reference_id` is the caller's own id for a card; `member_id` is printed on it.
 */
export const NOT_REFERENCES: readonly string[] = ['reference_id', 'member_id'];

/** The reference fields of a create, in declaration order (the order errors are reported). */
export function createReferences(collection: string): [field: string, reference: CreateReference][] {
  const table = (CREATE_REFERENCES as Record<string, Record<string, CreateReference>>)[collection];
  return table ? Object.entries(table) : [];
}
