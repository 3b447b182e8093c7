import { eq, inArray } from 'drizzle-orm';
import { inTransaction, type Db } from '../db/open-database';
import { good_faith_estimates, patients, providers, settings } from '../db/schema';
import type { Clock } from '../support/clock';
import type { IdGenerator } from '../support/ids';
import { appointmentRow, type AppointmentRow } from '../appointments/appointment-store';
import { localDate } from '../appointments/appointment-import';
import { allowedIn, type FeeScheduleStore } from '../estimates/fee-schedule';
import type { WorklistRow } from '../../shared/bridge/appointment-contract';
import { GfeDocument, GfeIssueInput, GfePractice, GfeSelfPayInput, type GfeStatus, type GoodFaithEstimate } from '../../shared/bridge/gfe-contract';
import { buildGfeDocument } from '../../shared/gfe';
import { gfeDeadline } from '../../shared/gfe-deadline';
import type { FieldError } from '../../shared/contract';
import { notFound, parseOrThrow, validationFailed } from '../../shared/service-error';

/**
 * Good Faith Estimates for self-pay visits (issue 30, item 5). Marking an appointment
 * self-pay makes its GFE due; issuing builds the document once (the fee schedule's default
 * rows as the self-pay charges) and stores it whole, so printing it again, or reading it
 * through the local API, gives the same document. Desk-local, never sent upstream.
 */
export interface GfeDeps {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  fees: Pick<FeeScheduleStore, 'read'>;
  practice(): { default_provider_id: string | null };
}

type Row = typeof good_faith_estimates.$inferSelect;
const PRACTICE_KEY = 'gfe.practice';

/** The day a visit was booked, on the desk's calendar: the host runs on the desk's computer, so its local date is the desk's. */
const scheduledOn = (appointment: AppointmentRow) => localDate(new Date(appointment.created_at));

/** The deadline follows the appointment as it is now: a visit moved to another day moves it. */
function toStatus(row: Row, appointment: Pick<AppointmentRow, 'date'>): GfeStatus {
  const deadline = gfeDeadline({ scheduled_on: row.scheduled_on, service_on: appointment.date, requested_on: row.requested_on });
  return {
    id: row.id,
    appointment_id: row.appointment_id,
    patient_id: row.patient_id,
    state: row.issued_at ? 'issued' : 'due',
    rule: deadline.rule,
    due_on: deadline.due_on,
    scheduled_on: row.scheduled_on,
    requested_on: row.requested_on,
    created_at: row.created_at,
    issued_at: row.issued_at,
  };
}

function toGfe(row: Row, appointment: Pick<AppointmentRow, 'date'>): GoodFaithEstimate {
  const document = row.document === null ? null : GfeDocument.parse(row.document);
  return { ...toStatus(row, appointment), document };
}

const rowFor = (db: Db, appointmentId: string) => db.select().from(good_faith_estimates).where(eq(good_faith_estimates.appointment_id, appointmentId)).get();

export function savedPractice(db: Db): GfePractice | null {
  const saved = db.select().from(settings).where(eq(settings.key, PRACTICE_KEY)).get();
  const parsed = GfePractice.safeParse(saved?.value);
  return parsed.success ? parsed.data : null;
}

/** The visit is self-pay: its GFE is due from now (on request, 3 business days from today). Marking again only adds a request. */
export function markSelfPay(deps: GfeDeps, input: GfeSelfPayInput): GoodFaithEstimate {
  const query = parseOrThrow(GfeSelfPayInput, input);
  const appointment = appointmentRow(deps.db, query.appointment_id);
  const today = localDate(deps.clock.now());
  return inTransaction(deps.db, () => {
    const existing = rowFor(deps.db, appointment.id);
    if (existing) {
      if (query.requested && !existing.requested_on && !existing.issued_at) {
        deps.db.update(good_faith_estimates).set({ requested_on: today }).where(eq(good_faith_estimates.id, existing.id)).run();
      }
      return toGfe(rowFor(deps.db, appointment.id)!, appointment);
    }
    deps.db
      .insert(good_faith_estimates)
      .values({
        id: deps.ids.next('gfe'),
        appointment_id: appointment.id,
        patient_id: appointment.patient_id,
        scheduled_on: scheduledOn(appointment),
        requested_on: query.requested ? today : null,
        created_at: deps.clock.now().toISOString(),
      })
      .run();
    return toGfe(rowFor(deps.db, appointment.id)!, appointment);
  });
}

