import { appointmentsOn, type AppointmentRow } from '../appointments/appointment-store';
import { findRow } from '../records/record-store';
import { EndOfDay, type Collection, type CollectionEstimate, type EndOfDayGroup, type EndOfDayVisit } from '../../shared/bridge/collection-contract';
import { netCents, totalsOf } from '../../shared/collections';
import { estimatesForVisits, type EstimateDeps } from '../estimates/estimate-for-check';
import type { FeeScheduleRow } from '../../shared/bridge/estimate-contract';
import { collectionsOn, readDeskSettings, type CollectionDeps } from './collection-store';

type ReportDeps = Pick<CollectionDeps, 'db' | 'desk' | 'estimates'>;

/** One report reads the fee schedule and the visit types once, and each (visit type, payer) amount once, not once per visit. */
function readOnce(estimates: EstimateDeps): EstimateDeps {
  const schedule = estimates.fees.read();
  const settings = estimates.appointmentSettings.read();
  const allowed = new Map<string, FeeScheduleRow | null>();
  return {
    ...estimates,
    appointmentSettings: { read: () => settings },
    fees: {
      ...estimates.fees,
      read: () => schedule,
      allowedFor: (service, entity) => {
        const key = `${service}\u0000${entity ?? ''}`;
        if (!allowed.has(key)) allowed.set(key, estimates.fees.allowedFor(service, entity));
        return allowed.get(key)!;
      },
    },
  };
}

interface Visit {
  key: string;
  appointment: AppointmentRow | null;
  patient_id: string | null;
  entries: Collection[];
}

const visitKey = (appointmentId: string | null, patientId: string | null, date: string) => appointmentId ?? `${patientId}|${date}`;

/** Each patient's latest successful check (by when it was answered): what today's estimate is read from. */
function latestChecks(deps: ReportDeps, patientIds: string[]): Map<string, string> {
  const latest = new Map<string, string>();
  if (patientIds.length === 0) return latest;
  const rows = deps.db.$client
    .prepare(
      `SELECT ic.patient_id AS patient_id, c.id AS id FROM electronic_eligibility_checks c JOIN insurance_cards ic ON ic.id = c.insurance_card_id
       WHERE c.status = 'success' AND ic.patient_id IN (SELECT value FROM json_each(?)) ORDER BY COALESCE(c.finished_at, c.created_at), c.id`,
    )
    .all(JSON.stringify(patientIds)) as { patient_id: string; id: string }[];
  for (const row of rows) latest.set(row.patient_id, row.id);
  return latest;
}

/**
 * The estimates the visits' latest checks give, by visit key, from one batched read of those
 * checks (estimatesForVisits, as the worklist does) rather than one read per visit.
 */
function estimatesFromChecks(estimates: EstimateDeps, visits: Map<string, Visit>, checks: Map<string, string>): Map<string, CollectionEstimate | null> {
  const wanted = [...visits.values()].flatMap((visit) => {
    const checkId = visit.patient_id ? checks.get(visit.patient_id) : undefined;
    return checkId ? [{ key: visit.key, check_id: checkId, visit_type: visit.appointment?.visit_type ?? null }] : [];
  });
  const found = estimatesForVisits(estimates, wanted);
  return new Map(
    wanted.map((visit, i) => {
      const e = found[i];
      return [visit.key, e ? { check_id: visit.check_id, visit_type: visit.visit_type, min_cents: e.min_cents, max_cents: e.max_cents, headline: e.headline } : null];
    }),
  );
}

/**
 * The day at the window (issue 30, item 4): the sum of the estimates for the day's visits
 * against what was collected (net of voids), by method, per desk and per person, and each
 * visit where nothing was collected with why. A visit's estimate is the one shown when money
 * was taken, else the one its patient's latest successful check gives for its visit type.
 */
