import { eq } from 'drizzle-orm';
import { inTransaction, type Db } from '../db/open-database';
import { appointments, providers } from '../db/schema';
import { insertCreated, outboxEffects } from '../operations/local-service';
import type { Clock } from '../support/clock';
import type { IdGenerator } from '../support/ids';
import {
  AppointmentCreate,
  type Appointment,
  readRelationship,
  saysNoInsurance,
  type AppointmentSettings,
  type CardOutcome,
  type ColumnMapping,
  type ImportCounts,
  type ImportResult,
  type ImportRowResult,
  type PatientMatch,
  type ScheduleField,
  type SchedulePreview,
  type SkipReason,
} from '../../shared/bridge/appointment-contract';
import type { ServiceType, Source } from '../../shared/contract';
import { ServiceError, validationFailed } from '../../shared/service-error';
import { serviceTypeForVisit, type AppointmentSettingsStore } from './appointment-settings';
import { appointmentRow, toAppointment, type AppointmentRow } from './appointment-store';
import { loadPatientIndex, type PatientIndex } from './patient-match';
import { discoverWithoutInsurance, ensureScheduleCard, payerResolver } from './schedule-card';
import { detectMapping, mappingProblems, readScheduleTable, type ScheduleTable } from './schedule-file';
import { nameKey, personKey, readAppointmentDate, readDateOfBirth, readTime, splitPatientName } from './schedule-values';

export interface AppointmentDeps {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  settings: AppointmentSettingsStore;
  /** The practice's defaults (Settings): the provider and service type used where a row names none. */
  practice(): { default_provider_id: string | null; default_service_type: ServiceType | null };
  photoUrl(objectKey: string): string;
  /** Told after an import or create commits, so the UI refreshes (and the sync worker sends the cards made). */
  onChange?(change: { collection: 'appointments' | 'patients' | 'insurance_cards' | 'electronic_eligibility_discoveries'; id: string }): void;
}

/** An appointment ready to store: every value normalised and its references resolved. */
export interface NormalAppointment {
  date: string;
  time: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  member_id: string | null;
  payer: string | null;
  clearinghouse_entity_id: string | null;
  payer_candidate_ids: string[];
  group_number: string | null;
  relationship: 'self' | 'spouse' | 'child' | 'other' | null;
  phone: string | null;
  provider_id: string | null;
  visit_type: string | null;
  service_type: ServiceType | null;
  location: string | null;
  external_id: string | null;
}

interface Skip {
  reason: SkipReason;
  field: string;
  message: string;
}

/** The desk's local date on this computer: appointments are in the practice's own day. */
export function localDate(now: Date): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** Resolves names the scheduling system uses (the providers and visit types the desk knows). */
interface Resolver {
  provider(cell: string): string | null | undefined;
  serviceType(visitType: string): ServiceType | null | undefined;
  payer(cell: string): ReturnType<ReturnType<typeof payerResolver>>;
}

function createResolver(deps: AppointmentDeps, appointmentSettings: AppointmentSettings): Resolver {
  const practice = deps.practice();
  const known = deps.db.select().from(providers).all();
  // "Dr. Amara Okafor, MD", "Amara Okafor", "OKAFOR, AMARA" and the NPI all name one provider.
  const bare = (name: string) => nameKey(name.replace(/,\s*(md|do|np|pa|pa-c|dpt|phd|lcsw|psyd|dc|od)\.?$/i, '').replace(/^dr\.?\s+/i, ''));
  const byKey = new Map<string, string>();
  for (const p of known) {
    byKey.set(p.id.toLowerCase(), p.id);
    byKey.set(p.npi, p.id);
    byKey.set(nameKey(p.name), p.id);
    byKey.set(bare(p.name), p.id);
    const words = bare(p.name).split(' ');
    if (words.length === 2) byKey.set(`${words[1]} ${words[0]}`, p.id);
  }
  let payers: ReturnType<typeof payerResolver> | undefined;
  return {
    // Built on first use: a schedule without insurance never reads the payer directory.
    payer: (cell) => (payers ??= payerResolver(deps.db))(cell),
    provider(cell) {
      if (!cell) return practice.default_provider_id;
      const comma = /^([^,]+),\s*([^,]+)$/.exec(cell);
      return byKey.get(cell.toLowerCase()) ?? byKey.get(nameKey(cell)) ?? byKey.get(bare(cell)) ?? (comma ? byKey.get(bare(`${comma[2]} ${comma[1]}`)) : undefined);
    },
    serviceType(visitType) {
      if (!visitType) return practice.default_service_type;
      return serviceTypeForVisit(appointmentSettings.visit_types, visitType);
    },
  };
}

