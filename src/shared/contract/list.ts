import { z } from 'zod';

export const DEFAULT_LIST_LIMIT = 25;
export const MAX_LIST_LIMIT = 100;

/** `?limit=&cursor=` as they arrive in a query string (strings) or a call (numbers). */
export const ListParams = z.strictObject({
  limit: z.coerce.number().int().min(1).max(MAX_LIST_LIMIT).default(DEFAULT_LIST_LIMIT),
  cursor: z.string().min(1).max(255).optional(),
});
export type ListParams = z.input<typeof ListParams>;

export function ListPage<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
  });
}
export interface ListPage<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}
