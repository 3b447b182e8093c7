import { z } from 'zod';
import { Id, Status, SyncInfo, Timestamp } from './common';

export const ExtractionCreate = z.strictObject({ insurance_card_id: Id });
export type ExtractionCreate = z.infer<typeof ExtractionCreate>;

export const EXTRACTED_FIELDS = [
  'member_name',
  'member_id',
  'group_number',
  'plan_name',
  'rx_bin',
  'rx_group',
  'rx_pcn',
  'payer_name',
] as const;
export type ExtractedFieldName = (typeof EXTRACTED_FIELDS)[number];

export const ExtractedField = z.object({
  value: z.string(),
  confidence: z.number().min(0).max(1),
  /** What the value rests on, in the desk's words: the payer's "the website bcbstx.com and the name on the card". */
  evidence: z.string().max(300).optional(),
  /** Read from a barcode on the card, or from a digital card (SMART Health Card or Link): exact, and it wins over the OCR. */
  source: z.enum(['barcode', 'digital_card']).optional(),
});
export type ExtractedField = z.infer<typeof ExtractedField>;

export const ExtractedFields = z.object(
  Object.fromEntries(EXTRACTED_FIELDS.map((name) => [name, ExtractedField.optional()])) as Record<
    ExtractedFieldName,
    z.ZodOptional<typeof ExtractedField>
  >,
);
export type ExtractedFields = z.infer<typeof ExtractedFields>;

export const ExtractionEngine = z.enum(['on_device', 'upstream']);

/** docs/decisions.md (contract decisions): the extraction record. */
export const Extraction = z.object({
  id: Id,
  insurance_card_id: Id,
  status: Status,
  created_at: Timestamp,
  finished_at: Timestamp.optional(),
  engine: ExtractionEngine,
  fields: ExtractedFields.optional(),
  text: z.string().optional(),
  failure_reason: z.string().optional(),
  sync: SyncInfo.optional(),
});
export type Extraction = z.infer<typeof Extraction>;
