import { inArray } from 'drizzle-orm';
import { z } from 'zod';
import { inTransaction, type Db } from '../db/open-database';
import { settings } from '../db/schema';

/**
 * SMART Health Links read while the desk was offline: kept (in the encrypted database's
 * settings table, with the link, whose key opens the card) as *waiting for the digital
 * card*, and completed by `completeWaitingLinks` once the desk is back online.
 */

const KEY = 'digital_cards.waiting';

export const WaitingLink = z.object({
  id: z.string(),
  /** The `shlink:/` text as read: the link and its key. */
  payload: z.string(),
  created_at: z.string(),
  tries: z.number().int().nonnegative(),
  /** Why it is still waiting (offline, or the passcode is needed from a person). */
  waiting_reason: z.string(),
  /** The finished read (verified, not verified or failed), once there is one. */
  result: z.record(z.string(), z.unknown()).nullable(),
  completed_at: z.string().nullable(),
  /** The card the desk saved while the link waited: its fields are offered on that patient's screen. */
  card_id: z.string().optional(),
  /** What the desk said to the offer of the arrived card's fields: never offered again after. */
  answer: z.enum(['used', 'declined']).optional(),
});
export type WaitingLink = z.infer<typeof WaitingLink>;

const Stored = z.array(WaitingLink);

export function readWaitingLinks(db: Db): WaitingLink[] {
  const row = db.select().from(settings).where(inArray(settings.key, [KEY])).get();
  return Stored.safeParse(row?.value).data ?? [];
}

/** Read, change and write back in one transaction, so two callers never lose each other's change. */
export function updateWaitingLinks(db: Db, change: (links: WaitingLink[]) => WaitingLink[]): WaitingLink[] {
  return inTransaction(db, () => {
    const value = change(readWaitingLinks(db));
    db.insert(settings).values({ key: KEY, value }).onConflictDoUpdate({ target: settings.key, set: { value } }).run();
    return value;
  });
}
