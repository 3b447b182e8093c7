import {
  AAA_REASONS,
  type AaaCode,
  type Check,
  type ClearinghouseEntityError,
  type FixableField,
  type FollowUpAction,
} from '../../../shared/contract';

/**
 * A payer's rejection (X12 AAA segment) in plain words: what went wrong, what to do about
 * it, and which field to change. Every code the contract knows has an entry (the type
 * says so); an unknown code falls back to the payer's own description.
 */
export interface AaaFix {
  problem: string;
  fix: string;
}

export const AAA_FIXES: Record<AaaCode, AaaFix> = {
  '04': { problem: 'The payer says the number of services allowed has been used up.', fix: 'Ask the payer about an authorization or extra visits before the appointment.' },
  '15': { problem: 'The payer needs details that were not sent.', fix: 'Make sure the member id, the subscriber name and the date of birth are all filled in, then run the check again.' },
  '33': { problem: 'The payer found a mistake in the request.', fix: 'Compare the member id, name and date of birth with the card and the patient, correct what differs, and run the check again.' },
  '35': { problem: 'The provider is out of network for this plan.', fix: 'Tell the patient the visit may be billed out of network, or choose an in-network provider.' },
  '41': { problem: 'The payer does not let this practice see this member’s benefits.', fix: 'Call the payer’s provider line to ask for access; the check cannot be fixed here.' },
  '42': { problem: 'The payer’s system is not answering right now.', fix: 'Nothing to correct: run the check again in a few minutes.' },
  '43': { problem: 'The payer did not accept the provider’s NPI.', fix: 'Make sure the right provider is chosen. If it is, ask your billing office to confirm the NPI is enrolled with this payer.' },
  '44': { problem: 'The payer did not accept the provider’s name.', fix: 'Make sure the right provider is chosen. If it is, the provider’s name on file with the payer needs updating.' },
  '45': { problem: 'The payer needs the provider’s specialty.', fix: 'Choose the provider who will see the patient; ask your billing office if the specialty is on file with the payer.' },
  '47': { problem: 'The payer needs the provider’s state.', fix: 'Ask your billing office to confirm the provider’s address with the payer.' },
  '48': { problem: 'The payer needs the referring provider’s id.', fix: 'Choose the referring provider, or call the payer if the plan requires a referral.' },
  '49': { problem: 'This plan needs the visit to be with the patient’s primary care physician.', fix: 'Choose the patient’s primary care provider, or ask the patient for a referral.' },
  '50': { problem: 'This provider may not ask this payer about eligibility.', fix: 'Choose another provider of the practice, or call the payer.' },
  '51': { problem: 'The payer does not have this provider on file.', fix: 'Make sure the right provider is chosen; ask your billing office to enrol the provider with this payer.' },
  '52': { problem: 'The provider was not enrolled with the plan on the date of service.', fix: 'Call the payer to confirm the provider’s enrolment dates.' },
  '53': { problem: 'The service type asked about does not fit this provider.', fix: 'Choose a service type that matches the visit, such as “Health benefit plan coverage”, and run the check again.' },
  '54': { problem: 'The payer did not accept the service type.', fix: 'Choose another service type, such as “Health benefit plan coverage”, and run the check again.' },
  '55': { problem: 'The payer did not accept the service type.', fix: 'Choose another service type, such as “Health benefit plan coverage”, and run the check again.' },
  '56': { problem: 'The payer did not accept the date.', fix: 'Run the check again for today’s visit; call the payer if it fails again.' },
  '57': { problem: 'The date of service is missing or wrong.', fix: 'Run the check again for today’s visit; call the payer if it fails again.' },
  '58': { problem: 'The date of birth is missing or wrong.', fix: 'Ask the patient for their date of birth and compare it with the one on file; if the one on file is wrong, correct the patient’s details and run the check again.' },
  '60': { problem: 'The date of birth is after the date of service.', fix: 'Compare the date of birth with the patient’s ID: the year is probably mistyped.' },
  '61': { problem: 'The payer has a date of death on file for this member.', fix: 'Confirm the patient’s identity and call the payer.' },
  '62': { problem: 'The date is outside what the payer lets you ask about.', fix: 'Run the check closer to the visit date.' },
  '63': { problem: 'The date of service is in the future for this payer.', fix: 'Run the check again on the day of the visit.' },
  '64': { problem: 'The payer did not accept the patient’s id.', fix: 'Re-read the member id from the card and correct it.' },
  '65': { problem: 'The payer did not accept the patient’s name.', fix: 'Ask the patient to spell their name as it appears on the card, and compare it with the one on file; if it differs, correct the patient’s details.' },
  '66': { problem: 'The payer needs the patient’s sex.', fix: 'Call the payer: this cannot be sent from here.' },
  '67': { problem: 'The payer did not find the patient.', fix: 'Re-read the member id from the card. If the patient is a dependant, check the name and date of birth too.' },
  '68': { problem: 'The payer has more than one patient with this id.', fix: 'Check that the name and date of birth match the card exactly; call the payer if they do.' },
  '69': { problem: 'The service type does not fit the patient’s age.', fix: 'Choose a service type that fits the visit, and check the date of birth.' },
  '70': { problem: 'The service type does not fit the patient’s sex.', fix: 'Choose a service type that fits the visit.' },
  '71': { problem: 'The date of birth does not match the payer’s records.', fix: 'Ask the patient for their date of birth and compare it with the one on file; if the one on file is wrong, correct the patient’s details and run the check again.' },
  '72': { problem: 'The payer did not accept the member id.', fix: 'Re-read the member id from the card (often labelled “ID” or “Member ID”), correct it, and run the check again.' },
  '73': { problem: 'The payer did not accept the subscriber’s name.', fix: 'Enter the member name exactly as printed on the card, and run the check again.' },
  '74': { problem: 'The payer needs the subscriber’s sex.', fix: 'Call the payer: this cannot be sent from here.' },
  '75': { problem: 'The payer has no member with this id.', fix: 'Re-read the member id from the card. If it is right, the card may be old or for another payer: ask the patient for their current card.' },
  '76': { problem: 'The payer has more than one member with this id.', fix: 'Enter the member name exactly as printed on the card; call the payer if it fails again.' },
  '77': { problem: 'The payer found the subscriber but not this patient.', fix: 'Check the patient’s first name and date of birth: a dependant must match the payer’s records exactly; correct the patient’s details if they differ.' },
  '78': { problem: 'The subscriber is not in the group on the card.', fix: 'Re-read the group number from the card, or ask the patient for their current card.' },
  '79': { problem: 'The payer was not recognised.', fix: 'Choose the payer named on the card, and run the check again.' },
  '80': { problem: 'The payer did not answer in time.', fix: 'Nothing to correct: run the check again in a few minutes.' },
  '97': { problem: 'The payer did not accept the provider’s address.', fix: 'Ask your billing office to confirm the provider’s address with the payer.' },
  T4: { problem: 'The payer name or id is missing.', fix: 'Choose the payer named on the card, and run the check again.' },
};

