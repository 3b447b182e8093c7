import type { InsuranceCard, InsuranceCardCreate } from '../../../shared/contract';
import { objectKeyFromUrl } from '../intake/photo-file';

/** Text fields to replace, and the payer (a clearinghouse entity id; blank removes it). */
export type CardCorrection = Partial<Pick<InsuranceCardCreate, 'member_id' | 'member_name' | 'group_number' | 'plan_name' | 'rx_bin' | 'rx_group' | 'rx_pcn'>> & { payer_id?: string };

/**
 * Cards cannot be edited (the contract has no update): a corrected card is a new card
 * for the same patient, with the same photos and payer and the corrected fields. Blank
 * corrections leave the field out, as the contract wants.
 */
export function correctedCard(card: InsuranceCard, patientId: string, changes: CardCorrection): InsuranceCardCreate {
  const input: InsuranceCardCreate = { patient_id: patientId };
  const copy = ['network_status', 'member_name', 'member_id', 'group_number', 'plan_name', 'rx_bin', 'rx_group', 'rx_pcn'] as const;
  for (const field of copy) {
    const value = card[field];
    if (value !== undefined) (input as Record<string, unknown>)[field] = value;
  }
  if (card.insurance_carrier_ids.length) input.insurance_carrier_ids = [...card.insurance_carrier_ids];
  if (card.dependent_names?.length) input.dependent_names = [...card.dependent_names];
  const front = objectKeyFromUrl(card.front_photo_download_url);
  const back = objectKeyFromUrl(card.back_photo_download_url);
  if (front) input.front_photo_object_key = front;
  if (back) input.back_photo_object_key = back;
  const { payer_id, ...text } = changes;
  for (const [field, value] of Object.entries(text) as [Exclude<keyof CardCorrection, 'payer_id'>, string | undefined][]) {
    const trimmed = value?.trim();
    if (trimmed) input[field] = trimmed;
    else delete input[field];
  }
  if (payer_id !== undefined) {
    if (payer_id) input.insurance_carrier_ids = [payer_id];
    else delete input.insurance_carrier_ids;
  }
  return input;
}
