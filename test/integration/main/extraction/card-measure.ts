/**
 * Measures the extraction engine on a labelled set of card images: per field, how many
 * it reads right, how many it gets wrong with a confidence at or above the intake's
 * "check this" threshold (the ones a person would not be asked to check), and how many
 * values it reports for fields the card does not print.
 *
 * `npx tsx test/integration/main/extraction/card-measure.ts --families held-out|tuning [--count 100] [--seed 101] [--real DIR] [--verbose] [--profile] [--lang-path DIR]`
 * prints, per set: wall and CPU milliseconds per card (median, p90; CPU is what to compare on
 * a machine shared under load), the per-field table, a line per layout family (fields right / fields
 * printed), and the calibration table (confidence bucket → values given, share right; wrong
 * values at or above 0.8). `--profile` adds where the time goes: per step of the reader
 * (preparing, each OCR pass, the re-reads, parsing, the barcode look), on how many cards it
 * ran and its milliseconds per card. `--lang-path` reads with another tesseract language data folder
 * (to compare models on the same cards), every reading. `--held-out N` still measures N cards of the older held-out styles.
 * The accuracy test prints the same tables.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateCards } from '../../../../scripts/generate-cards';
import type { Split } from '../../../../scripts/card-families';
import { createExtractionEngine, type ExtractionEngine } from '@src/main/extraction/extraction-engine';
import { asExtractionFailure } from '@src/main/extraction/extraction-failure';
import { directoryEntities } from '@src/shared/payers/payer-directory';
import { REVIEW_BELOW as LOW_CONFIDENCE } from '@src/shared/review-threshold';
import type { ClearinghouseEntity, ExtractedFieldName, ExtractedFields } from '@src/shared/contract';

const USAGE = `Usage: npx tsx test/integration/main/extraction/card-measure.ts --families tuning|held-out [options] | --real DIR
  --families tuning|held-out   the generator's layout families of that split
  --count N --seed S           how many cards, drawn from which seed (100, 101)
  --validation F1,F2,...       tuning families counted apart, as validation (never tuned on)
  --only-families F1,F2,...    only these families
  --real DIR                   a folder of card images with truth.json
  --held-out N                 N cards of the older held-out styles
  --verbose                    every card, field by field (ok, wrong, BLANK, extra)
  --profile                    where the time goes, per step of the reader
  --lang-path DIR              another tesseract language data folder, every reading
  --split on|off               each side read as two halves on the two workers`;

/** The fields the issue measures, in the order the table prints them. */
export const MEASURED: ExtractedFieldName[] = ['member_id', 'member_name', 'payer_name', 'plan_name', 'rx_bin', 'rx_pcn', 'rx_group', 'group_number'];

/** The issue's goals per field. */
export const GOALS: Partial<Record<ExtractedFieldName, number>> = {
  member_id: 0.95,
  member_name: 0.9,
  payer_name: 0.9,
  plan_name: 0.8,
  rx_bin: 0.95,
  rx_pcn: 0.95,
  rx_group: 0.95,
};

/** What a person reads on one image; a field the card does not print is absent or ''. */
export type Truth = Partial<Record<ExtractedFieldName, string>>;

export interface LabelledImage {
  file: string;
  bytes: Uint8Array;
  truth: Truth;
  /** The generator's layout family, where the image is a generated one. */
  family?: string;
}

export interface Measured {
  file: string;
  truth: Truth;
  family?: string;
  fields: ExtractedFields;
  failure?: string;
  ms: number;
  /** Process CPU (main thread, OCR worker, sharp): what the card costs a shared 2-core desk whatever the load. */
  cpuMs?: number;
  quality?: string;
}

const letters = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
const FILLER = /\b(inc|co|company|corp|llc|of|the|and)\b/gi;

/**
 * Ids ignore the dashes and spaces cards print inside them (000-00-0000-A); names and
 * plans ignore case, spacing and punctuation; a payer is right when the directory entity
 * read names the payer printed ("Humana" for "Humana Medical Plan, Inc.").
 */
