import { asc, eq, inArray } from 'drizzle-orm';
import { inTransaction, type Db } from '../db/open-database';
import { appointments, collections, settings } from '../db/schema';
import type { AuditLog } from '../audit/audit-log';
import type { Clock } from '../support/clock';
import type { IdGenerator } from '../support/ids';
import { findRow } from '../records/record-store';
import { localDate } from '../appointments/appointment-import';
import { estimateForCheck, type EstimateDeps } from '../estimates/estimate-for-check';
import {
  Collection as CollectionSchema,
  CollectionCreate,
  CollectionDeskUpdate,
  CollectionVoid,
  type Collection,
  type CollectionDeskSettings,
  type CollectionEstimate,
} from '../../shared/bridge/collection-contract';
import type { FieldError, Source } from '../../shared/contract';
import { cardNumberRefused, collectionProblems, looksLikeCardNumber } from '../../shared/collections';
import { notFound, parseOrThrow, ServiceError, validationFailed } from '../../shared/service-error';

export interface CollectionDeps {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  /** The channel's audit log: each entry and each void is recorded, in its own transaction. */
  audit: AuditLog;
  /** This workstation's name: the "desk" of the end-of-day report. */
  desk: string;
  /** The estimate shown at the time is worked out again from its check, never taken from the caller. */
  estimates: EstimateDeps;
  onChange?(change: { collection: 'collections'; id: string }): void;
}

export type CollectionRow = typeof collections.$inferSelect;

const KEYS = { taken_by: 'collections.taken_by', practice_name: 'collections.practice_name' } as const;

export function toCollection(row: CollectionRow, voidedById: string | null): Collection {
  return {
    id: row.id,
    kind: row.kind,
    amount_cents: row.amount_cents,
    method: row.method,
    check_number: row.check_number,
    card_reference: row.card_reference,
    taken_by: row.taken_by,
    desk: row.desk,
    source: row.source,
    appointment_id: row.appointment_id,
    patient_id: row.patient_id,
    visit_date: row.visit_date,
    date: row.date,
    estimate: row.estimate ?? null,
    voids_id: row.voids_id,
    voided_by_id: voidedById,
    reason: row.reason,
    created_at: row.created_at,
  };
}

/** Rows as resources, each with the void that undid it (one query for the lot). */
export function withVoids(db: Db, rows: CollectionRow[]): Collection[] {
  const ids = rows.map((row) => row.id);
  const voids = ids.length === 0 ? [] : db.select({ id: collections.id, voids_id: collections.voids_id }).from(collections).where(inArray(collections.voids_id, ids)).all();
  const voidOf = new Map(voids.map((v) => [v.voids_id!, v.id]));
  return rows.map((row) => toCollection(row, voidOf.get(row.id) ?? null));
}

/** The entries recorded on one local day, oldest first. */
export function collectionsOn(db: Db, date: string): Collection[] {
  return withVoids(db, db.select().from(collections).where(eq(collections.date, date)).orderBy(asc(collections.created_at), asc(collections.id)).all());
}

/** The estimate a check gives for a visit type, as a collection keeps it; null when the check gives none (no answer, failed). */
export function estimateOf(deps: EstimateDeps, checkId: string, visitType: string | null): CollectionEstimate | null {
  try {
    const e = estimateForCheck(deps, { check_id: checkId, ...(visitType ? { visit_type: visitType } : {}) });
    return { check_id: checkId, visit_type: visitType, min_cents: e.min_cents, max_cents: e.max_cents, headline: e.headline };
  } catch (error) {
    if (error instanceof ServiceError) return null;
    throw error;
  }
}

/**
 * Records a payment, or a visit marked declined or waived. Every problem is named at once
 * (the amount, the method, a card number typed where the terminal's reference belongs, an
 * unknown visit or check, a payment above the estimate unconfirmed) and nothing is written;
 * otherwise the entry and its audit entry are one transaction.
 */
