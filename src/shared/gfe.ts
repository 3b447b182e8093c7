import type { FieldError } from './contract';
import type { GfeDocument, GfeItem, GfePractice } from './bridge/gfe-contract';
import { validationFailed } from './service-error';

/**
 * The Good Faith Estimate's content (45 CFR 149.610(c)): the patient, the primary item or
 * service, the expected items and services with their codes and charges, the provider and
 * facility (name, NPI, TIN, location), the diagnosis codes when known, what is scheduled
 * separately, and the disclaimers the rule requires, dated. Built once at issue; the stored
 * document is what every re-print shows.
 */

/** The disclaimers, in the words of HHS's standard GFE form, with the rule's $400 threshold. */
export const GFE_DISCLAIMERS: readonly string[] = [
  'This Good Faith Estimate shows the costs of items and services that are reasonably expected for your health care needs for an item or service. The estimate is based on information known at the time the estimate was created. It is only an estimate: actual items, services or charges may differ.',
  'The Good Faith Estimate does not include any unknown or unexpected costs that may arise during treatment. You could be charged more if complications or special circumstances occur.',
  'If you are billed for at least $400 more than this Good Faith Estimate, you have the right to dispute the bill through the patient-provider dispute resolution process. You may first contact the provider or facility listed to ask them to update the bill to match the Good Faith Estimate, to negotiate the bill, or to ask whether financial assistance is available. You must start the dispute process within 120 calendar days (about 4 months) of the date on the original bill. There is a $25 fee to use the dispute process. To learn more and get a form to start the process, go to www.cms.gov/nosurprises or call 1-800-985-3059.',
  'Keep a copy of this Good Faith Estimate in a safe place or take pictures of it. You may need it if you are billed a higher amount.',
  'This Good Faith Estimate is not a contract and does not require you to obtain the items or services from any of the providers or facilities identified in it.',
  'Items or services listed as scheduled separately are not included in this estimate; you will receive a separate Good Faith Estimate for them.',
];

export interface GfeBuildInput {
  issued_on: string;
  patient: GfeDocument['patient'];
  service_on: string;
  primary_service: string;
  provider: GfeDocument['provider'];
  practice: GfePractice;
  items: { code: string; description?: string; quantity: number }[];
  /** The self-pay charge for a code (the fee schedule's default row), in cents; null when it has none. */
  chargeFor(code: string): number | null;
  diagnosis_codes: string[];
  scheduled_separately: string[];
}

/** A TIN as it is printed: 12-3456789. */
const formatTin = (tin: string) => {
  const digits = tin.replace(/\D/g, '');
  return `${digits.slice(0, 2)}-${digits.slice(2)}`;
};

export function buildGfeDocument(input: GfeBuildInput): GfeDocument {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const items: GfeItem[] = [];
  input.items.forEach((item, i) => {
    if (seen.has(item.code)) {
      errors.push({ path: `items[${i}].code`, code: 'duplicate_item', message: `Item ${i + 1} repeats code ${item.code}: list it once with its quantity.` });
      return;
    }
    seen.add(item.code);
    const unit = input.chargeFor(item.code);
    if (unit === null) {
      errors.push({
        path: `items[${i}].code`,
        code: 'no_charge',
        message: `Item ${i + 1} (code ${item.code}) has no self-pay charge: add a default row for ${item.code} to the fee schedule in Settings.`,
      });
      return;
    }
    items.push({ code: item.code, description: item.description ?? (i === 0 ? input.primary_service : `Code ${item.code}`), quantity: item.quantity, unit_charge_cents: unit, charge_cents: unit * item.quantity });
  });
  if (errors.length > 0) throw validationFailed(errors);
  return {
    issued_on: input.issued_on,
    patient: input.patient,
    service_on: input.service_on,
    primary_service: input.primary_service,
    provider: input.provider,
    facility: { name: input.practice.facility_name, npi: input.practice.facility_npi, tin: formatTin(input.practice.tin), location: input.practice.location },
    items,
    total_cents: items.reduce((sum, item) => sum + item.charge_cents, 0),
    diagnosis_codes: [...new Set(input.diagnosis_codes)],
    scheduled_separately: input.scheduled_separately,
    disclaimers: [...GFE_DISCLAIMERS],
  };
}
