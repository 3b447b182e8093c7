/**
 * Measures the extraction engine on a labelled set of card images: per field, how many
 * it reads right, how many it gets wrong with a confidence at or above the intake's
 * "check this" threshold (the ones a person would not be asked to check), and how many
 * values it reports for fields the card does not print.
 *
 * `npx tsx test/integration/main/extraction/card-measure.ts [--real DIR] [--held-out N] [--verbose]`
 * prints the tables; the accuracy test prints the same ones.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateCards } from '../../../../scripts/generate-cards';
import { createExtractionEngine, type ExtractionEngine } from '@src/main/extraction/extraction-engine';
import { asExtractionFailure } from '@src/main/extraction/extraction-failure';
import { directoryEntities } from '@src/shared/payers/payer-directory';
import { REVIEW_BELOW as LOW_CONFIDENCE } from '@src/shared/review-threshold';
import type { ClearinghouseEntity, ExtractedFieldName, ExtractedFields } from '@src/shared/contract';

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
}

export interface Measured {
  file: string;
  truth: Truth;
  fields: ExtractedFields;
  failure?: string;
  ms: number;
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

export function scoreSet(results: Measured[], threshold = LOW_CONFIDENCE): FieldRow[] {
  return MEASURED.map((field) => {
    const row: FieldRow = { field, right: 0, total: 0, blank: 0, wrongHigh: 0, wrongLow: 0, extraHigh: 0 };
    for (const r of results) {
      const want = r.truth[field];
      const got = r.fields[field];
      if (!want) {
        if (got && got.value !== '' && got.confidence >= threshold && field !== 'payer_name') row.extraHigh++;
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

/** A freshly generated set in the generator's held-out styles (never the classic ones). */
export async function heldOutSet(count: number, seed: number): Promise<LabelledImage[]> {
  const cards = await generateCards({ count, seed, styles: 'held-out' });
  return cards.map((c) => ({ file: c.file, bytes: new Uint8Array(c.bytes), truth: c.truth }));
}

export async function measure(engine: ExtractionEngine, images: LabelledImage[], entities: readonly ClearinghouseEntity[]): Promise<Measured[]> {
  const out: Measured[] = [];
  for (const image of images) {
    const started = Date.now();
    try {
      const { fields, quality } = await engine.extract([{ bytes: image.bytes }], { entities });
      const q = quality.map((s) => `sharp ${s.sharpness} glare ${s.glare}`).join(' | ');
      out.push({ file: image.file, truth: image.truth, fields, ms: Date.now() - started, quality: q });
    } catch (error) {
      out.push({ file: image.file, truth: image.truth, fields: {}, failure: asExtractionFailure(error).reason, ms: Date.now() - started });
    }
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

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { real: { type: 'string' }, 'held-out': { type: 'string', default: '30' }, seed: { type: 'string', default: '101' }, verbose: { type: 'boolean' } } });
  const engine = createExtractionEngine();
  await engine.warmUp();
  try {
    // The payer directory the desk's upstream serves (the sandbox serves the same one).
    const entities = directoryEntities();
    const sets: [string, LabelledImage[]][] = [];
    if (values.real) sets.push([`real-world cards (${values.real})`, loadRealSet(values.real)]);
    const n = Number(values['held-out']);
    if (n > 0) sets.push([`held-out generated cards (${n}, seed ${values.seed})`, await heldOutSet(n, Number(values.seed))]);
    for (const [name, images] of sets) {
      const results = await measure(engine, images, entities);
      if (values.verbose) console.log(formatDetails(results));
      const ms = results.map((r) => r.ms).sort((a, b) => a - b);
      console.log(`\n${name}: ${images.length} images, median ${ms[ms.length >> 1]} ms\n${formatScores(scoreSet(results))}\n`);
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
