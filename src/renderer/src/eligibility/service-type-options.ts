import { COMMON_SERVICE_TYPES, SERVICE_TYPES, SERVICE_TYPE_X12, serviceTypeLabel, type ServiceType } from '../../../shared/contract';

export interface ServiceTypeOption {
  value: ServiceType;
  label: string;
  /** The X12 code, shown beside the label: billing staff often know types by it. */
  code: string | null;
  common: boolean;
}

const COMMON = new Set<ServiceType>(COMMON_SERVICE_TYPES);

/** The common types first (in the desk's order), then the rest alphabetically. */
export const SERVICE_TYPE_OPTIONS: readonly ServiceTypeOption[] = [
  ...COMMON_SERVICE_TYPES,
  ...[...SERVICE_TYPES].filter((type) => !COMMON.has(type)).sort(),
].map((value) => ({ value, label: serviceTypeLabel(value), code: SERVICE_TYPE_X12[value], common: COMMON.has(value) }));

/**
 * Options matching what was typed: every word must start a word of the label, or the text
 * is the X12 code ("98", "UC"). Order is kept, so common types stay first.
 */
export function filterServiceTypes(query: string, options: readonly ServiceTypeOption[] = SERVICE_TYPE_OPTIONS): ServiceTypeOption[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...options];
  return options.filter((option) => {
    if (option.code && option.code.toLowerCase() === query.trim().toLowerCase()) return true;
    const labelWords = option.label.toLowerCase().split(/\s+/);
    return words.every((word) => labelWords.some((labelWord) => labelWord.startsWith(word)));
  });
}
