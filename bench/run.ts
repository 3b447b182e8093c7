import { estimate } from './estimate';
import { endOfDay } from './end-of-day';
import { barcodes } from './barcodes';
import { extraction } from './extraction';
import { printResults, printTable, type BenchResult, type Benchmark } from './harness';
import { localApi } from './local-api';
import { localCreate } from './local-create';
import { payerSearch } from './payer-search';
import { practicePull } from './practice-pull';
import { schedule } from './schedule';
import { uiSchedule } from './ui-schedule';
import { outboxSize } from './outbox-size';
import { startup } from './startup';
import { startupSeen } from './startup-seen';
import { syncDrain } from './sync-drain';
import { uiToday } from './ui-today';
import { uiAnswer } from './ui-answer';
import { uiLoad } from './ui-load';

/**
 * `npm run bench [-- --quick] [-- --only NAME] [-- --profile]`: every benchmark, each against its raw
 * limit measured in the same run; a table, then one JSON line per figure.
 */
const BENCHMARKS: Record<string, Benchmark> = {
  local_create: localCreate,
  local_api: localApi,
  startup,
  startup_seen: startupSeen,
  sync_drain: syncDrain,
  ui_today: uiToday,
  extraction,
  barcodes,
  outbox_size: outboxSize,
  payer_search: payerSearch,
  practice_pull: practicePull,
  schedule,
  ui_schedule: uiSchedule,
  ui_answer: uiAnswer,
  ui_load: uiLoad,
  estimate,
  end_of_day: endOfDay,
};

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const profile = args.includes('--profile');
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1]?.split(',') : undefined;
  const results: BenchResult[] = [];
  for (const [name, bench] of Object.entries(BENCHMARKS)) {
    if (only && !only.includes(name)) continue;
    const started = Date.now();
    process.stderr.write(`running ${name}${quick ? ' (quick)' : ''}…\n`);
    results.push(...(await bench({ quick, profile })));
    process.stderr.write(`  ${name} took ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
  printTable(results);
  printResults(results);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
