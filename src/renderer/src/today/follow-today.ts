import type { Query, QueryClient } from '@tanstack/react-query';
import type { BridgeApi } from '../../../shared/bridge/contract';
import type { DeskPatientRow, DeskToday, DeskTodayChanges } from '../../../shared/bridge/desk-contract';
import { compareDeskRows, TODAY_CHANGES_MAX_IDS } from '../../../shared/bridge/desk-order';
import { readBridge, refreshQuery } from '../bridge/query-client';

/** What Today must catch up with: records named by `records.changed`, and whether sync moved. */
export interface TodayChangesWanted {
  ids: Set<string>;
  outbox: boolean;
}

/** Rows read again that say the same as before stay the same objects, so nothing re-renders for them. */
function sameRow(a: DeskPatientRow, b: DeskPatientRow): boolean {
  const keys = Object.keys(a) as (keyof DeskPatientRow)[];
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/**
 * Today with the changed patients' rows in place: those the host no longer has on Today leave,
 * the others go where Today's order puts them (the host's order: compareDeskRows). The list is
 * sorted and so are the changes, so one merge keeps it sorted without sorting 50,000 rows.
 */
export function patchToday(current: DeskToday, changes: DeskTodayChanges, outboxRead: boolean): DeskToday {
  const asOf = outboxRead ? changes.as_of : current.as_of;
  const touched = new Set(changes.patient_ids);
  const before = new Map<string, DeskPatientRow>();
  const kept: DeskPatientRow[] = [];
  for (const row of current.data) {
    if (touched.has(row.patient_id)) before.set(row.patient_id, row);
    else kept.push(row);
  }
  const fresh = changes.data
    .map((row) => {
      const old = before.get(row.patient_id);
      return old && sameRow(old, row) ? old : row;
    })
    .sort(compareDeskRows);
  const data: DeskPatientRow[] = [];
  let k = 0;
  let f = 0;
  while (k < kept.length || f < fresh.length) {
    if (f >= fresh.length || (k < kept.length && compareDeskRows(kept[k], fresh[f]) <= 0)) data.push(kept[k++]);
    else data.push(fresh[f++]);
  }
  const unchanged = data.length === current.data.length && data.every((row, i) => row === current.data[i]);
  if (unchanged) return asOf === current.as_of ? current : { data: current.data, as_of: asOf };
  return { data, as_of: asOf };
}

const following = new WeakMap<Query, Promise<void>>();

/**
 * Catches Today up with changes by asking the host for the changed patients' rows only
 * (`desk.todayChanges`) and patching the list (issue 31: during a batch Today was read again
 * whole, 14 MB for 50,000 patients, about once a second). One catch-up per list at a time, in
 * the order asked. Read whole instead when nothing is shown yet, no screen shows it, or the
 * changes are too many to name (a practice's first pull).
 */
export function followToday(bridge: BridgeApi, client: QueryClient, query: Query, wanted: TodayChangesWanted): void {
  const previous = following.get(query) ?? Promise.resolve();
  const next: Promise<void> = previous
    .then(() => catchUp(bridge, client, query, wanted))
    .catch(() => refreshQuery(client, query))
    .finally(() => {
      if (following.get(query) === next) following.delete(query);
    });
  following.set(query, next);
}

/**
 * The catch-up on its way for this list, if any: the next gathering delay starts once it has
 * answered, as it does after a full read, so catch-ups never queue up behind a busy host.
 */
export function catchingUp(query: Query): Promise<void> | undefined {
  return following.get(query);
}

async function catchUp(bridge: BridgeApi, client: QueryClient, query: Query, wanted: TodayChangesWanted): Promise<void> {
  // A full read answering meanwhile may be older than the changes (it started before them): ask again of it.
  for (let attempt = 0; attempt < 3; attempt++) {
    if (query.state.fetchStatus === 'fetching' && query.promise) await query.promise.catch(() => undefined);
    const current = query.state.data as DeskToday | undefined;
    if (!current || query.getObserversCount() === 0 || wanted.ids.size > TODAY_CHANGES_MAX_IDS) return refreshQuery(client, query);
    const { since } = query.queryKey[2] as { since: string };
    const changes = await readBridge(bridge, 'desk.todayChanges', {
      since,
      record_ids: [...wanted.ids],
      ...(wanted.outbox ? { outbox_since: current.as_of } : {}),
    });
    if (query.state.data !== current) continue;
    const next = patchToday(current, changes, wanted.outbox);
    if (next !== current) client.setQueryData(query.queryKey, next);
    return;
  }
  refreshQuery(client, query);
}
