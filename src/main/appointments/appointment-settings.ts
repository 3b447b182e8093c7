import { eq, inArray } from 'drizzle-orm';
import { inTransaction, type Db } from '../db/open-database';
import { settings } from '../db/schema';
import { AppointmentSettings, ColumnMapping, type AppointmentSettingsUpdate } from '../../shared/bridge/appointment-contract';
import type { z } from 'zod';
import { nameKey } from './schedule-values';

/**
 * The visit types practices use most, each with the service type a payer answers for it.
 * A practice adds its own names in Settings; a visit type in none is refused on import
 * rather than checked for the wrong service.
 */
export const DEFAULT_VISIT_TYPES: AppointmentSettings['visit_types'] = {
  'office visit': 'professional_physician_visit_office',
  'new patient': 'professional_physician_visit_office',
  'follow up': 'professional_physician_visit_office',
  'follow-up': 'professional_physician_visit_office',
  'established patient': 'professional_physician_visit_office',
  'sick visit': 'physician_visit_office_sick',
  physical: 'physician_visit_office_well',
  'annual physical': 'physician_visit_office_well',
  'well visit': 'physician_visit_office_well',
  'well child': 'well_baby_care',
  consultation: 'consultation',
  telehealth: 'professional_physician_visit_office',
  'urgent care': 'urgent_care',
  lab: 'diagnostic_lab',
  'x-ray': 'diagnostic_x_ray',
  'physical therapy': 'physical_therapy',
  'mental health': 'mental_health',
  chiropractic: 'chiropractic_office_visits',
  'eye exam': 'vision_optometry',
};

export const DEFAULT_APPOINTMENT_SETTINGS: AppointmentSettings = { visit_types: DEFAULT_VISIT_TYPES, recheck_days: 7, max_in_flight: 4, discover_without_insurance: false };

const KEYS = {
  visit_types: 'appointments.visit_types',
  recheck_days: 'appointments.recheck_days',
  max_in_flight: 'appointments.max_in_flight',
  discover_without_insurance: 'appointments.discover_without_insurance',
} as const;
const MAPPING_PREFIX = 'appointments.column_mapping:';

export interface AppointmentSettingsStore {
  read(): AppointmentSettings;
  update(change: z.infer<typeof AppointmentSettingsUpdate>): AppointmentSettings;
  /** The mapping the desk confirmed last time for a file with these headers. */
  rememberedMapping(headers: string[]): ColumnMapping | null;
  rememberMapping(headers: string[], mapping: ColumnMapping): void;
}

/** Headers identify a scheduling system's export: the same columns get the same mapping next time. */
const headersKey = (headers: string[]) => MAPPING_PREFIX + headers.map((h) => h.trim().toLowerCase()).join('\u001f');

export function createAppointmentSettings(deps: { db: Db }): AppointmentSettingsStore {
  const { db } = deps;
  const read = (): AppointmentSettings => {
    const rows = db.select().from(settings).where(inArray(settings.key, Object.values(KEYS))).all();
    const value = (key: string) => rows.find((row) => row.key === key)?.value;
    // A value this version cannot read (an older or newer one) is as if none were saved.
    const parsed = AppointmentSettings.safeParse({
      visit_types: value(KEYS.visit_types) ?? DEFAULT_APPOINTMENT_SETTINGS.visit_types,
      recheck_days: value(KEYS.recheck_days) ?? DEFAULT_APPOINTMENT_SETTINGS.recheck_days,
      max_in_flight: value(KEYS.max_in_flight) ?? DEFAULT_APPOINTMENT_SETTINGS.max_in_flight,
      discover_without_insurance: value(KEYS.discover_without_insurance) ?? DEFAULT_APPOINTMENT_SETTINGS.discover_without_insurance,
    });
    return parsed.success ? parsed.data : DEFAULT_APPOINTMENT_SETTINGS;
  };
  const put = (key: string, value: unknown) =>
    db.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } }).run();
  return {
    read,
    update(change) {
      inTransaction(db, () => {
        for (const field of Object.keys(KEYS) as (keyof typeof KEYS)[]) {
          if (change[field] === undefined) continue;
          const value = field === 'visit_types' ? Object.fromEntries(Object.entries(change.visit_types!).map(([k, v]) => [nameKey(k), v])) : change[field];
          put(KEYS[field], value);
        }
      });
      return read();
    },
    rememberedMapping(headers) {
      if (headers.length === 0) return null;
      const row = db.select().from(settings).where(eq(settings.key, headersKey(headers))).get();
      const parsed = ColumnMapping.safeParse(row?.value);
      return parsed.success ? parsed.data : null;
    },
    rememberMapping(headers, mapping) {
      if (headers.length > 0) put(headersKey(headers), mapping);
    },
  };
}

/** The service type a visit type maps to: `undefined` when the visit type is not one the practice knows. */
export function serviceTypeForVisit(visitTypes: AppointmentSettings['visit_types'], visitType: string): AppointmentSettings['visit_types'][string] | undefined {
  const wanted = nameKey(visitType);
  for (const [name, serviceType] of Object.entries(visitTypes)) if (nameKey(name) === wanted) return serviceType;
  return undefined;
}
