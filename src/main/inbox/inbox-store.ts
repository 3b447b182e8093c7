import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/open-database';
import { inbox_items } from '../db/schema';
import type { InboxItem } from '../../shared/contract';
import { notFound } from '../../shared/service-error';

type Row = typeof inbox_items.$inferSelect;

export function toInboxItem(row: Row): InboxItem {
  const item: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) if (value !== null) item[key] = value;
  return item as InboxItem;
}

export function listInboxItems(db: Db, state: InboxItem['state'] | undefined, limit = 100): InboxItem[] {
  return db
    .select()
    .from(inbox_items)
    .where(state ? eq(inbox_items.state, state) : undefined)
    .orderBy(desc(inbox_items.id))
    .limit(limit)
    .all()
    .map(toInboxItem);
}

export function getInboxItem(db: Db, id: string): InboxItem {
  const row = db.select().from(inbox_items).where(eq(inbox_items.id, id)).get();
  if (!row) throw notFound('inbox item', id);
  return toInboxItem(row);
}

/** The desk used the scan for a card, or set it aside. Only a new item can move on. */
export function resolveInboxItem(db: Db, input: { id: string; state: 'used' | 'dismissed'; insurance_card_id?: string }): InboxItem {
  getInboxItem(db, input.id);
  db.update(inbox_items)
    .set({ state: input.state, insurance_card_id: input.insurance_card_id ?? null })
    .where(and(eq(inbox_items.id, input.id), eq(inbox_items.state, 'new')))
    .run();
  return getInboxItem(db, input.id);
}
