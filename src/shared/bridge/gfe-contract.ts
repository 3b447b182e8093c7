import { z } from 'zod';
import { Id, Timestamp } from '../contract';
import { isValidNpi } from '../npi';
import { LocalDate } from './local-date';

/**
 * The Good Faith Estimate for an uninsured or self-pay patient (issue 30, item 5; No
 * Surprises Act, 45 CFR 149.610). Desk-local like appointments: the upstream contract has
 * none. A GFE is issued once and stored whole, so printing it again gives the same document.
 */

const Cents = z.number().int().nonnegative();
const Text = (max: number) => z.string().trim().min(1).max(max);

/** The provider's and facility's details the rule requires on the GFE (Settings keeps them). */
export const GfePractice = z.strictObject({
  facility_name: Text(200),
  facility_npi: z.string().trim().refine(isValidNpi, 'an NPI is 10 digits with a valid check digit'),
  /** The Taxpayer Identification Number: 9 digits, written 12-3456789 or 123456789. */
  tin: z
    .string()
    .trim()
    .regex(/^\d{2}-?\d{7}$/, 'a TIN is 9 digits, as 12-3456789'),
  /** Where the items and services are furnished: street, city, state and ZIP as one line. */
  location: Text(300),
});
export type GfePractice = z.infer<typeof GfePractice>;

/** CPT (5 digits, or 4 and a letter for Category II/III) or HCPCS Level II (a letter and 4 digits). */
export const SERVICE_CODE = /^(\d{4}[0-9FTU]|[A-V]\d{4})$/;
/** ICD-10-CM: a letter, two characters, then up to four after an optional dot. */
export const DIAGNOSIS_CODE = /^[A-TV-Z]\d[0-9A-Z](\.?[0-9A-Z]{1,4})?$/;

export const GfeItemInput = z.strictObject({
  /** The CPT or HCPCS code: the fee schedule's row for it gives the expected charge. */
  code: z.string().trim().toUpperCase().regex(SERVICE_CODE, 'a CPT code (5 digits) or HCPCS code (a letter and 4 digits)'),
  description: Text(200).optional(),
  quantity: z.number().int().min(1).max(99).default(1),
});

export const GfeIssueInput = z.strictObject({
  appointment_id: Id,
  /** What the visit is for, in plain words ("Office visit, established patient"); default: the appointment's visit type. */
  primary_service: Text(200).optional(),
  items: z.array(GfeItemInput).min(1, 'a GFE lists at least one expected item or service').max(50),
  diagnosis_codes: z.array(z.string().trim().toUpperCase().regex(DIAGNOSIS_CODE, 'an ICD-10-CM code, as E11.9')).max(12).default([]),
  /** Items or services the patient will be scheduled for separately, each with its own GFE. */
  scheduled_separately: z.array(Text(200)).max(20).default([]),
  /** The practice's details, saved for the next GFE; without them, the ones saved before. */
  practice: GfePractice.optional(),
});
export type GfeIssueInput = z.input<typeof GfeIssueInput>;

export const GfeItem = z.object({
  code: z.string(),
  description: z.string(),
  quantity: z.number().int().min(1),
  unit_charge_cents: Cents,
  charge_cents: Cents,
});
export type GfeItem = z.infer<typeof GfeItem>;

/** The document as issued: everything the rule asks for, frozen at issue. */
export const GfeDocument = z.object({
  issued_on: LocalDate,
  patient: z.object({ first_name: z.string(), last_name: z.string(), date_of_birth: z.string() }),
  service_on: LocalDate,
  primary_service: z.string(),
  provider: z.object({ name: z.string(), npi: z.string() }),
  facility: z.object({ name: z.string(), npi: z.string(), tin: z.string(), location: z.string() }),
  items: z.array(GfeItem),
  total_cents: Cents,
  diagnosis_codes: z.array(z.string()),
  scheduled_separately: z.array(z.string()),
  disclaimers: z.array(z.string()),
});
export type GfeDocument = z.infer<typeof GfeDocument>;

export const GfeRule = z.enum(['scheduled_3_to_9', 'scheduled_10_or_more', 'requested', 'not_required']);

/** One appointment's GFE: due (marked self-pay, not yet given) or issued. */
export const GoodFaithEstimate = z.object({
  id: Id,
  appointment_id: Id,
  patient_id: Id.nullable(),
  state: z.enum(['due', 'issued']),
  /** The rule that set the deadline, and the deadline; null when none is required (booked under 3 business days ahead). */
  rule: GfeRule,
  due_on: LocalDate.nullable(),
  scheduled_on: LocalDate,
  requested_on: LocalDate.nullable(),
  created_at: Timestamp,
  issued_at: Timestamp.nullable(),
  document: GfeDocument.nullable(),
});
export type GoodFaithEstimate = z.infer<typeof GoodFaithEstimate>;
/** What a worklist row carries: the GFE without its document. */
export const GfeStatus = GoodFaithEstimate.omit({ document: true });
export type GfeStatus = z.infer<typeof GfeStatus>;

export const GfeSelfPayInput = z.strictObject({
  appointment_id: Id,
  /** The patient asked for a GFE: due 3 business days after today, whenever the visit is. */
  requested: z.boolean().default(false),
});
export type GfeSelfPayInput = z.input<typeof GfeSelfPayInput>;
export const GfeGetInput = z.strictObject({ id: Id });
export const GfePracticeSaved = z.object({ practice: GfePractice.nullable() });
