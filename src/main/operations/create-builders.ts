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
  type CallContext,
  type CardSource,
  type CreatableCollection,
  type CreateInputOf,
  type Extraction,
  type FieldError,
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

/** Collects every missing reference before failing, so one answer names them all. */
class References {
  readonly errors: FieldError[] = [];
  constructor(private readonly db: Db) {}

  find<K extends 'patients' | 'insurance_cards' | 'providers' | 'clearinghouse_entities'>(path: string, collection: K, id: string) {
    const row = findRow(this.db, collection, id);
    if (!row) this.errors.push(referenceNotFound(path, COLLECTIONS[collection].noun, id));
    return row;
  }

  photos(fields: Record<string, string | undefined>): void {
    const db = this.db;
    const find = preparedOnce(db, 'photos:by-key', () =>
      db.select({ key: photos.object_key }).from(photos).where(eq(photos.object_key, sql.placeholder('key'))).prepare(),
    );
    for (const [path, key] of Object.entries(fields)) {
      if (key !== undefined && !find.get({ key })) {
        this.errors.push({ path, code: 'not_found', message: `No photo with that object key exists: upload it with POST /v1/photos first.` });
      }
    }
  }

  entities(path: string, ids: string[]): void {
    ids.forEach((id, i) => {
      if (!findRow(this.db, 'clearinghouse_entities', id)) this.errors.push(referenceNotFound(`${path}.${i}`, 'clearinghouse entity', id));
    });
  }

  /** Throws a 422 naming every missing reference; after it, every found row is defined. */
  assertAllFound(): void {
    if (this.errors.length > 0) throw validationFailed(this.errors);
  }
}

function cardSource(context: CallContext): CardSource {
  // Cards come from people (desk or scanner), never from the system itself.
  return context.source === 'system' ? 'api' : context.source;
}

function now(deps: BuildDeps): string {
  return deps.clock.now().toISOString();
}

/** The card's patient and member id, copied into discoveries and checks as the seed asks. */
function cardFacts(deps: BuildDeps, refs: References, cardId: string) {
  const card = refs.find('insurance_card_id', 'insurance_cards', cardId);
  const patient = card ? findRow(deps.db, 'patients', card.patient_id) : undefined;
  return { card, patient };
}

const buildPatient: Builder<'patients'> = (deps, input) => ({
  row: { id: deps.ids.next(COLLECTIONS.patients.prefix), ...input, created_at: now(deps) },
  refs: [],
});

const buildCard: Builder<'insurance_cards'> = (deps, input, context) => {
  const refs = new References(deps.db);
  refs.find('patient_id', 'patients', input.patient_id);
  refs.photos({ front_photo_object_key: input.front_photo_object_key, back_photo_object_key: input.back_photo_object_key });
  refs.entities('insurance_carrier_ids', input.insurance_carrier_ids ?? []);
  refs.assertAllFound();
  const { insurance_carrier_ids = [], ...fields } = input;
  return {
    row: {
      ...fields,
      id: deps.ids.next(COLLECTIONS.insurance_cards.prefix),
      source: cardSource(context),
      insurance_carrier_ids,
      created_at: now(deps),
    },
    refs: [input.patient_id, input.front_photo_object_key, input.back_photo_object_key].filter((r): r is string => !!r),
  };
};

const buildExtraction: Builder<'extractions'> = (deps, input) => {
  const refs = new References(deps.db);
  refs.find('insurance_card_id', 'insurance_cards', input.insurance_card_id);
  refs.assertAllFound();
  return {
    row: {
      id: deps.ids.next(COLLECTIONS.extractions.prefix),
      insurance_card_id: input.insurance_card_id,
      status: 'pending',
      engine: deps.extractionEngine ?? 'on_device',
      created_at: now(deps),
    },
    refs: [input.insurance_card_id],
  };
};

const buildDiscovery: Builder<'electronic_eligibility_discoveries'> = (deps, input) => {
  const refs = new References(deps.db);
  const { card, patient } = cardFacts(deps, refs, input.insurance_card_id);
  refs.assertAllFound();
  return {
    row: {
      id: deps.ids.next(COLLECTIONS.electronic_eligibility_discoveries.prefix),
      insurance_card_id: input.insurance_card_id,
      patient_first_name: patient!.first_name,
      patient_last_name: patient!.last_name,
      patient_date_of_birth: patient!.date_of_birth,
      insurance_card_member_id: card!.member_id,
      // The seed's discovery request carries its source; it is validated and kept as sent.
      source: input.source,
      status: 'pending',
      created_at: now(deps),
    },
    refs: [input.insurance_card_id],
  };
};

const buildCheck: Builder<'electronic_eligibility_checks'> = (deps, input, context) => {
  const refs = new References(deps.db);
  const { card, patient } = cardFacts(deps, refs, input.insurance_card_id);
  const provider = refs.find('provider_id', 'providers', input.provider_id);
  refs.find('clearinghouse_entity_id', 'clearinghouse_entities', input.clearinghouse_entity_id);
  refs.assertAllFound();
  return {
    row: {
      id: deps.ids.next(COLLECTIONS.electronic_eligibility_checks.prefix),
      ...input,
      provider_npi: provider!.npi,
      patient_first_name: patient!.first_name,
      patient_last_name: patient!.last_name,
      patient_date_of_birth: patient!.date_of_birth,
      insurance_card_member_id: card!.member_id,
      status: 'pending',
      source: context.source,
      created_at: now(deps),
    },
    refs: [input.insurance_card_id],
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
