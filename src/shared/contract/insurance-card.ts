import { z } from 'zod';
import { BROKEN_UNICODE, CardSource, CardText, Id, NamePart, SyncInfo, Timestamp, WELL_FORMED_TEXT } from './common';
import { ObjectKey } from './photo';

export const NetworkStatus = z.enum(['in_network', 'out_of_network']);
export const PlanStatus = z.enum(['active', 'inactive']);

/** Upstream contract §4.1 (docs/upstream-contract.md). */
export const InsuranceCardCreate = z.strictObject({
  patient_id: Id,
  reference_id: z.string().min(1).max(255).regex(WELL_FORMED_TEXT, BROKEN_UNICODE).optional(),
  network_status: NetworkStatus.optional(),
  front_photo_object_key: ObjectKey.optional(),
  back_photo_object_key: ObjectKey.optional(),
  member_name: CardText.optional(),
  member_id: CardText.optional(),
  group_number: CardText.optional(),
  insurance_carrier_ids: z.array(Id).max(20).optional(),
  plan_name: CardText.optional(),
  rx_bin: CardText.optional(),
  rx_group: CardText.optional(),
  rx_pcn: CardText.optional(),
  dependent_names: z.array(NamePart.max(200)).max(20).optional(),
});
export type InsuranceCardCreate = z.infer<typeof InsuranceCardCreate>;

/**
 * Upstream contract §2.1 (docs/upstream-contract.md), plus `patient_id` (Coverdesk's extension: the seed's card does not say whose
 * it is, and a desk cannot work without knowing) and `sync` on records served by the host.
 */
export const InsuranceCard = z.object({
  id: Id,
  patient_id: Id.optional(),
  reference_id: z.string().optional(),
  source: CardSource,
  network_status: NetworkStatus.optional(),
  submission_id: z.string().optional(),
  created_at: Timestamp,
  front_photo_download_url: z.string().optional(),
  back_photo_download_url: z.string().optional(),
  member_name: z.string().optional(),
  member_id: z.string().optional(),
  group_number: z.string().optional(),
  insurance_carrier_ids: z.array(z.string()),
  plan_name: z.string().optional(),
  rx_bin: z.string().optional(),
  rx_group: z.string().optional(),
  rx_pcn: z.string().optional(),
  dependent_names: z.array(z.string()).optional(),
  plan_status: PlanStatus.optional(),
  plan_status_fetched_at: Timestamp.optional(),
  sync: SyncInfo.optional(),
});
export type InsuranceCard = z.infer<typeof InsuranceCard>;
