import { z } from 'zod';
import { Id } from './common';

/** Read-only reference data the app caches for offline use. */
export const Provider = z.object({
  id: Id,
  name: z.string(),
  npi: z.string().regex(/^\d{10}$/, 'must be a 10-digit NPI'),
});
export type Provider = z.infer<typeof Provider>;

export const ClearinghouseEntity = z.object({
  id: Id,
  name: z.string(),
  payer_id: z.string(),
});
export type ClearinghouseEntity = z.infer<typeof ClearinghouseEntity>;
