// Without zod (desk-contract.ts re-exports them): Today follows changes from the page's first
// screen, which builds no schema before Today's first paint (issue 31).

/** More changed records than this at once (a practice's first pull): Today is read again whole. */
export const TODAY_CHANGES_MAX_IDS = 5000;

/** Today's order, and search's: newest activity first; ties (a scanner's batch in one millisecond) newest id first, ids being ULIDs. */
export function compareDeskRows(a: { last_activity_at: string; patient_id: string }, b: { last_activity_at: string; patient_id: string }): number {
  const newestFirst = (x: string, y: string) => (x < y ? 1 : x > y ? -1 : 0);
  return newestFirst(a.last_activity_at, b.last_activity_at) || newestFirst(a.patient_id, b.patient_id);
}
