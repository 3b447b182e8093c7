// Without zod: the renderer's first script reads it (issue 31: no schema is built before Today's first paint).

/** Resource id prefixes (docs/decisions.md, contract decisions): a prefix and a ULID. */
export const ID_PREFIX = {
  patient: 'pat',
  insurance_card: 'ic',
  extraction: 'ext',
  electronic_eligibility_discovery: 'eed',
  electronic_eligibility_check: 'eec',
  provider: 'prv',
  clearinghouse_entity: 'che',
  request: 'req',
  outbox_entry: 'obx',
  inbox_item: 'inb',
  // Desk-local (issue 16): appointments and the batch checks run for a day.
  appointment: 'apt',
  eligibility_batch: 'bat',
  batch_job: 'bjb',
  // A named local API integration (issue 28): its token is shown once, kept only as a hash.
  integration: 'itk',
  good_faith_estimate: 'gfe',
  // Desk-local (issue 30): what was collected at the window.
  collection: 'col',
  // A person who works at the desk (issue 28): named in the audit, never deleted.
  staff: 'stf',
} as const;
export type IdPrefix = (typeof ID_PREFIX)[keyof typeof ID_PREFIX];
