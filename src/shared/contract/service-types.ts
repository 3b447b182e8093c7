import { z } from 'zod';
import { SERVICE_TYPE_TABLE } from './service-types.generated';

export type ServiceTypeName = (typeof SERVICE_TYPE_TABLE)[number][0];

export const SERVICE_TYPES = SERVICE_TYPE_TABLE.map(([name]) => name) as unknown as readonly [
  ServiceTypeName,
  ...ServiceTypeName[],
];

export const ServiceType = z.enum(SERVICE_TYPES);
export type ServiceType = z.infer<typeof ServiceType>;

/**
 * X12 service type code (EQ01 / EB03) for each service type; null for the two seed types
 * (escrow_or_impound_service, non_escrow_or_non_impound_service) that X12 has no code for.
 */
export const SERVICE_TYPE_X12 = Object.fromEntries(SERVICE_TYPE_TABLE) as Readonly<Record<ServiceType, string | null>>;

const BY_X12 = new Map<string, ServiceType>(
  SERVICE_TYPE_TABLE.flatMap(([name, code]) => (code === null ? [] : [[code, name] as const])),
);

export function serviceTypeFromX12(code: string): ServiceType | undefined {
  return BY_X12.get(code);
}

export const DEFAULT_SERVICE_TYPE: ServiceType = 'health_benefit_plan_coverage';

/** The types a front desk asks about most, offered first in pickers. */
export const COMMON_SERVICE_TYPES: readonly ServiceType[] = [
  'health_benefit_plan_coverage',
  'professional_physician_visit_office',
  'physician_visit_office_sick',
  'physician_visit_office_well',
  'urgent_care',
  'emergency_services',
  'diagnostic_lab',
  'diagnostic_x_ray',
  'mental_health',
  'physical_therapy',
  'chiropractic',
  'vision_optometry',
  'dental_care',
  'pharmacy',
];

/** "physician_visit_office_sick" → "Physician visit office sick". */
export function serviceTypeLabel(type: ServiceType): string {
  const words = type.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
