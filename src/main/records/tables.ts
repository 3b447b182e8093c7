import * as schema from '../db/schema';
import type { Collection } from '../../shared/contract';

/** The table behind each /v1 collection. */
export const TABLES = {
  patients: schema.patients,
  insurance_cards: schema.insurance_cards,
  extractions: schema.extractions,
  electronic_eligibility_discoveries: schema.discoveries,
  electronic_eligibility_checks: schema.checks,
  providers: schema.providers,
  clearinghouse_entities: schema.clearinghouse_entities,
} as const satisfies Record<Collection, unknown>;

export type TableOf<K extends Collection> = (typeof TABLES)[K];
export type RowOf<K extends Collection> = TableOf<K>['$inferSelect'];
export type NewRowOf<K extends Collection> = TableOf<K>['$inferInsert'];
