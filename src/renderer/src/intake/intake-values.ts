// Without zod (intake-form.ts checks them against the contract's schemas): the draft shelf
// that keeps them sits above the sign-in gate on the page's first screen, which builds no
// schema before Today's first paint (issue 31).

/** The card's text fields, in the order the form shows them. */
export const CARD_TEXT_FIELDS = ['member_id', 'member_name', 'group_number', 'plan_name', 'rx_bin', 'rx_group', 'rx_pcn'] as const;
export type CardTextField = (typeof CARD_TEXT_FIELDS)[number];
export type CardFormField = CardTextField | 'payer_id';
export type CardFormValues = Record<CardFormField, string>;

export const CARD_FIELD_LABELS: Record<CardFormField | 'insurance_carrier_ids' | 'front_photo_object_key' | 'back_photo_object_key' | 'patient_id', string> = {
  payer_id: 'Payer',
  insurance_carrier_ids: 'Payer',
  member_id: 'Member id',
  member_name: 'Member name',
  group_number: 'Group number',
  plan_name: 'Plan name',
  rx_bin: 'Rx BIN',
  rx_group: 'Rx group',
  rx_pcn: 'Rx PCN',
  front_photo_object_key: 'Front photo',
  back_photo_object_key: 'Back photo',
  patient_id: 'Patient',
};

export const PATIENT_FIELD_LABELS = { first_name: 'First name', last_name: 'Last name', date_of_birth: 'Date of birth' } as const;
export type PatientFormValues = Record<keyof typeof PATIENT_FIELD_LABELS, string>;

export const EMPTY_CARD: CardFormValues = { payer_id: '', member_id: '', member_name: '', group_number: '', plan_name: '', rx_bin: '', rx_group: '', rx_pcn: '' };
export const EMPTY_PATIENT: PatientFormValues = { first_name: '', last_name: '', date_of_birth: '' };