type Insurance = Pick<NormalAppointment, 'member_id' | 'payer' | 'clearinghouse_entity_id' | 'payer_candidate_ids' | 'group_number' | 'relationship'>;

/**
 * The row's insurance: all of member id and payer (group and relationship where given), or
 * none of it. Half of it is refused, naming the column that is missing, rather than
 * imported as a card that cannot be checked. `payerColumn`: the file has a payer column,
 * so a member id without a payer is a gap in the row, not a file that never had payers.
 */
function normaliseInsurance(resolver: Resolver, input: AppointmentCreate, payerColumn: boolean): Insurance | Skip {
  const none: Insurance = { member_id: input.member_id ?? null, payer: null, clearinghouse_entity_id: null, payer_candidate_ids: [], group_number: null, relationship: null };
  const { member_id, payer, group_number, relationship } = input;
  if (!member_id && !payer && !group_number && !relationship) return none;
  if (!member_id) {
    const given = payer ? 'a payer' : group_number ? 'a group number' : 'a relationship';
    return { reason: 'incomplete_insurance', field: 'member_id', message: `The row has ${given} but no member id: fill in the member id, or leave the insurance columns empty for a patient without insurance.` };
  }
  if (!payer) {
    if (!payerColumn && !group_number && !relationship) return none;
    return { reason: 'incomplete_insurance', field: 'payer', message: 'The row has a member id but no payer: fill in the payer (its name or payer id), or leave the insurance columns empty for a patient without insurance.' };
  }
  let parsedRelationship: Insurance['relationship'] = null;
  if (relationship) {
    parsedRelationship = readRelationship(relationship);
    if (!parsedRelationship) return { reason: 'invalid_relationship', field: 'relationship', message: 'The relationship is not one Coverdesk knows: use self, spouse, child or other (or 18, 01, 19, G8).' };
  }
  const found = resolver.payer(payer);
  if (found.kind === 'none') {
    return { reason: 'unknown_payer', field: 'payer', message: 'The payer is not in the payer directory: use its name or payer id as the payer picker lists it (Intake or Eligibility).' };
  }
  return {
    member_id,
    payer,
    clearinghouse_entity_id: found.kind === 'matched' ? found.entry.id : null,
    payer_candidate_ids: found.kind === 'ambiguous' ? found.entries.map((e) => e.id) : [],
    group_number: group_number ?? null,
    relationship: parsedRelationship,
  };
}

/**
 * Validates one appointment's values (from a row or JSON) and resolves its provider,
 * visit type and payer. Answers the first problem, naming the field and what is allowed.
 */
function normalise(resolver: Resolver, input: AppointmentCreate, payerColumn = false): NormalAppointment | Skip {
  const provider_id = resolver.provider(input.provider ?? '');
  if (provider_id === undefined) {
    return { reason: 'unknown_provider', field: 'provider', message: 'The provider is not one this practice has: use a provider name or NPI from Settings, or leave it empty for the default provider.' };
  }
  const service_type = resolver.serviceType(input.visit_type ?? '');
  if (service_type === undefined) {
    return { reason: 'unknown_visit_type', field: 'visit_type', message: 'The visit type is not one Settings maps to a service type: add it on the Schedule screen under “Visit types and batch checks”, or leave it empty for the practice default.' };
  }
  const insurance = normaliseInsurance(resolver, input, payerColumn);
  if (isSkip(insurance)) return insurance;
  return {
    ...insurance,
    date: input.date,
    time: input.time,
    first_name: input.first_name,
    last_name: input.last_name,
    date_of_birth: input.date_of_birth,
    phone: input.phone ?? null,
    provider_id,
    visit_type: input.visit_type ?? null,
    service_type,
    location: input.location ?? null,
    external_id: input.external_id ?? null,
  };
}

