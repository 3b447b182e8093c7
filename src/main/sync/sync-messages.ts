/**
 * Every sentence the sync worker and the Sync screen's actions put in front of a person:
 * the reasons stored on an outbox entry (`last_error.message`, shown on the Sync screen),
 * the refusals of retry and discard, and the plain words for an entry. Kept together so
 * the wording stays one voice and can be reviewed (or translated) in one place.
 *
 * None of them may carry PHI: error messages can be logged and are sent nowhere else, but
 * only `entryDescription` may name a patient, and it is shown to the desk only.
 */

/** The kind of record an outbox entry creates, as the desk calls it. */
const ENTRY_KINDS: Record<string, string> = {
  photos: 'card photo',
  patients: 'patient',
  insurance_cards: 'insurance card',
  extractions: 'card reading',
  electronic_eligibility_discoveries: 'coverage discovery',
  electronic_eligibility_checks: 'eligibility check',
};

const capitalised = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

export const SYNC_MESSAGES = {
  /** Past the idempotency window, for a record the worker cannot look up upstream. */
  idempotencyWindowPassed:
    'This was first sent long enough ago that the upstream may have forgotten it, and Coverdesk cannot check whether it arrived. Check upstream, then send it again or discard it.',
  /** A throw that is not the client's typed error: our fault, retried. */
  internalError: 'Sending failed inside Coverdesk; it will be retried.',
  /** `blocker` is the stopped dependency's collection and record id. */
  blockedBy: (blocker: string) => `Waits for ${blocker}, which could not be sent.`,
  dependencyNotSynced: (field: string) => `${field} refers to a record that has not reached the upstream.`,
  notRetryable: (state: string) => `This entry is ${state}; only failed, blocked, queued or needs-review entries can be retried.`,
  notDiscardable: (state: string) => `This entry is ${state}; only failed, blocked or needs-review entries can be discarded.`,
  /** Kinds, not descriptions: error messages never carry names (they may be logged). */
  hasDependents: (collections: string[]) =>
    `${collections.length} other entries need this one (${[...new Set(collections.map(entryKind))].join(', ')}). Discard those first.`,
  /** The one-line reasons beside each item on the Sync screen (desk only: `waitsFor` names a record as the desk knows it). */
  reasonQueued: 'Goes to the service as soon as it answers; nothing to do.',
  reasonRetrying: (message: string) => `Not sent yet (${message.replace(/\.$/, '')}); Coverdesk keeps trying by itself.`,
  reasonSending: 'Being sent now.',
  /** A record the service used before has, sent to the current one (issue 26). */
  reasonSentAgain: 'The service in use now has not received this yet (it went to the one used before); it goes first, before what needs it. Nothing to do.',
  reasonRefused: (message: string) => `The service refused it: ${message} Fix what it names and Retry, or Discard it.`,
  reasonWaitsFor: (description: string) => `Waits for “${description}”, which needs you; it goes once that one is sent.`,
  reasonWaitsForOther: 'Waits for another item to be sent first; it goes once that one is.',
  reasonSent: 'Sent.',
  recordInUse: 'This record is still used by another record on this computer (for example a scanned card in the inbox). Remove that first.',
} as const;

export function entryKind(collection: string): string {
  return ENTRY_KINDS[collection] ?? collection;
}

/**
 * Plain words for an entry, as the desk knows the record: "Eligibility check (medical
 * care) for Ada Lovelace". `patientName` is null when the desk cannot say whose it is.
 */
export function entryDescription(collection: string, patientName: string | null, serviceType?: string): string {
  if (!Object.hasOwn(ENTRY_KINDS, collection)) return collection;
  const service = serviceType !== undefined ? ` (${serviceType.replace(/_/g, ' ')})` : '';
  return `${capitalised(ENTRY_KINDS[collection]!)}${service}${patientName ? ` for ${patientName}` : ''}`;
}
