import { z } from 'zod';

/**
 * X12 271 AAA03 reject reason codes, their snake_case reason, and the request field a
 * person should fix where one applies. The sandbox answers with these; the UI turns each
 * into a plain-language fix.
 */
export const AAA_REASONS = {
  '04': { reason: 'authorized_quantity_exceeded', field: null },
  '15': { reason: 'required_application_data_missing', field: null },
  '33': { reason: 'input_errors', field: null },
  '35': { reason: 'out_of_network', field: 'provider_id' },
  '41': { reason: 'authorization_access_restrictions', field: null },
  '42': { reason: 'unable_to_respond_at_current_time', field: null },
  '43': { reason: 'invalid_missing_provider_identification', field: 'provider_id' },
  '44': { reason: 'invalid_missing_provider_name', field: 'provider_id' },
  '45': { reason: 'invalid_missing_provider_specialty', field: 'provider_id' },
  '47': { reason: 'invalid_missing_provider_state', field: 'provider_id' },
  '48': { reason: 'invalid_missing_referring_provider_identification_number', field: 'provider_id' },
  '49': { reason: 'provider_is_not_primary_care_physician', field: 'provider_id' },
  '50': { reason: 'provider_ineligible_for_inquiries', field: 'provider_id' },
  '51': { reason: 'provider_not_on_file', field: 'provider_id' },
  '52': { reason: 'service_dates_not_within_provider_plan_enrollment', field: null },
  '53': { reason: 'inquired_benefit_inconsistent_with_provider_type', field: 'service_type' },
  '54': { reason: 'inappropriate_product_service_id_qualifier', field: 'service_type' },
  '55': { reason: 'inappropriate_product_service_id', field: 'service_type' },
  '56': { reason: 'inappropriate_date', field: null },
  '57': { reason: 'invalid_missing_dates_of_service', field: null },
  '58': { reason: 'invalid_missing_date_of_birth', field: 'date_of_birth' },
  '60': { reason: 'date_of_birth_follows_dates_of_service', field: 'date_of_birth' },
  '61': { reason: 'date_of_death_precedes_dates_of_service', field: null },
  '62': { reason: 'date_of_service_not_within_allowable_inquiry_period', field: null },
  '63': { reason: 'date_of_service_in_future', field: null },
  '64': { reason: 'invalid_missing_patient_id', field: 'member_id' },
  '65': { reason: 'invalid_missing_patient_name', field: 'last_name' },
  '66': { reason: 'invalid_missing_patient_gender_code', field: null },
  '67': { reason: 'patient_not_found', field: 'member_id' },
  '68': { reason: 'duplicate_patient_id_number', field: 'member_id' },
  '69': { reason: 'inconsistent_with_patients_age', field: 'service_type' },
  '70': { reason: 'inconsistent_with_patients_gender', field: 'service_type' },
  '71': { reason: 'patient_birth_date_does_not_match_that_for_the_patient_on_the_database', field: 'date_of_birth' },
  '72': { reason: 'invalid_missing_subscriber_insured_id', field: 'member_id' },
  '73': { reason: 'invalid_missing_subscriber_insured_name', field: 'member_name' },
  '74': { reason: 'invalid_missing_subscriber_insured_gender_code', field: null },
  '75': { reason: 'subscriber_insured_not_found', field: 'member_id' },
  '76': { reason: 'duplicate_subscriber_insured_id_number', field: 'member_id' },
  '77': { reason: 'subscriber_found_patient_not_found', field: 'first_name' },
  '78': { reason: 'subscriber_insured_not_in_group_plan_identified', field: 'group_number' },
  '79': { reason: 'invalid_participant_identification', field: 'clearinghouse_entity_id' },
  '80': { reason: 'no_response_received_transaction_terminated', field: null },
  '97': { reason: 'invalid_or_missing_provider_address', field: 'provider_id' },
  T4: { reason: 'payer_name_or_identifier_missing', field: 'clearinghouse_entity_id' },
} as const;
export type AaaCode = keyof typeof AAA_REASONS;

/** AAA04 follow-up action codes. */
export const FOLLOW_UP_ACTIONS = {
  C: 'please_correct_and_resubmit',
  N: 'resubmission_not_allowed',
  P: 'please_resubmit_original_transaction',
  R: 'resubmission_allowed',
  S: 'do_not_resubmit_inquiry_initiated_to_a_third_party',
  W: 'please_wait_30_days_and_resubmit',
  X: 'please_wait_10_days_and_resubmit',
  Y: 'do_not_resubmit_we_will_hand_copy_this_request',
} as const;
export const FollowUpAction = z.enum(Object.values(FOLLOW_UP_ACTIONS) as [(typeof FOLLOW_UP_ACTIONS)[keyof typeof FOLLOW_UP_ACTIONS]]);
export type FollowUpAction = z.infer<typeof FollowUpAction>;

/** Fields an entity error can point at: the card's, the patient's, or the check's own. */
export const FixableField = z.enum([
  'member_id',
  'member_name',
  'group_number',
  'first_name',
  'last_name',
  'date_of_birth',
  'provider_id',
  'clearinghouse_entity_id',
  'service_type',
]);
export type FixableField = z.infer<typeof FixableField>;

/**
 * Where in the 271 the AAA was: about the payer (information source), the provider
 * (information receiver), the subscriber or dependent, or one benefit inquiry of theirs.
 */
export const EntityErrorLevel = z.enum(['information_source', 'information_receiver', 'subscriber', 'dependent', 'subscriber_benefit', 'dependent_benefit']);
export type EntityErrorLevel = z.infer<typeof EntityErrorLevel>;

/** One element per 271 AAA segment. */
export const ClearinghouseEntityError = z.object({
  code: z.string(),
  reason: z.string().regex(/^[a-z0-9_]+$/),
  description: z.string(),
  follow_up_action: FollowUpAction,
  field: FixableField.nullable(),
  level: EntityErrorLevel.optional(),
});
export type ClearinghouseEntityError = z.infer<typeof ClearinghouseEntityError>;