/** A row's cells as an appointment create, or why it cannot be one. */
function rowToCreate(cells: string[], mapping: ColumnMapping, today: string): AppointmentCreate | Skip {
  const cell = (field: ScheduleField) => (mapping[field] === undefined ? '' : (cells[mapping[field]!] ?? '').trim());
  let first = cell('first_name');
  let last = cell('last_name');
  if ((!first || !last) && cell('patient_name')) {
    const split = splitPatientName(cell('patient_name'));
    if (split) ({ first_name: first, last_name: last } = split);
  }
  if (!first || !last) return { reason: 'missing_name', field: 'patient_name', message: 'The row has no patient first and last name.' };
  if (!cell('date_of_birth')) return { reason: 'missing_date_of_birth', field: 'date_of_birth', message: 'The row has no date of birth: it is needed to find the patient.' };
  const dob = readDateOfBirth(cell('date_of_birth'), today);
  if (!dob) {
    return { reason: 'invalid_date_of_birth', field: 'date_of_birth', message: 'The date of birth is not a real past date: use M/D/YYYY, YYYY-MM-DD or MM-DD-YY.' };
  }
  if (!cell('date')) return { reason: 'missing_date', field: 'date', message: 'The row has no appointment date.' };
  const day = readAppointmentDate(cell('date'));
  if (!day) return { reason: 'invalid_date', field: 'date', message: 'The appointment date is not a real date: use M/D/YYYY, YYYY-MM-DD or MM-DD-YY.' };
  const timeText = cell('time') || day.time || '';
  const time = readTime(timeText);
  if (!time) return { reason: 'invalid_time', field: 'time', message: 'The appointment time is missing or not a time: use 9:30 AM or 09:30 (24-hour).' };
  const optional = (field: ScheduleField) => cell(field) || undefined;
  // "SELF PAY" in the payer column, "N/A" in the member id: the patient has no insurance.
  const payer = optional('payer');
  const memberId = optional('member_id');
  const noInsurance = (payer !== undefined && saysNoInsurance(payer)) || (memberId !== undefined && saysNoInsurance(memberId));
  if (noInsurance && memberId !== undefined && !saysNoInsurance(memberId)) {
    return { reason: 'incomplete_insurance', field: 'payer', message: 'The payer says the patient has no insurance, but the row has a member id: fill in the payer, or clear the member id.' };
  }
  const candidate = {
    date: day.date,
    time,
    first_name: first,
    last_name: last,
    date_of_birth: dob,
    member_id: noInsurance ? undefined : memberId,
    payer: noInsurance ? undefined : payer,
    group_number: noInsurance ? undefined : optional('group_number'),
    relationship: noInsurance ? undefined : optional('relationship'),
    phone: optional('phone'),
    provider: optional('provider'),
    visit_type: optional('visit_type'),
    location: optional('location'),
    external_id: optional('external_id'),
  };
  const parsed = AppointmentCreate.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue.path[0] ?? '');
    return { reason: field === 'member_id' ? 'invalid_member_id' : 'invalid_field', field, message: `${field.replace(/_/g, ' ')} ${issue.message}.` };
  }
  return parsed.data;
}

const isSkip = (value: object): value is Skip => 'reason' in value;

/** The key that makes a re-import change nothing: the scheduling system's id, else date + time + the person. */
function dedupeKey(a: NormalAppointment): string {
  return a.external_id ? `ext:${a.external_id}` : `at:${a.date} ${a.time}|${personKey(a.first_name, a.last_name, a.date_of_birth)}`;
}

const COMPARED = ['date', 'time', 'first_name', 'last_name', 'date_of_birth', 'member_id', 'payer', 'group_number', 'relationship', 'phone', 'provider_id', 'visit_type', 'service_type', 'location'] as const;

type Written = { result: 'created' | 'updated' | 'unchanged'; appointment_id: string; patient: PatientMatch; card: CardOutcome } | { duplicateOf: number };

/**
 * Writes appointments in one transaction: all of them or, if anything throws, none. Rows
 * already imported are compared, not written again; a patient is matched, made, or the
 * appointment is left for a person to choose (`ambiguous`).
 */
