import { EXTRACTED_FIELDS, type ExtractedFieldName, type ExtractedFields } from '@src/shared/contract';
import type { CardTruth } from '../../../../scripts/generate-cards';

/** What counts as right: ids exactly; names and plans ignoring case, spacing and punctuation. */
export function isRight(field: ExtractedFieldName, got: string | undefined, want: string): boolean {
  if (got === undefined) return false;
  if (field === 'member_name' || field === 'plan_name') {
    const loose = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]+/g, ' ').trim();
    return loose(got) === loose(want);
  }
  return got === want;
}

export interface FieldScore {
  field: ExtractedFieldName;
  right: number;
  total: number;
  share: number;
}

export function scoreFields(results: { truth: CardTruth; fields: ExtractedFields }[]): FieldScore[] {
  return EXTRACTED_FIELDS.map((field) => {
    const right = results.filter((r) => isRight(field, r.fields[field]?.value, r.truth[field])).length;
    return { field, right, total: results.length, share: right / results.length };
  });
}

export function formatTable(scores: FieldScore[], goals: Partial<Record<ExtractedFieldName, number>>): string {
  const rows = scores.map((s) => [
    s.field,
    `${s.right}/${s.total}`,
    `${(s.share * 100).toFixed(1)}%`,
    goals[s.field] === undefined ? '—' : `≥ ${goals[s.field]! * 100}% ${s.share >= goals[s.field]! ? '✓' : '✗'}`,
  ]);
  const header = ['field', 'exact', 'accuracy', 'goal'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}
