/**
 * Which of a patient's cards is "the card": the newest (latest `created_at`, then the
 * greater id: ids are ULIDs, so a tie in one millisecond goes to the one made last).
 *
 * Cards are never edited (the contract has no update): a correction is a new card, and a
 * patient who brings a new card has a new card. Either way the newest is the one the desk
 * checks, and every older card is an earlier version of it, kept for the record. Today,
 * Eligibility, Discovery, the batch and the worklist all ask this one rule (the host's SQL
 * orders by `CURRENT_CARD_ORDER` in `src/main/records/current-card.ts`, the same rule).
 */
export interface DatedCard {
  id: string;
  created_at: string;
}

/** Sort order: the current card first, then each earlier version, newest to oldest. */
export function newestCardFirst(a: DatedCard, b: DatedCard): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export interface CardVersions<T extends DatedCard> {
  /** The card checks use; undefined when the patient has none. */
  current: T | undefined;
  /** Every other card: replaced by a newer one, listed as an "earlier version". */
  earlier: Set<string>;
}

export function cardVersions<T extends DatedCard>(cards: readonly T[]): CardVersions<T> {
  const sorted = [...cards].sort(newestCardFirst);
  return { current: sorted[0], earlier: new Set(sorted.slice(1).map((card) => card.id)) };
}