export function isRight(field: ExtractedFieldName, got: string, want: string): boolean {
  if (field === 'payer_name') {
    const g = letters(got.replace(FILLER, ''));
    const w = letters(want.replace(FILLER, ''));
    return g.length >= 4 && w.length >= 4 && (g.includes(w) || w.includes(g));
  }
  return letters(got) === letters(want);
}

export interface FieldRow {
  field: ExtractedFieldName;
  right: number;
  total: number;
  blank: number;
  /** Wrong, and at or above the threshold: the desk would not be asked to check it. */
  wrongHigh: number;
  /** Wrong, but below the threshold (flagged for a person). */
  wrongLow: number;
  /** A value at or above the threshold for a field the card does not print (payer aside). */
  extraHigh: number;
}

/**
 * Whether the truth says the card prints no such field. A payer is the exception where the
 * truth leaves it out (the real set's backs name none, and may print one): only an explicit
 * '' (a pharmacy-only card, which names its PBM and no medical payer) says there is none.
 */
function claimsAbsent(truth: Truth, field: ExtractedFieldName): boolean {
  return field !== 'payer_name' || truth.payer_name === '';
}

export function scoreSet(results: Measured[], threshold = LOW_CONFIDENCE): FieldRow[] {
  return MEASURED.map((field) => {
    const row: FieldRow = { field, right: 0, total: 0, blank: 0, wrongHigh: 0, wrongLow: 0, extraHigh: 0 };
    for (const r of results) {
      const want = r.truth[field];
      const got = r.fields[field];
      if (!want) {
        if (got && got.value !== '' && got.confidence >= threshold && claimsAbsent(r.truth, field)) row.extraHigh++;
        continue;
      }
      row.total++;
      if (!got || got.value === '') row.blank++;
      else if (isRight(field, got.value, want)) row.right++;
      else if (got.confidence >= threshold) row.wrongHigh++;
      else row.wrongLow++;
    }
    return row;
  });
}

export function formatScores(rows: FieldRow[]): string {
  const cells = rows.map((r) => {
    const goal = GOALS[r.field];
    const share = r.total === 0 ? 1 : r.right / r.total;
    return [
      r.field,
      `${r.right}/${r.total}`,
      r.total === 0 ? '—' : `${(share * 100).toFixed(0)}%`,
      goal === undefined ? '—' : `≥${goal * 100}% ${share >= goal ? 'met' : 'SHORT'}`,
      String(r.blank),
      String(r.wrongLow),
      String(r.wrongHigh),
      String(r.extraHigh),
    ];
  });
  const header = ['field', 'right', 'share', 'goal', 'blank', 'wrong<thr', 'WRONG≥thr', 'extra≥thr'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const fmt = (c: string[]) => c.map((v, i) => v.padEnd(widths[i])).join('  ');
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(fmt)].join('\n');
}

/** The real-world folder: images and a `truth.json` of file → fields ('_'-prefixed keys are notes). */
export function loadRealSet(dir: string): LabelledImage[] {
  const truth = JSON.parse(fs.readFileSync(path.join(dir, 'truth.json'), 'utf8')) as Record<string, Record<string, unknown>>;
  return Object.entries(truth).map(([file, fields]) => ({
    file,
    bytes: new Uint8Array(fs.readFileSync(path.join(dir, file))),
    truth: Object.fromEntries(Object.entries(fields).filter(([, v]) => typeof v === 'string')) as Truth,
  }));
}

/** A freshly generated set from the layout families of one split (card i: family i mod N). */
export async function familySet(split: Split, count: number, seed: number): Promise<LabelledImage[]> {
  const cards = await generateCards({ families: split, count, seed });
  return cards.map((c) => ({ file: c.file, bytes: new Uint8Array(c.bytes), truth: c.truth, family: c.style.family }));
}

