import { z } from 'zod';
import { Id, Source, Status, SyncInfo, Timestamp } from './common';
import { Benefit } from './benefits';
import { ClearinghouseEntityError } from './entity-errors';
import { ServiceType } from './service-types';

/** Upstream contract §4.3 (docs/upstream-contract.md). */
export const DiscoveryCreate = z.strictObject({
  source: Source,
  insurance_card_id: Id,
  /**
   * Coverdesk's extension: what the checks the discovery starts ask about (the practice's
   * default service type); without it, `health_benefit_plan_coverage`.
   */
  service_type: ServiceType.optional(),
});
export type DiscoveryCreate = z.infer<typeof DiscoveryCreate>;

/** Upstream contract §2.2 (docs/upstream-contract.md). */
export const Discovery = z.object({
  id: Id,
  created_at: Timestamp,
  finished_at: Timestamp.optional(),
  insurance_card_id: Id,
  patient_first_name: z.string(),
  patient_last_name: z.string(),
  patient_date_of_birth: z.string(),
  insurance_card_member_id: z.string().optional(),
  source: Source,
  status: Status,
  /** What the checks it starts ask about, when the request said. */
  service_type: ServiceType.optional(),
  sync: SyncInfo.optional(),
});
export type Discovery = z.infer<typeof Discovery>;

/** Upstream contract §4.4 (docs/upstream-contract.md): all four required; `source` is set by the channel, never sent. */
export const CheckCreate = z.strictObject({
  insurance_card_id: Id,
  provider_id: Id,
  clearinghouse_entity_id: Id,
  service_type: ServiceType,
});
export type CheckCreate = z.infer<typeof CheckCreate>;

export const CheckFailureReason = z.enum(['clearinghouse_error', 'clearinghouse_entity_error']);
export type CheckFailureReason = z.infer<typeof CheckFailureReason>;

/** Upstream contract §2.3 (docs/upstream-contract.md), with docs/decisions.md's element shapes for benefits and entity errors. */
export const Check = z.object({
  id: Id,
  created_at: Timestamp,
  finished_at: Timestamp.optional(),
  provider_id: Id,
  insurance_card_id: Id,
  clearinghouse_entity_id: Id,
  electronic_eligibility_discovery_id: Id.optional(),
  provider_npi: z.string(),
  patient_first_name: z.string(),
  patient_last_name: z.string(),
  patient_date_of_birth: z.string(),
  insurance_card_member_id: z.string().optional(),
  service_type: ServiceType,
  status: Status,
  source: Source,
  failure_reason: CheckFailureReason.optional(),
  clearinghouse_entity_errors: z.array(ClearinghouseEntityError).optional(),
  benefits: z.array(Benefit).optional(),
  sync: SyncInfo.optional(),
});
export type Check = z.infer<typeof Check>;