function writeAppointments(deps: AppointmentDeps, items: { row: number; value: NormalAppointment }[], source: Source): Map<number, Written> {
  const { db, clock, ids } = deps;
  const effects = outboxEffects(deps);
  const discover = deps.settings.read().discover_without_insurance;
  const out = new Map<number, Written>();
  const created: { collection: 'appointments' | 'patients' | 'insurance_cards' | 'electronic_eligibility_discoveries'; id: string }[] = [];
  inTransaction(db, () => {
    const index: PatientIndex = loadPatientIndex(db, items.map((i) => i.value.date_of_birth));
    const seen = new Map<string, number>();
    const now = clock.now().toISOString();
    for (const { row, value } of items) {
      const key = dedupeKey(value);
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        out.set(row, { duplicateOf: earlier });
        continue;
      }
      seen.set(key, row);
      const existing = db.select().from(appointments).where(eq(appointments.dedupe_key, key)).get();
      if (existing) {
        const changed = COMPARED.filter((field) => (existing[field] ?? null) !== (value[field] ?? null));
        if (changed.length === 0) {
          // The card is made again only if it is missing (a patient chosen since, a card of another payer taken at the desk).
          const card = cardFor({ ...existing });
          out.set(row, { result: 'unchanged', appointment_id: existing.id, patient: existing.patient_match, card });
          continue;
        }
        // Rescheduled or corrected in the scheduling system: the same appointment, new values.
        // A new name or birth date is matched again; otherwise the desk's choice stands, and so
        // does its choice of payer while the schedule's payer is the same.
        const personChanged = changed.some((f) => f === 'first_name' || f === 'last_name' || f === 'date_of_birth');
        const patient = personChanged ? resolvePatient(value) : { patient_id: existing.patient_id, patient_match: existing.patient_match, candidate_patient_ids: existing.candidate_patient_ids };
        const payerChoice = existing.payer === value.payer && existing.clearinghouse_entity_id ? { clearinghouse_entity_id: existing.clearinghouse_entity_id, payer_candidate_ids: [] } : {};
        const next = { ...value, ...payerChoice, ...patient };
        db.update(appointments).set({ ...next, updated_at: now }).where(eq(appointments.id, existing.id)).run();
        const card = cardFor({ id: existing.id, ...next });
        out.set(row, { result: 'updated', appointment_id: existing.id, patient: patient.patient_match, card });
        created.push({ collection: 'appointments', id: existing.id });
        continue;
      }
      const patient = resolvePatient(value);
      const id = ids.next('apt');
      db.insert(appointments)
        .values({ id, dedupe_key: key, ...value, ...patient, created_at: now, updated_at: now })
        .run();
      const card = cardFor({ id, ...value, ...patient });
      created.push({ collection: 'appointments', id });
      out.set(row, { result: 'created', appointment_id: id, patient: patient.patient_match, card });
    }

    function cardFor(appointment: Parameters<typeof ensureScheduleCard>[2] & Pick<AppointmentRow, 'service_type'>): CardOutcome {
      const made = ensureScheduleCard(deps, effects, appointment, source);
      if (made.outcome === 'created') created.push({ collection: 'insurance_cards', id: made.card_id! });
      if (made.outcome === 'none' && discover) {
        const started = discoverWithoutInsurance(deps, effects, appointment, source);
        if (started) {
          created.push({ collection: 'insurance_cards', id: started.card_id }, { collection: 'electronic_eligibility_discoveries', id: started.discovery_id });
          return 'discovery';
        }
      }
      return made.outcome;
    }

    function resolvePatient(value: NormalAppointment): Pick<AppointmentRow, 'patient_id' | 'patient_match' | 'candidate_patient_ids'> {
      const match = index.match(value);
      if (match.kind === 'matched') return { patient_id: match.patient_id, patient_match: 'matched', candidate_patient_ids: [] };
      if (match.kind === 'ambiguous') return { patient_id: null, patient_match: 'ambiguous', candidate_patient_ids: match.candidate_patient_ids };
      const person = { first_name: value.first_name, last_name: value.last_name, date_of_birth: value.date_of_birth };
      const patient = insertCreated(deps, effects, 'patients', person, { source });
      index.add({ id: patient.id, ...person });
      created.push({ collection: 'patients', id: patient.id });
      return { patient_id: patient.id, patient_match: 'created', candidate_patient_ids: [] };
    }
  });
  for (const change of created) deps.onChange?.(change);
  return out;
}

export interface ImportInput {
  bytes: Uint8Array;
  /** The mapping the desk confirmed; absent: the one remembered for these headers, else detected. */
  mapping?: ColumnMapping;
  source: Source;
}

/** The mapping to use for a table: the desk's, else the remembered one, else the header names'. */
export function mappingFor(deps: Pick<AppointmentDeps, 'settings'>, table: ScheduleTable, given?: ColumnMapping): { mapping: ColumnMapping; source: 'detected' | 'remembered' } {
  if (given) return { mapping: given, source: 'remembered' };
  const remembered = deps.settings.rememberedMapping(table.headers);
  if (remembered) return { mapping: remembered, source: 'remembered' };
  return { mapping: detectMapping(table.headers), source: 'detected' };
}