/** Per layout family: fields read right out of the fields its cards print. */
export function formatFamilies(results: Measured[]): string {
  const byFamily = new Map<string, Measured[]>();
  for (const r of results) if (r.family) byFamily.set(r.family, [...(byFamily.get(r.family) ?? []), r]);
  const width = Math.max(0, ...[...byFamily.keys()].map((k) => k.length));
  return [...byFamily]
    .map(([family, rs]) => {
      const rows = scoreSet(rs);
      const right = rows.reduce((n, r) => n + r.right, 0);
      const total = rows.reduce((n, r) => n + r.total, 0);
      const high = rows.reduce((n, r) => n + r.wrongHigh + r.extraHigh, 0);
      const share = total === 0 ? '—' : `${((right / total) * 100).toFixed(0)}%`;
      return `${family.padEnd(width)}  ${String(right).padStart(3)}/${String(total).padEnd(3)} ${share.padStart(4)}  (${rs.length} cards${high ? `, ${high} wrong ≥thr` : ''})`;
    })
    .join('\n');
}

/** The calibration buckets: [low, high), the last one closed at 1. */
export const BUCKETS: readonly [number, number][] = [
  [0, 0.5],
  [0.5, 0.6],
  [0.6, 0.7],
  [0.7, 0.8],
  [0.8, 0.9],
  [0.9, 1.0001],
];

export interface Calibration {
  buckets: { low: number; high: number; given: number; right: number }[];
  /** Values given at or above 0.8 that are wrong (or that the card does not print). */
  wrongAtOrAbove08: number;
}

/**
 * Every value the reader gave, by its confidence: how often a value of that confidence is
 * right. A value for a field the card does not print counts as given and wrong.
 */
export function calibrate(results: Measured[]): Calibration {
  const buckets = BUCKETS.map(([low, high]) => ({ low, high, given: 0, right: 0 }));
  let wrongAtOrAbove08 = 0;
  for (const r of results) {
    for (const field of MEASURED) {
      const got = r.fields[field];
      if (!got || got.value === '') continue;
      const want = r.truth[field];
      if (!want && !claimsAbsent(r.truth, field)) continue;
      const right = !!want && isRight(field, got.value, want);
      const bucket = buckets.find((b) => got.confidence >= b.low && got.confidence < b.high) ?? buckets[buckets.length - 1];
      bucket.given++;
      if (right) bucket.right++;
      else if (got.confidence >= 0.8) wrongAtOrAbove08++;
    }
  }
  return { buckets, wrongAtOrAbove08 };
}

export function formatCalibration(c: Calibration): string {
  const label = (b: { low: number; high: number }) => (b.low === 0 ? '<0.5' : `${b.low.toFixed(1)}–${Math.min(1, b.high).toFixed(1)}`);
  const lines = ['confidence  given  right  share', '----------  -----  -----  -----'];
  for (const b of c.buckets) lines.push(`${label(b).padEnd(10)}  ${String(b.given).padStart(5)}  ${String(b.right).padStart(5)}  ${b.given === 0 ? '    —' : `${((b.right / b.given) * 100).toFixed(0).padStart(4)}%`}`);
  lines.push(`wrong values at or above 0.8: ${c.wrongAtOrAbove08}`);
  return lines.join('\n');
}

/** A freshly generated set in the generator's held-out styles (never the classic ones). */
export async function heldOutSet(count: number, seed: number): Promise<LabelledImage[]> {
  const cards = await generateCards({ count, seed, styles: 'held-out' });
  return cards.map((c) => ({ file: c.file, bytes: new Uint8Array(c.bytes), truth: c.truth }));
}

/**
 * Per-step timings of the reader, card by card: `record` is the engine's `profile` option,
 * `endCard` closes one card's steps.
 */
