import { MAX_LIST_LIMIT, type Check, type Collection, type InsuranceCard, type ResourceOf, type V1Service } from '../../shared/contract';

/**
 * Reads the upstream's lists newest first and stops at the first record older than
 * `since`: the contract has no filters, but what we look for is never older than the
 * request that made it. `skewMs` allows for the upstream's clock disagreeing with ours.
 */
async function scanSince<K extends Collection>(
  upstream: V1Service,
  collection: K,
  since: string,
  skewMs: number,
  match: (record: ResourceOf<K>) => boolean,
): Promise<ResourceOf<K>[]> {
  const floor = new Date(Date.parse(since) - skewMs).toISOString();
  const found: ResourceOf<K>[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await upstream.list(collection, { limit: MAX_LIST_LIMIT, ...(cursor ? { cursor } : {}) });
    for (const record of page.data) {
      if ((record as { created_at: string }).created_at < floor) return found;
      if (match(record)) found.push(record);
    }
    if (!page.has_more || !page.next_cursor) return found;
    cursor = page.next_cursor;
  }
}

/** The card the upstream holds with this reference id, made no earlier than `since`. */
export async function findCardByReference(upstream: V1Service, referenceId: string, since: string, skewMs: number): Promise<InsuranceCard | null> {
  const cards = await scanSince(upstream, 'insurance_cards', since, skewMs, (card) => card.reference_id === referenceId);
  return cards[0] ?? null;
}

/** The checks a discovery spawned upstream (`electronic_eligibility_discovery_id` set to it). */
export async function spawnedChecks(upstream: V1Service, discoveryRemoteId: string, discoveryCreatedAt: string, skewMs: number): Promise<Check[]> {
  return scanSince(upstream, 'electronic_eligibility_checks', discoveryCreatedAt, skewMs, (check) => check.electronic_eligibility_discovery_id === discoveryRemoteId);
}
