import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/open-database';
import { photos } from '../db/schema';
import { findRow } from '../records/record-store';
import { preparedOnce } from '../records/statements';
import type { NewRowOf } from '../records/tables';
import type { Clock } from '../support/clock';
import type { IdGenerator } from '../support/ids';
import {
  COLLECTIONS,
  createReferences,
  type CallContext,
  type CardSource,
  type CreatableCollection,
  type CreateInputOf,
  type Extraction,
  type FieldError,
  type ReferenceTarget,
} from '../../shared/contract';
import { referenceNotFound, validationFailed } from '../../shared/service-error';

export interface BuildDeps {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  /** Who extracts: the host's own engine (default), or the sandbox standing in for the upstream. */
  extractionEngine?: Extraction['engine'];
}

/** A new row, and the local records (ids or photo object keys) it refers to. */
export interface BuiltRecord<K extends CreatableCollection> {
  row: NewRowOf<K> & { id: string };
  refs: string[];
}

type Builder<K extends CreatableCollection> = (deps: BuildDeps, input: CreateInputOf<K>, context: CallContext) => BuiltRecord<K>;

function referenceExists(db: Db, target: ReferenceTarget, id: string): boolean {
  if (target !== 'photos') return findRow(db, target, id) !== undefined;
  const find = preparedOnce(db, 'photos:by-key', () =>
    db.select({ key: photos.object_key }).from(photos).where(eq(photos.object_key, sql.placeholder('key'))).prepare(),
  );
  return find.get({ key: id }) !== undefined;
}

function missingReference(path: string, target: ReferenceTarget, id: string): FieldError {
  if (target === 'photos') return { path, code: 'not_found', message: `No photo with that object key exists: upload it with POST /v1/photos first.` };
  return referenceNotFound(path, COLLECTIONS[target].noun, id);
}

/**
 * Checks every reference the contract's `CREATE_REFERENCES` declares for the collection,
 * all before failing, so one 422 names every missing one. Returns the local records (ids
 * or photo object keys) the new record refers to: its outbox entry waits for theirs.
 */
function checkReferences<K extends CreatableCollection>(db: Db, collection: K, input: CreateInputOf<K>): string[] {
  const errors: FieldError[] = [];
  const local: string[] = [];
  for (const [field, reference] of createReferences(collection)) {
    const value = (input as Record<string, unknown>)[field];
    if (value === undefined) continue;
    const ids = reference.many ? (value as string[]) : [value as string];
    ids.forEach((id, i) => {
      if (!referenceExists(db, reference.target, id)) errors.push(missingReference(reference.many ? `${field}.${i}` : field, reference.target, id));
    });
    if (reference.local) local.push(...ids);
  }
  if (errors.length > 0) throw validationFailed(errors);
  return local;
}

function cardSource(context: CallContext): CardSource {
  // Cards come from people (desk or scanner), never from the system itself.
  if (context.card_source) return context.card_source;
  return context.source === 'system' ? 'api' : context.source;
}

function now(deps: BuildDeps): string {
  return deps.clock.now().toISOString();
}

/** The card's patient and member id, copied into discoveries and checks as the seed asks. Call after the check. */
function cardFacts(deps: BuildDeps, cardId: string) {
  const card = findRow(deps.db, 'insurance_cards', cardId)!;
  const patient = findRow(deps.db, 'patients', card.patient_id)!;
  return { card, patient };
}

const buildPatient: Builder<'patients'> = (deps, input) => ({
  row: { id: deps.ids.next(COLLECTIONS.patients.prefix), ...input, created_at: now(deps) },
  refs: checkReferences(deps.db, 'patients', input),
});

const buildCard: Builder<'insurance_cards'> = (deps, input, context) => {
  const refs = checkReferences(deps.db, 'insurance_cards', input);
  const { insurance_carrier_ids = [], ...fields } = input;
  return {
    row: {
      ...fields,
      id: deps.ids.next(COLLECTIONS.insurance_cards.prefix),
      source: cardSource(context),
      insurance_carrier_ids,
      created_at: now(deps),
    },
    refs,
  };
};

const buildExtraction: Builder<'extractions'> = (deps, input) => {
  const refs = checkReferences(deps.db, 'extractions', input);
  return {
    row: {
      id: deps.ids.next(COLLECTIONS.extractions.prefix),
      insurance_card_id: input.insurance_card_id,
      status: 'pending',
      engine: deps.extractionEngine ?? 'on_device',
      created_at: now(deps),
    },
    refs,
  };
};

const buildDiscovery: Builder<'electronic_eligibility_discoveries'> = (deps, input) => {
  const refs = checkReferences(deps.db, 'electronic_eligibility_discoveries', input);
  const { card, patient } = cardFacts(deps, input.insurance_card_id);
  return {
    row: {
      id: deps.ids.next(COLLECTIONS.electronic_eligibility_discoveries.prefix),
      insurance_card_id: input.insurance_card_id,
      patient_first_name: patient.first_name,
      patient_last_name: patient.last_name,
      patient_date_of_birth: patient.date_of_birth,
      insurance_card_member_id: card.member_id,
      // The seed's discovery request carries its source; it is validated and kept as sent.
      source: input.source,
      service_type: input.service_type ?? null,
      status: 'pending',
      created_at: now(deps),
    },
    refs,
  };
};

const buildCheck: Builder<'electronic_eligibility_checks'> = (deps, input, context) => {
  const refs = checkReferences(deps.db, 'electronic_eligibility_checks', input);
  const { card, patient } = cardFacts(deps, input.insurance_card_id);
  const provider = findRow(deps.db, 'providers', input.provider_id)!;
  return {
    row: {
      id: deps.ids.next(COLLECTIONS.electronic_eligibility_checks.prefix),
      ...input,
      provider_npi: provider.npi,
      patient_first_name: patient.first_name,
      patient_last_name: patient.last_name,
      patient_date_of_birth: patient.date_of_birth,
      insurance_card_member_id: card.member_id,
      status: 'pending',
      source: context.source,
      created_at: now(deps),
    },
    refs,
  };
};

/** One builder per creatable collection: validation of references and the derived fields. */
export const CREATE_BUILDERS: { [K in CreatableCollection]: Builder<K> } = {
  patients: buildPatient,
  insurance_cards: buildCard,
  extractions: buildExtraction,
  electronic_eligibility_discoveries: buildDiscovery,
  electronic_eligibility_checks: buildCheck,
};

export function buildRecord<K extends CreatableCollection>(
  deps: BuildDeps,
  collection: K,
  input: CreateInputOf<K>,
  context: CallContext,
): BuiltRecord<K> {
  return (CREATE_BUILDERS[collection] as Builder<K>)(deps, input, context);
}
