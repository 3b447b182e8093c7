import { z } from 'zod';
import { COLLECTIONS, type CreatableCollection } from './resources';

/**
 * The practice's changes feed (docs/decisions.md, "The changes feed"): every record any
 * caller created or changed, in the order the upstream committed it, so a desk can keep a
 * copy of the whole practice with one cursor. Declared once here; the HTTP layer, the
 * client, the sandbox and the OpenAPI document all read this.
 */
export const CHANGES_PATH = '/v1/changes';

export const DEFAULT_CHANGES_LIMIT = 100;
export const MAX_CHANGES_LIMIT = 100;

/** The records the feed carries: what callers create. Providers and payers are reference data, refreshed on their own. */
export const FEED_COLLECTIONS = [
  'patients',
  'insurance_cards',
  'extractions',
  'electronic_eligibility_discoveries',
  'electronic_eligibility_checks',
] as const satisfies readonly CreatableCollection[];
export type FeedCollection = (typeof FEED_COLLECTIONS)[number];

export function isFeedCollection(name: string): name is FeedCollection {
  return (FEED_COLLECTIONS as readonly string[]).includes(name);
}

/** An opaque position in the feed: the upstream's to mint, the desk's to hand back unchanged. */
export const ChangesCursor = z.string().min(1).max(255).regex(/^[\x21-\x7e]+$/, 'must be a next_cursor or cursor the feed answered');

/** `?after=&limit=` as they arrive in a query string (strings) or a call (numbers). No `after`: from the beginning. */
export const ChangesParams = z.strictObject({
  after: ChangesCursor.optional(),
  limit: z.coerce.number().int().min(1).max(MAX_CHANGES_LIMIT).default(DEFAULT_CHANGES_LIMIT),
});
export type ChangesParams = z.input<typeof ChangesParams>;

/** One change: which collection, the record as it stands now, and the position just after it. */
function changeOf<K extends FeedCollection>(collection: K) {
  return z.object({ collection: z.literal(collection), cursor: ChangesCursor, record: COLLECTIONS[collection].resource });
}

/** A change as the contract promises it (the OpenAPI document and servers). */
export const Change = z.discriminatedUnion('collection', [
  changeOf('patients'),
  changeOf('insurance_cards'),
  changeOf('extractions'),
  changeOf('electronic_eligibility_discoveries'),
  changeOf('electronic_eligibility_checks'),
]);
export type Change = z.infer<typeof Change>;

export const ChangesPage = z.object({
  data: z.array(Change),
  /** Where to continue: after the last change of this page (or `after` again when it is empty). */
  next_cursor: ChangesCursor,
  has_more: z.boolean(),
});
export type ChangesPage = z.infer<typeof ChangesPage>;

/**
 * A page as a reader must take it from the wire: the envelope checked, each record left for
 * the reader to check on its own, so one bad record is set aside and not the whole page.
 */
export const ReceivedChangesPage = z.object({
  data: z.array(z.object({ collection: z.string(), cursor: ChangesCursor, record: z.unknown() })),
  next_cursor: ChangesCursor,
  has_more: z.boolean(),
});
export type ReceivedChangesPage = z.infer<typeof ReceivedChangesPage>;
export type ReceivedChange = ReceivedChangesPage['data'][number];
