import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import { socketPath } from '@src/main/local-api/endpoints';
import { tokenPath } from '@src/main/local-api/token-file';
import { SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { startSandbox } from '@src/main/sandbox/start-sandbox';
import { createIdGenerator } from '@src/main/support/ids';
import { systemClock } from '@src/main/support/clock';
import type { ImportResult } from '@src/shared/bridge/appointment-contract';
import { generateSchedule, type Person } from '@test/support/appointments/schedule-generator';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { httpRequest } from '@test/support/http-request';

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');

/** Every row of the tables an import writes: equal before and after means nothing changed, not even a value. */
function contents(fx: HostFixture): string {
  const sqlite = fx.host.database.sqlite;
  return ['appointments', 'patients', 'outbox', 'settings']
    .map((t) => JSON.stringify(sqlite.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()))
    .join('\n');
}

async function seedPatients(fx: HostFixture, people: Person[]): Promise<void> {
  for (const p of people) await fx.host.service.create('patients', p, { source: 'dashboard' });
}

async function importBytes(fx: HostFixture, bytes: Uint8Array | string): Promise<ImportResult> {
  return fx.host.bridge['appointments.import']({ data_base64: b64(bytes) });
}

async function refused(fx: HostFixture, input: unknown) {
  const answer = await dispatchBridgeCall(fx.host.bridge, 'appointments.import', input);
  if (answer.ok) throw new Error('expected the import to be refused');
  return answer.error;
}

const HEADER = 'Appt ID,Date,Time,Last Name,First Name,DOB,Provider,Visit Type';
const provider = SEED_PROVIDERS[1].name;

describe('appointment import', () => {
  let fx: HostFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it('imports a generated 500-row schedule in three layouts with the expected counts, and a second import changes nothing', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    const schedule = generateSchedule({ rows: 500, seed: 16, firstDate: '2026-12-01' });
    await seedPatients(fx, schedule.existing);
    const patientsBefore = fx.snapshot().patients as number;

    const first: ImportResult[] = [];
    for (const file of schedule.files) first.push(await importBytes(fx, file.bytes));
    const sum = (key: keyof ImportResult['counts']) => first.reduce((n, r) => n + r.counts[key], 0);
    expect({
      created: sum('created'),
      skipped: sum('skipped'),
      patients_matched: sum('patients_matched'),
      patients_created: sum('patients_created'),
      needs_person: sum('needs_person'),
    }).toEqual({
      created: schedule.expected.created,
      skipped: schedule.expected.skipped,
      patients_matched: schedule.expected.patients_matched,
      patients_created: schedule.expected.patients_created,
      needs_person: schedule.expected.needs_person,
    });
    const reasons: Record<string, number> = {};
    for (const r of first.flatMap((x) => x.rows)) if (r.result === 'skipped') reasons[r.reason] = (reasons[r.reason] ?? 0) + 1;
    expect(reasons).toEqual(schedule.expected.skipped_by_reason);
    // Every kind of row is in the plan, so the counts above cover each path.
    expect(Object.keys(reasons).sort()).toEqual(
      ['duplicate_row', 'invalid_date', 'invalid_date_of_birth', 'invalid_time', 'missing_date_of_birth', 'missing_name', 'unknown_provider', 'unknown_visit_type'].sort(),
    );
    expect(schedule.expected.needs_person).toBeGreaterThan(0);
    expect(schedule.expected.patients_created).toBeGreaterThan(0);
    expect(fx.snapshot().appointments).toBe(schedule.expected.created);
    expect(fx.snapshot().patients).toBe(patientsBefore + schedule.expected.patients_created);

    // Accents survive the Windows-1252 file: its names are stored as the desk wrote them.
    const legacyRows = fx.host.database.sqlite.prepare("SELECT first_name, last_name FROM appointments WHERE external_id LIKE 'V-%'").all() as Person[];
    expect(legacyRows.some((p) => /[À-ÿ]/.test(p.first_name + p.last_name))).toBe(true);
    expect(legacyRows.every((p) => !(p.first_name + p.last_name).includes('\uFFFD'))).toBe(true);

    const before = contents(fx);
    const second: ImportResult[] = [];
    for (const file of schedule.files) second.push(await importBytes(fx, file.bytes));
    expect(second.reduce((n, r) => n + r.counts.created + r.counts.updated + r.counts.patients_created, 0)).toBe(0);
    expect(second.reduce((n, r) => n + r.counts.unchanged, 0)).toBe(schedule.expected.created);
    expect(second.reduce((n, r) => n + r.counts.skipped, 0)).toBe(schedule.expected.skipped);
    expect(contents(fx)).toBe(before);
  });

  it('matches a patient forgiving case, accents, hyphens and "Last, First"; two candidates are put to a person', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    await seedPatients(fx, [
      { first_name: 'María', last_name: 'Peña-Ruiz', date_of_birth: '1970-03-04' },
      { first_name: 'Sam', last_name: 'Lee', date_of_birth: '1990-01-02' },
      { first_name: 'SAM', last_name: 'LEE', date_of_birth: '1990-01-02' },
    ]);
    const csv = ['Date\tTime\tPatient\tDOB', '12/1/2026\t9:00 AM\tPENA RUIZ, MARIA\t3/4/1970', '12/1/2026\t9:10 AM\tLee, Sam\t1990-01-02'].join('\n');
    const result = await fx.host.bridge['appointments.import']({ text: csv });
    expect(result.rows.map((r) => r.result === 'created' && r.patient)).toEqual(['matched', 'ambiguous']);
    const [, ambiguous] = (await fx.host.bridge['appointments.list']({ date: '2026-12-01' })).data;
    expect(ambiguous.patient_id).toBeNull();
    expect(ambiguous.candidate_patient_ids).toHaveLength(2);

    // The person chooses; the import never does.
    const chosen = await fx.host.bridge['appointments.assignPatient']({ id: ambiguous.id, patient_id: ambiguous.candidate_patient_ids[1] });
    expect(chosen).toMatchObject({ patient_id: ambiguous.candidate_patient_ids[1], patient_match: 'matched', candidate_patient_ids: [] });

    // The same file again: nothing changes, and the person's choice stands.
    const again = await fx.host.bridge['appointments.import']({ text: csv });
    expect(again.counts).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    expect((await fx.host.bridge['appointments.list']({ date: '2026-12-01' })).data[1].patient_id).toBe(ambiguous.candidate_patient_ids[1]);
  });

  it('takes a rescheduled appointment (same scheduling-system id, new time) as the same one, updated', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    const first = await fx.host.bridge['appointments.import']({ text: `${HEADER}\nA-1,12/1/2026,9:00 AM,Doe,Jane,1/2/1980,,\n` });
    const moved = await fx.host.bridge['appointments.import']({ text: `${HEADER}\nA-1,12/2/2026,11:30 AM,Doe,Jane,1/2/1980,,\n` });
    expect(moved.rows).toEqual([{ row: 2, result: 'updated', appointment_id: (first.rows[0] as { appointment_id: string }).appointment_id, patient: 'created', card: 'none' }]);
    expect((await fx.host.bridge['appointments.list']({ date: '2026-12-01' })).data).toEqual([]);
    expect((await fx.host.bridge['appointments.list']({ date: '2026-12-02' })).data).toEqual([expect.objectContaining({ time: '11:30', external_id: 'A-1' })]);
    expect(fx.snapshot()).toMatchObject({ appointments: 1, patients: 1 });
  });

  it('lists each bad row with its reason and field, writes none of them, and takes the rest', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    const rows = [
      HEADER,
      `1,12/1/2026,9:00 AM,,,1/2/1980,${JSON.stringify(provider)},Office Visit`,
      `2,12/1/2026,9:10 AM,Doe,Jane,,${JSON.stringify(provider)},Office Visit`,
      `3,2/30/2026,9:20 AM,Doe,Jane,1/2/1980,${JSON.stringify(provider)},Office Visit`,
      `4,12/1/2026,9:30 AM,Doe,Jane,1/2/1980,Dr. Who,Office Visit`,
      `5,12/1/2026,9:40 AM,Doe,Jane,1/2/1980,${JSON.stringify(provider)},Crystal healing`,
      `6,12/1/2026,9:50 AM,Doe,Jane,2/31/1980,${JSON.stringify(provider)},Office Visit`,
      `7,12/1/2026,10:00 AM,Doe,Jane,1/2/1980,${JSON.stringify(provider)},Office Visit`,
    ];
    const before = fx.snapshot();
    const result = await fx.host.bridge['appointments.import']({ text: rows.join('\n') });
    expect(result.rows.map((r) => (r.result === 'skipped' ? [r.row, r.reason, r.field] : [r.row, r.result]))).toEqual([
      [2, 'missing_name', 'patient_name'],
      [3, 'missing_date_of_birth', 'date_of_birth'],
      [4, 'invalid_date', 'date'],
      [5, 'unknown_provider', 'provider'],
      [6, 'unknown_visit_type', 'visit_type'],
      [7, 'invalid_date_of_birth', 'date_of_birth'],
      [8, 'created'],
    ]);
    for (const r of result.rows) if (r.result === 'skipped') expect(r.message.length).toBeGreaterThan(20);
    // Only row 8 went in: one appointment, one patient, that patient's outbox entry and the audit of its creation.
    expect(fx.snapshot()).toEqual({ ...before, appointments: 1, patients: 1, outbox: (before.outbox as number) + 1, audit_log: (before.audit_log as number) + 1 });
    const audited = fx.host.database.sqlite.prepare("SELECT action, record_id FROM audit_log WHERE action = 'create'").all();
    expect(audited).toEqual([{ action: 'create', record_id: fx.host.database.sqlite.prepare('SELECT id FROM patients').pluck().get() }]);
    const [only] = (await fx.host.bridge['appointments.list']({ date: '2026-12-01' })).data;
    expect(only).toMatchObject({ external_id: '7', time: '10:00', service_type: 'professional_physician_visit_office', provider_id: SEED_PROVIDERS[1].id });
  });

  it('refuses a file that is not CSV, an empty one and a 50 MB one, naming why, and writes nothing', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    const before = contents(fx);
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    expect(await refused(fx, { data_base64: b64(png) })).toMatchObject({ status: 422, code: 'validation_failed', errors: [{ path: 'file', code: 'not_csv' }] });
    const prose = 'Dear front desk\nplease see the attached schedule\nthanks\n';
    expect(await refused(fx, { text: prose })).toMatchObject({ status: 422, errors: [{ path: 'file', code: 'not_csv' }] });
    expect(await refused(fx, { text: '  \n\n' })).toMatchObject({ status: 422, errors: [{ path: 'file', code: 'empty_file' }] });
    const huge = Buffer.alloc(50 * 1024 * 1024, 'a');
    expect(await refused(fx, { data_base64: huge.toString('base64') })).toMatchObject({ status: 413, code: 'payload_too_large' });
    // Columns it cannot place: the mapping must be corrected, and it names which.
    const noDob = 'Date,Time,First Name,Last Name\n12/1/2026,9:00,Jane,Doe\n';
    expect(await refused(fx, { text: noDob })).toMatchObject({ status: 422, errors: [{ path: 'mapping.date_of_birth', code: 'column_required' }] });
    expect(contents(fx)).toBe(before);
  });

  it('reads Windows-1252 names with accents as the letters they are', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    const text = `${HEADER}\r\n9,12/1/2026,14:05,Peña,José,01-02-80,,\r\n`;
    const result = await importBytes(fx, Buffer.from(text, 'latin1'));
    expect(result.counts).toMatchObject({ created: 1, patients_created: 1 });
    const preview = await fx.host.bridge['appointments.preview']({ data_base64: b64(Buffer.from(text, 'latin1')) });
    expect(preview.encoding).toBe('windows-1252');
    const [appointment] = (await fx.host.bridge['appointments.list']({ date: '2026-12-01' })).data;
    expect(appointment).toMatchObject({ first_name: 'José', last_name: 'Peña', date_of_birth: '1980-01-02', time: '14:05' });
  });

  it('imports all of a file or none of it when a write fails midway', async () => {
    const ids = createIdGenerator(systemClock);
    let appointmentsMade = 0;
    const failing = {
      next(prefix: Parameters<typeof ids.next>[0]) {
        if (prefix === 'apt' && ++appointmentsMade === 3) throw new Error('disk full');
        return ids.next(prefix);
      },
    };
    fx = startTestHost({ localApi: false, hotFolder: false, ids: failing });
    const before = contents(fx);
    const rows = [HEADER, ...[1, 2, 3, 4].map((i) => `${i},12/1/2026,9:0${i} AM,Doe${String.fromCharCode(96 + i)},Jane,1/2/1980,,`)];
    const answer = await dispatchBridgeCall(fx.host.bridge, 'appointments.import', { text: rows.join('\n') });
    expect(answer.ok).toBe(false);
    expect(contents(fx)).toBe(before);
  });

  it('remembers the mapping the desk corrected for files with the same headers', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    // "When" and "Who" name nothing we know: the desk maps them once.
    const text = 'When,Clock,Who,Born\n12/1/2026,9:00 AM,"Doe, Jane",1/2/1980\n';
    const preview = await fx.host.bridge['appointments.preview']({ text });
    expect(preview.mapping_source).toBe('detected');
    const mapping = { date: 0, time: 1, patient_name: 2, date_of_birth: 3 };
    await fx.host.bridge['appointments.import']({ text, mapping });
    const again = await fx.host.bridge['appointments.preview']({ text: 'When,Clock,Who,Born\n12/2/2026,10:00 AM,"Roe, Ann",3/4/1990\n' });
    expect(again).toMatchObject({ mapping_source: 'remembered', mapping });
  });
});