/**
 * Imports a schedule export: every usable row goes in (in one transaction, so a failure
 * leaves nothing half-imported), every other row is answered with its reason.
 */
export function importSchedule(deps: AppointmentDeps, input: ImportInput): ImportResult {
  const table = readScheduleTable(input.bytes);
  const { mapping } = mappingFor(deps, table, input.mapping);
  const width = Math.max(table.headers.length, ...table.rows.map((r) => r.length));
  const problems = mappingProblems(mapping, width);
  if (problems.length > 0) {
    throw validationFailed(
      problems.map((field) => ({
        path: `mapping.${field}`,
        code: 'column_required',
        message:
          field === 'patient_name'
            ? 'Choose the column with the patient name (or the first and last name columns).'
            : `Choose the column that holds ${field.replace(/_/g, ' ')} (columns are numbered from 0, at most ${width - 1}).`,
      })),
    );
  }
  const today = localDate(deps.clock.now());
  const resolver = createResolver(deps, deps.settings.read());
  const results: ImportRowResult[] = [];
  const usable: { row: number; value: NormalAppointment }[] = [];
  table.rows.forEach((cells, i) => {
    const row = table.firstRow + i;
    const create = rowToCreate(cells, mapping, today);
    const value = isSkip(create) ? create : normalise(resolver, create, mapping.payer !== undefined);
    if (isSkip(value)) results.push({ row, result: 'skipped', ...value });
    else usable.push({ row, value });
  });
  const written = writeAppointments(deps, usable, input.source);
  for (const { row } of usable) {
    const w = written.get(row)!;
    if ('duplicateOf' in w) {
      results.push({ row, result: 'skipped', reason: 'duplicate_row', field: 'external_id', message: `The same appointment as row ${w.duplicateOf}.` });
    } else results.push({ row, ...w });
  }
  results.sort((a, b) => a.row - b.row);
  if (input.mapping) deps.settings.rememberMapping(table.headers, input.mapping);
  return { counts: countResults(results), rows: results };
}

export function countResults(rows: ImportRowResult[]): ImportCounts {
  const counts: ImportCounts = { created: 0, updated: 0, unchanged: 0, skipped: 0, patients_matched: 0, patients_created: 0, needs_person: 0, cards_created: 0, needs_payer: 0, discoveries: 0 };
  for (const row of rows) {
    counts[row.result] += 1;
    if (row.result === 'skipped') continue;
    if (row.card === 'created') counts.cards_created += 1;
    else if (row.card === 'needs_payer') counts.needs_payer += 1;
    else if (row.card === 'discovery') counts.discoveries += 1;
    if (row.result === 'unchanged') continue;
    if (row.patient === 'matched') counts.patients_matched += 1;
    else if (row.patient === 'created') counts.patients_created += 1;
    else counts.needs_person += 1;
  }
  return counts;
}

/** One appointment as JSON (`POST /v1/appointments`, `appointments.create`): the import's rules, for one. */
export function createAppointment(
  deps: AppointmentDeps,
  input: AppointmentCreate,
  source: Source,
): { result: 'created' | 'updated' | 'unchanged'; patient: PatientMatch; card: CardOutcome; appointment: Appointment } {
  const value = normalise(createResolver(deps, deps.settings.read()), input);
  if (isSkip(value)) throw validationFailed([{ path: value.field, code: value.reason, message: value.message }]);
  const written = writeAppointments(deps, [{ row: 1, value }], source).get(1)!;
  if ('duplicateOf' in written) throw new ServiceError('internal_error', 'Something went wrong inside Coverdesk.');
  return { result: written.result, patient: written.patient, card: written.card, appointment: toAppointment(appointmentRow(deps.db, written.appointment_id)) };
}

/** What the import will read: the columns, the mapping it would use, the first rows. Writes nothing. */
export function previewSchedule(deps: Pick<AppointmentDeps, 'settings'>, bytes: Uint8Array): SchedulePreview {
  const table = readScheduleTable(bytes);
  const { mapping, source } = mappingFor(deps, table);
  return {
    encoding: table.encoding,
    delimiter: table.delimiter,
    headers: table.headers,
    mapping,
    mapping_source: source,
    rows: table.rows.slice(0, 20),
    row_count: table.rows.length,
  };
}