export function createProfiler(): { record: (stage: string, ms: number) => void; endCard: () => void; format: () => string } {
  const cards: Map<string, number>[] = [];
  let current = new Map<string, number>();
  return {
    record: (stage, ms) => current.set(stage, (current.get(stage) ?? 0) + ms),
    endCard: () => {
      cards.push(current);
      current = new Map();
    },
    format: () => {
      const stages = [...new Set(cards.flatMap((c) => [...c.keys()]))];
      const totalMean = cards.reduce((sum, c) => sum + (c.get('total') ?? 0), 0) / Math.max(1, cards.length);
      const rows = stages.map((stage) => {
        const ran = cards.flatMap((c) => (c.has(stage) ? [c.get(stage)!] : [])).sort((a, b) => a - b);
        const mean = ran.reduce((a, b) => a + b, 0) / Math.max(1, cards.length);
        return { stage, cards: ran.length, median: ran[ran.length >> 1], p90: ran[Math.floor(ran.length * 0.9)], mean };
      });
      rows.sort((a, b) => b.mean - a.mean);
      const header = 'step                              cards  median ms (where run)  p90 ms  ms per card  share of total';
      const line = (r: (typeof rows)[number]) =>
        `${r.stage.padEnd(32)}  ${String(r.cards).padStart(5)}  ${r.median.toFixed(0).padStart(21)}  ${r.p90.toFixed(0).padStart(6)}  ${r.mean.toFixed(0).padStart(11)}  ${totalMean > 0 ? `${((r.mean / totalMean) * 100).toFixed(0).padStart(13)}%` : ''}`;
      const count = cards.length;
      // One table per set measured.
      cards.length = 0;
      return [header, '-'.repeat(header.length), ...rows.map(line), `(${count} cards; the barcode look runs beside the OCR, so the steps add up to more than the total)`].join('\n');
    },
  };
}

export async function measure(engine: ExtractionEngine, images: LabelledImage[], entities: readonly ClearinghouseEntity[], afterEach?: () => void): Promise<Measured[]> {
  const out: Measured[] = [];
  for (const image of images) {
    const started = Date.now();
    const cpu = process.cpuUsage();
    const cpuMs = () => {
      const used = process.cpuUsage(cpu);
      return Math.round((used.user + used.system) / 1000);
    };
    try {
      const { fields, quality } = await engine.extract([{ bytes: image.bytes }], { entities });
      const q = quality.map((s) => `sharp ${s.sharpness} glare ${s.glare}`).join(' | ');
      out.push({ file: image.file, truth: image.truth, family: image.family, fields, ms: Date.now() - started, cpuMs: cpuMs(), quality: q });
    } catch (error) {
      out.push({ file: image.file, truth: image.truth, family: image.family, fields: {}, failure: asExtractionFailure(error).reason, ms: Date.now() - started, cpuMs: cpuMs() });
    }
    afterEach?.();
  }
  return out;
}

/** Per image, what was read against what is printed: for finding where the misses are. */
export function formatDetails(results: Measured[], threshold = LOW_CONFIDENCE): string {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`${r.file} (${r.ms} ms)${r.failure ? ` FAILED ${r.failure}` : ''} [${r.quality ?? ''}]`);
    for (const field of MEASURED) {
      const want = r.truth[field] ?? '';
      const got = r.fields[field];
      if (!want && !got) continue;
      const mark = !want ? (got!.confidence >= threshold ? 'EXTRA' : 'extra') : !got ? 'BLANK' : isRight(field, got.value, want) ? 'ok' : got.confidence >= threshold ? 'WRONG' : 'wrong';
      lines.push(`  ${mark.padEnd(6)} ${field.padEnd(13)} ${JSON.stringify(got?.value ?? null)} ${got ? got.confidence.toFixed(2) : ''}  want ${JSON.stringify(want)}`);
    }
  }
  return lines.join('\n');
}