/** AAA04 in plain words: may the desk simply run the check again? */
export const FOLLOW_UP_WORDS: Record<FollowUpAction, string> = {
  please_correct_and_resubmit: 'Correct it, then run the check again.',
  resubmission_not_allowed: 'Do not run it again: call the payer.',
  please_resubmit_original_transaction: 'Run the same check again.',
  resubmission_allowed: 'You can run the check again.',
  do_not_resubmit_inquiry_initiated_to_a_third_party: 'Do not run it again: the payer has passed it on and will answer.',
  please_wait_30_days_and_resubmit: 'Wait 30 days, then run the check again.',
  please_wait_10_days_and_resubmit: 'Wait 10 days, then run the check again.',
  do_not_resubmit_we_will_hand_copy_this_request: 'Do not run it again: the payer will answer by hand.',
};

/** The labels of fields a fix may point at, as the screens name them. */
export const FIXABLE_FIELD_LABELS: Record<FixableField, string> = {
  member_id: 'Member id',
  member_name: 'Member name',
  group_number: 'Group number',
  first_name: 'First name',
  last_name: 'Last name',
  date_of_birth: 'Date of birth',
  provider_id: 'Provider',
  clearinghouse_entity_id: 'Payer',
  service_type: 'Service type',
};

export interface FailureExplanation {
  code: string | null;
  problem: string;
  fix: string;
  follow_up: string | null;
  field: FixableField | null;
}

function isKnownCode(code: string): code is AaaCode {
  return Object.hasOwn(AAA_REASONS, code);
}

export function explainEntityError(error: ClearinghouseEntityError): FailureExplanation {
  const known = isKnownCode(error.code) ? AAA_FIXES[error.code] : null;
  const field = error.field ?? (isKnownCode(error.code) ? AAA_REASONS[error.code].field : null);
  return {
    code: error.code,
    problem: known?.problem ?? (error.description || 'The payer turned the check down.'),
    fix: known?.fix ?? FOLLOW_UP_WORDS[error.follow_up_action],
    follow_up: known ? FOLLOW_UP_WORDS[error.follow_up_action] : null,
    field,
  };
}

/** Every reason a failed check failed, in plain words, one per payer rejection. */
export function explainFailure(check: Pick<Check, 'failure_reason' | 'clearinghouse_entity_errors'>): FailureExplanation[] {
  const errors = check.clearinghouse_entity_errors ?? [];
  if (errors.length > 0) {
    // A payer may repeat one AAA at several loops (the payer's, the subscriber's): one reason, said once.
    const seen = new Set<string>();
    return errors.map(explainEntityError).filter((e) => {
      const key = `${e.code}|${e.field}|${e.problem}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  if (check.failure_reason === 'clearinghouse_entity_error') {
    return [{ code: null, problem: 'The payer turned the check down without saying why.', fix: 'Compare the member id with the card and run the check again; call the payer if it fails again.', follow_up: null, field: 'member_id' }];
  }
  return [{ code: null, problem: 'The clearinghouse could not get an answer from the payer.', fix: 'Nothing to correct: run the check again in a few minutes.', follow_up: null, field: null }];
}