/**
 * Issues the appointment's GFE: checks everything first (the practice's details, the
 * provider, every item's charge), then writes the document, the practice's details for the
 * next one, and the self-pay mark in one transaction. An issued GFE is never rewritten.
 */
export function issueGfe(deps: GfeDeps, input: GfeIssueInput): GoodFaithEstimate {
  const query = parseOrThrow(GfeIssueInput, input);
  const appointment = appointmentRow(deps.db, query.appointment_id);
  const existing = rowFor(deps.db, appointment.id);
  if (existing?.issued_at) {
    throw validationFailed([{ path: 'appointment_id', code: 'already_issued', message: `The Good Faith Estimate ${existing.id} was issued already: print it again from the worklist; an issued estimate is not changed.` }]);
  }
  const errors: FieldError[] = [];
  const practice = query.practice ?? savedPractice(deps.db);
  if (!practice) errors.push({ path: 'practice', code: 'practice_required', message: 'The practice’s facility name, NPI, TIN and location are needed on a Good Faith Estimate: fill them in once; they are kept for the next.' });
  const providerId = appointment.provider_id ?? deps.practice().default_provider_id;
  const provider = providerId ? deps.db.select().from(providers).where(eq(providers.id, providerId)).get() : undefined;
  if (!provider) errors.push({ path: 'provider', code: 'provider_required', message: 'No provider for this visit: set the appointment’s provider or the default provider in Settings.' });
  if (errors.length > 0) throw validationFailed(errors);
  const patient = appointment.patient_id ? deps.db.select().from(patients).where(eq(patients.id, appointment.patient_id)).get() : undefined;
  const rows = deps.fees.read().rows;
  const document = buildGfeDocument({
    issued_on: localDate(deps.clock.now()),
    patient: patient
      ? { first_name: patient.first_name, last_name: patient.last_name, date_of_birth: patient.date_of_birth }
      : { first_name: appointment.first_name, last_name: appointment.last_name, date_of_birth: appointment.date_of_birth },
    service_on: appointment.date,
    primary_service: query.primary_service ?? appointment.visit_type ?? query.items[0].description ?? `Code ${query.items[0].code}`,
    provider: { name: provider!.name, npi: provider!.npi },
    practice: practice!,
    items: query.items,
    // Self-pay: no payer, so the fee schedule's default row is the charge.
    chargeFor: (code) => allowedIn(rows, code, null)?.allowed_cents ?? null,
    diagnosis_codes: query.diagnosis_codes,
    scheduled_separately: query.scheduled_separately,
  });
  const now = deps.clock.now().toISOString();
  return inTransaction(deps.db, () => {
    if (query.practice) deps.db.insert(settings).values({ key: PRACTICE_KEY, value: query.practice }).onConflictDoUpdate({ target: settings.key, set: { value: query.practice } }).run();
    if (!existing) {
      deps.db
        .insert(good_faith_estimates)
        .values({ id: deps.ids.next('gfe'), appointment_id: appointment.id, patient_id: appointment.patient_id, scheduled_on: scheduledOn(appointment), requested_on: null, created_at: now })
        .run();
    }
    deps.db.update(good_faith_estimates).set({ issued_at: now, document }).where(eq(good_faith_estimates.appointment_id, appointment.id)).run();
    return toGfe(rowFor(deps.db, appointment.id)!, appointment);
  });
}

export function getGfe(db: Db, id: string): GoodFaithEstimate {
  const row = db.select().from(good_faith_estimates).where(eq(good_faith_estimates.id, id)).get();
  if (!row) throw notFound('good faith estimate', id);
  return toGfe(row, appointmentRow(db, row.appointment_id));
}

/** A day's worklist with each self-pay visit's GFE, due or issued: one read for the whole day. */
export function withGfes(db: Db, rows: WorklistRow[]): WorklistRow[] {
  if (rows.length === 0) return rows;
  const found = db
    .select()
    .from(good_faith_estimates)
    .where(inArray(good_faith_estimates.appointment_id, rows.map((row) => row.appointment.id)))
    .all();
  if (found.length === 0) return rows;
  const byAppointment = new Map(found.map((row) => [row.appointment_id, row]));
  return rows.map((row) => {
    const gfe = byAppointment.get(row.appointment.id);
    return gfe ? { ...row, gfe: toStatus(gfe, row.appointment) } : row;
  });
}