/** A comma-separated list of family names, or undefined where none was given. */
function familyList(text: string | undefined): Set<string> | undefined {
  if (text === undefined) return undefined;
  const names = text.split(',').map((n) => n.trim()).filter(Boolean);
  if (names.length === 0) throw new Error('A family list needs at least one family name, separated by commas.');
  return new Set(names);
}

/** Results apart by family: those not named (train) and those named (validation). */
export function splitByFamilies(results: Measured[], validation: ReadonlySet<string>): [string, Measured[]][] {
  return [
    ['train', results.filter((r) => !r.family || !validation.has(r.family))],
    ['validation', results.filter((r) => !!r.family && validation.has(r.family))],
  ];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      real: { type: 'string' },
      'held-out': { type: 'string' },
      families: { type: 'string' },
      count: { type: 'string', default: '100' },
      seed: { type: 'string', default: '101' },
      verbose: { type: 'boolean' },
      profile: { type: 'boolean' },
      'lang-path': { type: 'string' },
      validation: { type: 'string' },
      'only-families': { type: 'string' },
      // The engine's splitSides: each side read as two halves on the two workers (on or off).
      split: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (values.families !== undefined && values.families !== 'tuning' && values.families !== 'held-out') throw new Error('--families must be tuning or held-out.');
  const count = Number(values.count);
  const seed = Number(values.seed);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed)) throw new Error('--count must be a positive whole number and --seed a whole number.');
  if (values.split !== undefined && values.split !== 'on' && values.split !== 'off') throw new Error('--split must be on or off.');
  const profiler = values.profile ? createProfiler() : undefined;
  const engine = createExtractionEngine({ langPath: values['lang-path'], profile: profiler?.record, ...(values.split ? { splitSides: values.split === 'on' } : {}) });
  await engine.warmUp();
  try {
    // The payer directory the desk's upstream serves (the sandbox serves the same one).
    const entities = directoryEntities();
    const sets: [string, LabelledImage[]][] = [];
    if (values.real) sets.push([`real-world cards (${values.real})`, loadRealSet(values.real)]);
    if (values.families) sets.push([`${values.families} layout families (${count} cards, seed ${seed})`, await familySet(values.families, count, seed)]);
    // Without any set named, the older held-out styles, as this command measured before families.
    const n = Number(values['held-out'] ?? (values.families || values.real ? 0 : 30));
    if (n > 0) sets.push([`held-out generated cards (${n}, seed ${seed})`, await heldOutSet(n, seed)]);
    const only = familyList(values['only-families']);
    const validation = familyList(values.validation);
    for (const [name, all] of sets) {
      const images = only ? all.filter((i) => !i.family || only.has(i.family)) : all;
      const results = await measure(engine, images, entities, profiler?.endCard);
      if (values.verbose) console.log(formatDetails(results));
      if (validation) {
        for (const [part, rs] of splitByFamilies(results, validation)) {
          console.log(`\n${name}, ${part} (${rs.length} cards):\n${formatScores(scoreSet(rs))}\n${formatCalibration(calibrate(rs)).split('\n').pop()}`);
        }
      }
      const ms = results.map((r) => r.ms).sort((a, b) => a - b);
      const cpu = results.map((r) => r.cpuMs ?? 0).sort((a, b) => a - b);
      console.log(`\n${name}: ${images.length} images, median ${ms[ms.length >> 1]} ms, p90 ${ms[Math.floor(ms.length * 0.9)]} ms; CPU median ${cpu[cpu.length >> 1]} ms, p90 ${cpu[Math.floor(cpu.length * 0.9)]} ms (load ${os.loadavg()[0].toFixed(1)})\n${formatScores(scoreSet(results))}\n`);
      if (results.some((r) => r.family)) console.log(`per family (fields right / fields printed):\n${formatFamilies(results)}\n`);
      console.log(`calibration (every value given):\n${formatCalibration(calibrate(results))}\n`);
      if (profiler) console.log(`where the time goes:\n${profiler.format()}\n`);
    }
  } finally {
    await engine.close();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
