import { useCallback, useMemo } from 'react';
import type { ClearinghouseEntity } from '../../../shared/contract';
import { withDirectoryFacts } from '../../../shared/payers/payer-directory';
import { buildPayerIndex, searchPayers, type PayerHit } from '../../../shared/payers/payer-search';
import type { ComboOption } from '../ui/combobox';

/** What a payer option says beside its name: its payer id, and the name or id that matched when not the obvious one. */
function detailOf(hit: PayerHit): string {
  const id = `Payer id ${hit.entry.payer_id}`;
  if (hit.matched.kind === 'alias_id') return `${id} · also ${hit.matched.text}`;
  if (hit.matched.kind === 'alternate_name') return `${id} · “${hit.matched.text}”`;
  return hit.entry.enrollment_required ? `${id} · enrollment required` : id;
}

/**
 * The payer picker's options and search over the payers the desk knows, with the
 * directory's alias ids and alternate names: "BCBS TX", "Blue Cross Texas" and "84980"
 * all find Blue Cross Blue Shield of Texas. The index is built once per list of payers.
 */
export function usePayerPicker(entities: readonly ClearinghouseEntity[]): { options: ComboOption[]; filter(query: string): ComboOption[] } {
  const index = useMemo(() => buildPayerIndex(withDirectoryFacts(entities)), [entities]);
  const options = useMemo(() => entities.map((e) => ({ value: e.id, label: e.name, detail: `Payer id ${e.payer_id}` })), [entities]);
  const filter = useCallback((query: string) => searchPayers(index, query, 60).map((hit) => ({ value: hit.entry.id, label: hit.entry.name, detail: detailOf(hit) })), [index]);
  return { options, filter };
}
