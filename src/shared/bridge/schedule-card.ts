/**
 * A card made from a schedule export's member id and payer (issue 26) carries a reference id
 * starting with this: the contract has no field for where a card came from, and the reference
 * id travels with the card upstream and to every desk that pulls it.
 */
export const SCHEDULE_CARD_REFERENCE = 'schedule:';

/** Whether a card (by its reference id) was made from the schedule, not captured at the desk. */
export function isScheduleCardReference(referenceId: string | null | undefined): boolean {
  return typeof referenceId === 'string' && referenceId.startsWith(SCHEDULE_CARD_REFERENCE);
}
