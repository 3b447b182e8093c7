import type { ExtractedFieldName } from '../../shared/contract';
import { DigitalCardFailure } from './digital-card-failure';

/**
 * The card's fields from FHIR: the CARIN Digital Insurance Card `Coverage` with its
 * beneficiary and subscriber `Patient`s and its payer `Organization`. What has no field of
 * its own (payer id, Rx ID, members on the plan, copays by visit type) goes in `extra`.
 */

type Json = Record<string, unknown>;

export interface Copay {
  /** The CARIN or FHIR copay type code: `gpvisit`, `spvisit`, `emergency`, `rx`, `FamInDed`… */
  type: string;
  label: string | null;
  /** Whole cents, when the card states an amount. */
  cents: number | null;
  /** When the card states words instead ("DED THEN $10/$40/$70/25%", "N/A"). */
  text: string | null;
}

export interface PlanMember {
  member_id: string | null;
  name: string | null;
}

export interface CoverageExtra {
  payer_id?: string;
  rx_id?: string;
  plan_id?: string;
  subscriber_id?: string;
  subscriber_name?: string;
  relationship?: string;
  member_birth_date?: string;
  members?: PlanMember[];
  copays?: Copay[];
}

export interface CoverageMapping {
  fields: Partial<Record<ExtractedFieldName, string>>;
  extra: CoverageExtra;
}

const obj = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

function codes(concept: unknown): string[] {
  return arr(obj(concept).coding).map((coding) => str(obj(coding).code) ?? '');
}

function humanName(name: unknown): string | undefined {
  const n = obj(name);
  const text = str(n.text);
  if (text) return text;
  const parts = [...arr(n.given).map(str), str(n.family)].filter(Boolean);
  return parts.length ? parts.join(' ') : undefined;
}

/** The resources of a bundle, or of a bare list of entries (what a SMART Health Link may carry). */
export function bundleResources(content: unknown): { fullUrl?: string; resource: Json }[] {
  const body = obj(content);
  const entries = Array.isArray(content) ? content : body.resourceType === 'Bundle' ? arr(body.entry) : body.resourceType ? [{ resource: body }] : [];
  return entries.map((entry) => ({ fullUrl: str(obj(entry).fullUrl), resource: obj(obj(entry).resource) })).filter((entry) => str(entry.resource.resourceType));
}

function resolver(resources: { fullUrl?: string; resource: Json }[]) {
  return (reference: unknown): Json | undefined => {
    const ref = str(obj(reference).reference);
    if (!ref) return undefined;
    return resources.find(
      ({ fullUrl, resource }) => fullUrl === ref || `${String(resource.resourceType)}/${String(resource.id)}` === ref || (fullUrl !== undefined && fullUrl.endsWith(`/${ref}`)),
    )?.resource;
  };
}

function copayOf(cost: unknown): Copay {
  const c = obj(cost);
  const coding = obj(arr(obj(c.type).coding)[0]);
  const money = obj(c.valueMoney);
  const words = arr(money.extension).map((ext) => str(obj(ext).valueString)).find(Boolean);
  const amount = typeof money.value === 'number' && Number.isFinite(money.value) && money.value >= 0 ? Math.round(money.value * 100) : null;
  const quantity = obj(c.valueQuantity);
  return {
    type: str(coding.code) ?? 'unknown',
    label: str(coding.display) ?? str(obj(c.type).text) ?? null,
    cents: amount,
    text: words ?? (typeof quantity.value === 'number' ? `${quantity.value}${str(quantity.unit) ?? ''}` : null),
  };
}

export function mapCoverage(content: unknown): CoverageMapping {
  const resources = bundleResources(content);
  const coverage = resources.find(({ resource }) => resource.resourceType === 'Coverage')?.resource;
  if (!coverage) {
    const kinds = [...new Set(resources.map(({ resource }) => String(resource.resourceType)))].join(', ') || 'nothing';
    throw new DigitalCardFailure(`The digital card carries no insurance coverage (it holds ${kinds}): there is nothing to fill.`);
  }
  const resolve = resolver(resources);
  const fields: Partial<Record<ExtractedFieldName, string>> = {};
  const extra: CoverageExtra = {};

  const identifiers = arr(coverage.identifier).map(obj);
  const memberId = str(identifiers.find((id) => codes(id.type).includes('MB'))?.value) ?? str(identifiers[0]?.value) ?? str(coverage.subscriberId);
  if (memberId) fields.member_id = memberId;

  const beneficiary = resolve(coverage.beneficiary);
  const memberName = humanName(arr(beneficiary?.name)[0]) ?? str(obj(coverage.beneficiary).display);
  if (memberName) fields.member_name = memberName;
  if (str(beneficiary?.birthDate)) extra.member_birth_date = str(beneficiary?.birthDate);

  const subscriber = resolve(coverage.subscriber);
  const subscriberName = humanName(arr(subscriber?.name)[0]) ?? str(obj(coverage.subscriber).display);
  if (subscriberName) extra.subscriber_name = subscriberName;
  if (str(coverage.subscriberId)) extra.subscriber_id = str(coverage.subscriberId);
  const relationship = str(obj(coverage.relationship).text) ?? codes(coverage.relationship)[0];
  if (relationship) extra.relationship = relationship;

  for (const entry of arr(coverage.class).map(obj)) {
    const value = str(entry.value);
    if (!value) continue;
    const code = codes(entry.type)[0];
    if (code === 'group') fields.group_number = value;
    else if (code === 'plan') {
      fields.plan_name = str(entry.name) ?? value;
      extra.plan_id = value;
    } else if (code === 'rxbin') fields.rx_bin = value;
    else if (code === 'rxpcn') fields.rx_pcn = value;
    else if (code === 'rxgroup') fields.rx_group = value;
    else if (code === 'rxid') extra.rx_id = value;
  }

  const payorRef = arr(coverage.payor)[0];
  const payer = resolve(payorRef);
  const payerName = str(payer?.name) ?? str(obj(payorRef).display) ?? str(obj(identifiers[0]?.assigner).display);
  if (payerName) fields.payer_name = payerName;
  const payerId = str(arr(payer?.identifier).map(obj).find((id) => codes(id.type).some((code) => code.toLowerCase() === 'payerid'))?.value);
  if (payerId) extra.payer_id = payerId;

  const members = arr(coverage.extension)
    .map(obj)
    .filter((ext) => str(ext.url)?.endsWith('PlanBeneficiaries-extension'))
    .map((ext) => {
      const parts = arr(ext.extension).map(obj);
      const part = (url: string) => parts.find((p) => p.url === url);
      return { member_id: str(part('memberId')?.valueId) ?? str(part('memberId')?.valueString) ?? null, name: humanName(part('name')?.valueHumanName) ?? null };
    });
  if (members.length) extra.members = members;

  const copays = arr(coverage.costToBeneficiary).map(copayOf);
  if (copays.length) extra.copays = copays;
  return { fields, extra };
}