export function endOfDay(deps: ReportDeps, date: string): EndOfDay {
  const estimates = readOnce(deps.estimates);
  const entries = collectionsOn(deps.db, date);
  const visits = new Map<string, Visit>();
  for (const appointment of appointmentsOn(deps.db, date)) {
    visits.set(appointment.id, { key: appointment.id, appointment, patient_id: appointment.patient_id, entries: [] });
  }
  for (const entry of entries) {
    const key = visitKey(entry.appointment_id, entry.patient_id, entry.visit_date);
    let visit = visits.get(key);
    if (!visit) {
      const appointment = entry.appointment_id ? (deps.db.$client.prepare('SELECT * FROM appointments WHERE id = ?').get(entry.appointment_id) as AppointmentRow | undefined) : undefined;
      visit = { key, appointment: appointment ?? null, patient_id: entry.patient_id, entries: [] };
      visits.set(key, visit);
    }
    visit.entries.push(entry);
  }
  const needEstimate = [...visits.values()].filter((v) => v.patient_id && !v.entries.some((e) => e.estimate)).map((v) => v.patient_id!);
  const checks = latestChecks(deps, [...new Set(needEstimate)]);
  const fromChecks = estimatesFromChecks(estimates, visits, checks);

  const rows: EndOfDayVisit[] = [];
  const estimateByVisit = new Map<string, CollectionEstimate | null>();
  for (const visit of visits.values()) {
    const shown = [...visit.entries].reverse().find((e) => e.estimate)?.estimate ?? null;
    const estimate = shown ?? fromChecks.get(visit.key) ?? null;
    estimateByVisit.set(visit.key, estimate);
    const collected = visit.entries.reduce((sum, e) => sum + netCents(e), 0);
    const mark = [...visit.entries].reverse().find((e) => (e.kind === 'declined' || e.kind === 'waived') && e.voided_by_id === null);
    const status: EndOfDayVisit['status'] =
      collected > 0 ? 'collected' : mark ? mark.kind as 'declined' | 'waived' : !estimate ? 'no_estimate' : estimate.max_cents === 0 ? 'nothing_due' : 'not_collected';
    const patient = !visit.appointment && visit.patient_id ? findRow(deps.db, 'patients', visit.patient_id) : undefined;
    const name = visit.appointment ? `${visit.appointment.first_name} ${visit.appointment.last_name}` : patient ? `${patient.first_name} ${patient.last_name}` : 'Unknown patient';
    rows.push({
      appointment_id: visit.appointment?.id ?? null,
      patient_id: visit.patient_id,
      name,
      time: visit.appointment?.time ?? null,
      visit_type: visit.appointment?.visit_type ?? estimate?.visit_type ?? null,
      estimate,
      collected_cents: collected,
      status,
      reason: mark?.reason ?? null,
    });
  }
  rows.sort((a, b) => (a.time ?? '99:99').localeCompare(b.time ?? '99:99') || a.name.localeCompare(b.name));

  const expected = (keys: Iterable<string>) => {
    let min = 0;
    let max: number | null = 0;
    for (const key of keys) {
      const e = estimateByVisit.get(key);
      if (!e) continue;
      min += e.min_cents;
      max = max === null || e.max_cents === null ? null : max + e.max_cents;
    }
    return { expected_min_cents: min, expected_max_cents: max };
  };
  const groups = (nameOf: (entry: Collection) => string): EndOfDayGroup[] => {
    const by = new Map<string, Collection[]>();
    for (const entry of entries) by.set(nameOf(entry), [...(by.get(nameOf(entry)) ?? []), entry]);
    return [...by]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, own]) => ({
        name,
        ...expected(new Set(own.map((e) => visitKey(e.appointment_id, e.patient_id, e.visit_date)))),
        ...totalsOf(own),
        entries: own.length,
      }));
  };
  return EndOfDay.parse({
    date,
    practice_name: readDeskSettings(deps).practice_name,
    ...expected(visits.keys()),
    ...totalsOf(entries),
    by_desk: groups((e) => e.desk),
    by_person: groups((e) => e.taken_by),
    visits: rows,
    entries,
  });
}