export function recordCollection(deps: CollectionDeps, input: unknown, source: Source, commit?: (entry: Collection) => void): Collection {
  const parsed = parseOrThrow(CollectionCreate, input);
  const errors: FieldError[] = [];
  const appointment = parsed.appointment_id ? deps.db.select().from(appointments).where(eq(appointments.id, parsed.appointment_id)).get() : undefined;
  if (parsed.appointment_id && !appointment) errors.push({ path: 'appointment_id', code: 'not_found', message: `No appointment with id ${parsed.appointment_id} exists.` });
  if (parsed.patient_id && !findRow(deps.db, 'patients', parsed.patient_id)) errors.push({ path: 'patient_id', code: 'not_found', message: `No patient with id ${parsed.patient_id} exists.` });
  if (appointment && parsed.patient_id && appointment.patient_id && appointment.patient_id !== parsed.patient_id) {
    errors.push({ path: 'patient_id', code: 'not_the_appointment_patient', message: `patient_id is not the patient of appointment ${appointment.id}: leave it out, or name the right appointment.` });
  }
  if (appointment && parsed.visit_date && parsed.visit_date !== appointment.date) {
    errors.push({ path: 'visit_date', code: 'not_the_appointment_date', message: `visit_date is not the date of appointment ${appointment.id} (${appointment.date}): leave it out.` });
  }
  const check = parsed.check_id ? findRow(deps.db, 'electronic_eligibility_checks', parsed.check_id) : undefined;
  const card = check ? findRow(deps.db, 'insurance_cards', check.insurance_card_id) : undefined;
  // Named by its check alone (the Eligibility summary's "Collect today"), the visit is the check's patient's, today.
  const patientId = parsed.patient_id ?? appointment?.patient_id ?? card?.patient_id ?? null;
  let estimate: CollectionEstimate | null = null;
  if (parsed.check_id) {
    if (!check) errors.push({ path: 'check_id', code: 'not_found', message: `No check with id ${parsed.check_id} exists.` });
    else if (patientId && card && card.patient_id !== patientId) errors.push({ path: 'check_id', code: 'not_the_patient_check', message: `The check ${check.id} is not this patient's: name a check of the visit's patient.` });
    else {
      estimate = estimateOf(deps.estimates, check.id, parsed.visit_type ?? appointment?.visit_type ?? null);
      if (!estimate) errors.push({ path: 'check_id', code: 'check_not_successful', message: `The check ${check.id} has no answer to estimate from: leave check_id out, or check eligibility again.` });
    }
  }
  errors.push(...collectionProblems(parsed, { estimate }));
  if (errors.length > 0) throw validationFailed(errors);

  const now = deps.clock.now();
  const row: CollectionRow = {
    id: deps.ids.next('col'),
    kind: parsed.kind,
    amount_cents: parsed.kind === 'payment' ? parsed.amount_cents! : 0,
    method: parsed.method ?? null,
    check_number: parsed.check_number ?? null,
    card_reference: parsed.card_reference ?? null,
    taken_by: parsed.taken_by,
    desk: deps.desk,
    source,
    appointment_id: appointment?.id ?? null,
    patient_id: patientId,
    visit_date: appointment?.date ?? parsed.visit_date ?? localDate(now),
    date: localDate(now),
    estimate,
    voids_id: null,
    reason: parsed.reason ?? null,
    created_at: now.toISOString(),
  };
  const entry = CollectionSchema.parse(toCollection(row, null));
  inTransaction(deps.db, () => {
    deps.db.insert(collections).values(row).run();
    deps.audit.append('create', row.id);
    commit?.(entry);
  });
  deps.onChange?.({ collection: 'collections', id: row.id });
  return entry;
}

/**
 * Undoes an entry with a new one pointing at it: the amount and method are the original's,
 * so the report subtracts exactly what was added. A void cannot be voided (record the
 * payment again instead), and an entry is undone once.
 */
export function voidCollection(deps: CollectionDeps, id: string, input: unknown, source: Source, commit?: (entry: Collection) => void): Collection {
  const parsed = parseOrThrow(CollectionVoid, input);
  const now = deps.clock.now();
  const row = inTransaction(deps.db, () => {
    const original = deps.db.select().from(collections).where(eq(collections.id, id)).get();
    if (!original) throw notFound('collection', id);
    const errors: FieldError[] = [];
    if (original.kind === 'void') errors.push({ path: 'id', code: 'void_of_void', message: `${id} is itself a void: a void cannot be undone; record the payment again instead.` });
    const earlier = deps.db.select({ id: collections.id }).from(collections).where(eq(collections.voids_id, id)).get();
    if (earlier) errors.push({ path: 'id', code: 'already_voided', message: `${id} was already voided by ${earlier.id}.` });
    for (const field of ['taken_by', 'reason'] as const) {
      if (looksLikeCardNumber(parsed[field] ?? '')) errors.push(cardNumberRefused(field));
    }
    if (errors.length > 0) throw validationFailed(errors);
    const entry: CollectionRow = {
      ...original,
      id: deps.ids.next('col'),
      kind: 'void',
      taken_by: parsed.taken_by,
      desk: deps.desk,
      source,
      date: localDate(now),
      voids_id: original.id,
      reason: parsed.reason ?? null,
      created_at: now.toISOString(),
    };
    deps.db.insert(collections).values(entry).run();
    deps.audit.append('create', entry.id);
    commit?.(toCollection(entry, null));
    return entry;
  });
  deps.onChange?.({ collection: 'collections', id: row.id });
  return toCollection(row, null);
}

/** Who takes payments at this desk and the practice's name for receipts, as the desk last saved them. */
export function readDeskSettings(deps: Pick<CollectionDeps, 'db' | 'desk'>): CollectionDeskSettings {
  const rows = deps.db.select().from(settings).where(inArray(settings.key, Object.values(KEYS))).all();
  const text = (key: string) => {
    const value = rows.find((row) => row.key === key)?.value;
    return typeof value === 'string' ? value : null;
  };
  return { taken_by: text(KEYS.taken_by), practice_name: text(KEYS.practice_name), desk: deps.desk };
}

export function updateDeskSettings(deps: Pick<CollectionDeps, 'db' | 'desk'>, input: unknown): CollectionDeskSettings {
  const update = parseOrThrow(CollectionDeskUpdate, input);
  inTransaction(deps.db, () => {
    for (const field of ['taken_by', 'practice_name'] as const) {
      const value = update[field];
      if (value !== undefined) deps.db.insert(settings).values({ key: KEYS[field], value }).onConflictDoUpdate({ target: settings.key, set: { value } }).run();
    }
  });
  return readDeskSettings(deps);
}
