import { parse } from 'csv-parse/sync';
import { createHost } from '@src/main/host/create-host';
import { stepBatches } from '@src/main/batch/batch-runner';
import { planBatch } from '@src/main/batch/batch-plan';
import { createAppointmentSettings } from '@src/main/appointments/appointment-settings';
import { generateSchedule } from '@test/support/appointments/schedule-generator';
import { createDayOfVisits } from '@test/support/batch/day-of-visits';
import { makeTempDir } from '@test/support/temp-dir';
import { round, type BenchResult, type Benchmark } from './harness';

const IMPORT_ROWS = 5_000;
const BATCH_APPOINTMENTS = 1_000;

/**
 * The schedule (issue 16): importing a 5,000-row export (three layouts, one of them
 * Windows-1252, with the generator's duplicates and bad rows), against csv-parse alone on the
 * same bytes (the floor: reading the file); and a batch for a day of 1,000 appointments:
 * planning it (one transaction) and making its checks with their outbox entries.
 */
export const schedule: Benchmark = async ({ quick }) => {
  const results: BenchResult[] = [];
  const rows = quick ? 1_000 : IMPORT_ROWS;
  {
    const temp = makeTempDir('coverdesk-bench-schedule-');
    const host = createHost({ dataDir: temp.dir, localApi: false, hotFolder: false });
    try {
      const generated = generateSchedule({ rows, seed: 5000, firstDate: '2026-12-07' });
      for (const p of generated.existing) await host.service.create('patients', p, { source: 'dashboard' });
      const started = performance.now();
      let created = 0;
      for (const file of generated.files) created += (await host.bridge['appointments.import']({ data_base64: Buffer.from(file.bytes).toString('base64') })).counts.created;
      const ms = performance.now() - started;
      const parseStart = performance.now();
      for (const file of generated.files) parse(Buffer.from(file.bytes).toString('latin1'), { relax_column_count: true, delimiter: [',', '\t', ';'] });
      const parseMs = performance.now() - parseStart;
      const again = performance.now();
      for (const file of generated.files) await host.bridge['appointments.import']({ data_base64: Buffer.from(file.bytes).toString('base64') });
      const againMs = performance.now() - again;
      results.push(
        { name: `schedule.import_${rows}_rows`, value: round(ms), unit: 'ms', baseline: round(parseMs), ratio: round(parseMs / ms, 3), goal: '< 5 s', met: ms < 5_000 },
        { name: 'schedule.import.rows_per_s', value: round((rows / ms) * 1000, 0), unit: 'rows/s', baseline: null, ratio: null },
        { name: `schedule.reimport_${rows}_rows_unchanged`, value: round(againMs), unit: 'ms', baseline: null, ratio: null },
        { name: 'schedule.import.appointments_created', value: created, unit: 'count', baseline: null, ratio: null },
      );
    } finally {
      await host.close();
      temp.cleanup();
    }
  }
  {
    const temp = makeTempDir('coverdesk-bench-batch-');
    const host = createHost({ dataDir: temp.dir, localApi: false, hotFolder: false });
    try {
      const count = quick ? 200 : BATCH_APPOINTMENTS;
      const date = '2026-12-08';
      const visits = await createDayOfVisits(host, date, count);
      const db = host.database.db;
      const deps = {
        db,
        clock: host.clock,
        ids: host.ids,
        settings: createAppointmentSettings({ db }),
        practice: () => ({ default_provider_id: null, default_service_type: null }),
        photoUrl: (key: string) => `/v1/photos/${key}`,
      };
      const planStart = performance.now();
      planBatch(deps, { date });
      const planMs = performance.now() - planStart;
      // Offline, so the bound on answers in flight does not pace it: this is the cost of making the checks.
      const runStart = performance.now();
      let made = 0;
      for (let step = stepBatches(deps, { online: false }); step > 0; step = stepBatches(deps, { online: false })) made += step;
      const runMs = performance.now() - runStart;
      results.push(
        { name: `schedule.batch_plan_${count}`, value: round(planMs), unit: 'ms', baseline: null, ratio: null, goal: '< 1 s', met: planMs < 1_000 },
        { name: `schedule.batch_checks_made_${made}`, value: round(runMs), unit: 'ms', baseline: null, ratio: null },
        { name: 'schedule.batch.checks_per_s', value: round((made / runMs) * 1000, 0), unit: 'checks/s', baseline: null, ratio: null },
        { name: 'schedule.batch.appointments', value: visits.length, unit: 'count', baseline: null, ratio: null },
      );
    } finally {
      await host.close();
      temp.cleanup();
    }
  }
  return results;
};
