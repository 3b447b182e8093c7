import type { z } from 'zod';
import { ID_PREFIX } from './common';
import { Check, CheckCreate, Discovery, DiscoveryCreate } from './eligibility';
import { Extraction, ExtractionCreate } from './extraction';
import { InsuranceCard, InsuranceCardCreate } from './insurance-card';
import { Patient, PatientCreate } from './patient';
import { ClearinghouseEntity, Provider } from './reference';

/**
 * The /v1 collections, declared once. The HTTP layer, the HTTP client, the host's local
 * service and the sandbox all walk this table, so a collection added here is served,
 * called and stored everywhere.
 */
export const COLLECTIONS = {
  patients: { noun: 'patient', prefix: ID_PREFIX.patient, resource: Patient, create: PatientCreate },
  insurance_cards: { noun: 'insurance card', prefix: ID_PREFIX.insurance_card, resource: InsuranceCard, create: InsuranceCardCreate },
  extractions: { noun: 'extraction', prefix: ID_PREFIX.extraction, resource: Extraction, create: ExtractionCreate },
  electronic_eligibility_discoveries: {
    noun: 'electronic eligibility discovery',
    prefix: ID_PREFIX.electronic_eligibility_discovery,
    resource: Discovery,
    create: DiscoveryCreate,
  },
  electronic_eligibility_checks: {
    noun: 'electronic eligibility check',
    prefix: ID_PREFIX.electronic_eligibility_check,
    resource: Check,
    create: CheckCreate,
  },
  providers: { noun: 'provider', prefix: ID_PREFIX.provider, resource: Provider, create: null },
  clearinghouse_entities: {
    noun: 'clearinghouse entity',
    prefix: ID_PREFIX.clearinghouse_entity,
    resource: ClearinghouseEntity,
    create: null,
  },
} as const;

export type Collection = keyof typeof COLLECTIONS;
export type CreatableCollection = {
  [K in Collection]: (typeof COLLECTIONS)[K]['create'] extends null ? never : K;
}[Collection];

export type ResourceOf<K extends Collection> = z.infer<(typeof COLLECTIONS)[K]['resource']>;
export type CreateInputOf<K extends CreatableCollection> = z.infer<NonNullable<(typeof COLLECTIONS)[K]['create']>>;

export const COLLECTION_NAMES = Object.keys(COLLECTIONS) as Collection[];
export const CREATABLE_COLLECTIONS = COLLECTION_NAMES.filter(
  (name): name is CreatableCollection => COLLECTIONS[name].create !== null,
);

export function isCollection(name: string): name is Collection {
  return Object.hasOwn(COLLECTIONS, name);
}