describe('appointments on the local API', () => {
  let fx: HostFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it('creates one appointment from JSON, answers the same one again unchanged, imports text/csv, and refuses other bodies', async () => {
    fx = startTestHost({ localApi: {}, hotFolder: false });
    await fx.host.start();
    const target = { socketPath: socketPath(fx.dataDir) };
    const auth = `Bearer ${fs.readFileSync(tokenPath(fx.dataDir), 'utf8').trim()}`;
    const json = { 'content-type': 'application/json', authorization: auth };
    const body = JSON.stringify({ date: '2026-12-01', time: '09:30', first_name: 'Ada', last_name: 'Byron', date_of_birth: '1985-12-10', external_id: 'PM-1', provider: SEED_PROVIDERS[0].npi });

    const created = await httpRequest(target, { method: 'POST', path: '/v1/appointments', headers: json, body });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ result: 'created', patient: 'created', appointment: { external_id: 'PM-1', provider_id: SEED_PROVIDERS[0].id } });
    // The patient it registered is in the audit trail, naming the channel.
    const audit = fx.host.database.sqlite.prepare("SELECT actor, record_id FROM audit_log WHERE action = 'create'").all() as { actor: string; record_id: string }[];
    expect(audit).toEqual([{ actor: expect.stringMatching(/\(local API\)$/), record_id: created.json.appointment.patient_id }]);
    const again = await httpRequest(target, { method: 'POST', path: '/v1/appointments', headers: json, body });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ result: 'unchanged', appointment: { id: created.json.appointment.id } });

    // The tables a refused request could write (the started host's sync worker keeps its own state meanwhile).
    const written = () => {
      const all = fx!.snapshot();
      return ['appointments', 'patients', 'outbox', 'audit_log', 'settings'].map((table) => all[table]);
    };
    const before = written();
    const unknown = await httpRequest(target, { method: 'POST', path: '/v1/appointments', headers: json, body: JSON.stringify({ ...JSON.parse(body), external_id: 'PM-2', visit_type: 'Crystal healing' }) });
    expect(unknown.status).toBe(422);
    expect(unknown.json.error.errors).toEqual([expect.objectContaining({ path: 'visit_type', code: 'unknown_visit_type' })]);
    const pdf = await httpRequest(target, { method: 'POST', path: '/v1/appointments/import', headers: { 'content-type': 'application/pdf', authorization: auth }, body: '%PDF-1.4' });
    expect(pdf.status).toBe(415);
    const big = await httpRequest(target, { method: 'POST', path: '/v1/appointments/import', headers: { 'content-type': 'text/csv', authorization: auth }, body: Buffer.alloc(11 * 1024 * 1024, 'a') });
    expect(big.status).toBe(413);
    const noAuth = await httpRequest(target, { method: 'POST', path: '/v1/appointments/import', headers: { 'content-type': 'text/csv' }, body: 'x' });
    expect(noAuth.status).toBe(401);
    expect(written()).toEqual(before);

    const csv = `${HEADER}\nPM-1,12/1/2026,9:30 AM,Byron,Ada,12/10/1985,${SEED_PROVIDERS[0].npi},\nPM-3,12/1/2026,9:45 AM,Byron,Ada,12/10/1985,,Lab\n`;
    const imported = await httpRequest(target, { method: 'POST', path: '/v1/appointments/import', headers: { 'content-type': 'text/csv', authorization: auth }, body: csv });
    expect(imported.status).toBe(200);
    expect(imported.json.rows).toEqual([
      { row: 2, result: 'unchanged', appointment_id: created.json.appointment.id, patient: 'created', card: 'none' },
      { row: 3, result: 'created', appointment_id: expect.any(String), patient: 'matched', card: 'none' },
    ]);
    const listed = await httpRequest(target, { path: '/v1/appointments?date=2026-12-01', headers: { authorization: auth } });
    expect(listed.json.data.map((a: { external_id: string }) => a.external_id)).toEqual(['PM-1', 'PM-3']);
  });

  it('is not part of the sandbox (the upstream has no appointments)', async () => {
    const sandbox = await startSandbox({ port: 0, apiKey: 'k' });
    try {
      const answer = await httpRequest({ baseUrl: sandbox.url }, { method: 'POST', path: '/v1/appointments/import', headers: { authorization: 'Bearer k', 'content-type': 'text/csv' }, body: 'a,b\n' });
      expect(answer.status).toBe(404);
    } finally {
      await sandbox.close();
    }
  });
});
