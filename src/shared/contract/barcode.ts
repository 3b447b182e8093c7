import { z } from 'zod';
import { DateOfBirth } from './common';
import { EXTRACTED_FIELDS, type ExtractedFieldName } from './extraction';

/** What a barcode was: zxing's format name ("QRCode", "PDF417", "DataMatrix", "Aztec"), or "text" when a scanner or the local API gave its decoded text. */
export const BarcodeFormat = z.string().min(1).max(40);

export const LicenceDetails = z.object({
  document: z.enum(['driver_licence', 'id_card']),
  /** The jurisdiction's issuer number (the licence number is never kept). */
  issuer_id: z.string(),
  aamva_version: z.number().int(),
  family_name: z.string(),
  first_name: z.string(),
  middle_name: z.string().optional(),
  date_of_birth: DateOfBirth,
  sex: z.enum(['male', 'female', 'unspecified']).optional(),
  address: z
    .object({ street: z.string(), city: z.string().optional(), state: z.string().optional(), postal_code: z.string().optional(), country: z.string().optional() })
    .optional(),
});
export type LicenceDetails = z.infer<typeof LicenceDetails>;

const BarcodeFields = z.object(
  Object.fromEntries(EXTRACTED_FIELDS.map((name) => [name, z.string().optional()])) as Record<ExtractedFieldName, z.ZodOptional<z.ZodString>>,
);

/**
 * One barcode read (docs/decisions.md, "Barcodes"): a driver's licence's details to offer the
 * desk (never filled silently), a health card's or a digital card's fields, or a payload of
 * no known layout kept as it was. `status`: `read`; `invalid` with the reason (a damaged or
 * incomplete payload: nothing of it is used); a digital card's verification.
 */
export const BarcodeReading = z.object({
  format: BarcodeFormat,
  kind: z.enum(['licence', 'payer', 'digital_card', 'unknown']),
  status: z.enum(['read', 'invalid', 'verified', 'not_verified', 'waiting', 'failed']),
  reason: z.string().optional(),
  licence: LicenceDetails.optional(),
  fields: BarcodeFields.optional(),
  /** A health card's issuer id (80840…) and the date of birth it carries. */
  issuer_id: z.string().optional(),
  date_of_birth: z.string().optional(),
  /** A payload of no known layout, exactly as read. */
  raw: z.string().optional(),
  /**
   * A SMART Health Link read while offline (`status: waiting`): its id, under which its
   * result is reported (`digitalCards.waitingLink`) once the desk is back online.
   */
  waiting_id: z.string().optional(),
});
export type BarcodeReading = z.infer<typeof BarcodeReading>;

/** A payload a scanner or scanner software decoded itself: the text, as the barcode held it. */
export const BarcodeText = z.string().min(1, 'must not be empty').max(8192, 'must be at most 8,192 characters (a barcode holds less)');

/** The local API's `POST /v1/barcode_readings`: a payload scanner software decoded itself. */
export const BarcodeReadingCreate = z.strictObject({ barcode_text: BarcodeText });
export type BarcodeReadingCreate = z.infer<typeof BarcodeReadingCreate>;
