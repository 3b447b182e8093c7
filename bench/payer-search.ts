import { payerDirectory, type PayerEntry } from '@src/shared/payers/payer-directory';
import { buildPayerIndex, normalizePayerText, searchPayers } from '@src/shared/payers/payer-search';
import { interleaved, median, percentile, timeEach, type BenchResult, type Benchmark } from './harness';

/**
 * Payer search over the whole directory, one call per keystroke as a person types what
 * they read off a card or a referral: names in another order, abbreviations, payer ids.
 * The raw limit is the least any picker could do per keystroke: one lower-case substring
 * test per name over the same entries (no abbreviations, no word order, no ids). Goal:
 * under 50 ms per keystroke.
 */
const TYPED = ['Blue Cross Texas', 'BCBS TX', '84980', 'premera', '00430', 'united healthcare', 'medicare', 'Medicaid Arizona', 'anthem blue cross ohio', 'kaiser colorado'];

/** Every prefix of every query: what the picker searches as each key lands. */
const KEYSTROKES = TYPED.flatMap((query) => Array.from({ length: query.length }, (_, i) => query.slice(0, i + 1)).filter((q) => q.trim()));

function rawScan(entries: readonly PayerEntry[], names: readonly string[], query: string): PayerEntry[] {
  const q = normalizePayerText(query);
  const hits: PayerEntry[] = [];
  for (let i = 0; i < entries.length && hits.length < 20; i++) if (names[i].includes(q)) hits.push(entries[i]);
  return hits;
}

export const payerSearch: Benchmark = async ({ quick }) => {
  const entries = payerDirectory();
  const [built] = await timeEach(1, 0, () => buildPayerIndex(entries));
  const index = buildPayerIndex(entries);
  const names = entries.map((e) => normalizePayerText(e.name));
  const rounds = quick ? 5 : 30;
  const perKey: { ours: number[]; raw: number[] } = { ours: [], raw: [] };
  const timeKeys = (search: (q: string) => unknown, into: number[]) => async () => {
    for (const q of KEYSTROKES) {
      const start = process.hrtime.bigint();
      search(q);
      into.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  };
  await interleaved(rounds, 2, timeKeys((q) => searchPayers(index, q, 20), perKey.ours), timeKeys((q) => rawScan(entries, names, q), perKey.raw));
  // The warm-up rounds were recorded too; keep the measured ones only.
  const measured = (all: number[]) => all.slice(2 * KEYSTROKES.length);
  const ours = measured(perKey.ours);
  const raw = measured(perKey.raw);
  const p95 = percentile(ours, 95);
  const results: BenchResult[] = [
    { name: 'payer_search_keystroke_p95', value: p95, unit: 'ms', ratio: percentile(raw, 95) / p95, baseline: percentile(raw, 95), goal: '< 50 ms', met: p95 < 50 },
    { name: 'payer_search_keystroke_median', value: median(ours), unit: 'ms', ratio: median(raw) / median(ours), baseline: median(raw) },
    { name: 'payer_search_keystroke_max', value: Math.max(...ours), unit: 'ms', ratio: null, baseline: Math.max(...raw), goal: '< 50 ms', met: Math.max(...ours) < 50 },
    { name: 'payer_search_index_build', value: built, unit: 'ms', ratio: null, baseline: null },
    { name: 'payer_directory_payers', value: entries.length, unit: 'payers', ratio: null, baseline: null },
  ];
  return results;
};
