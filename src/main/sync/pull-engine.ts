import { and, count, eq, getTableName, inArray, sql } from 'drizzle-orm';
import { inTransaction, inTransactionWithoutFsync, type Db } from '../db/open-database';
import { OUTBOX_UNANSWERED_SQL, outbox, photos, pull_set_aside, pull_state } from '../db/schema';
import { findRow, insertRecord } from '../records/record-store';
import { preparedOnce } from '../records/statements';
import { TABLES, type NewRowOf } from '../records/tables';
import type { Clock } from '../support/clock';
import type { IdGenerator } from '../support/ids';
import {
  COLLECTIONS,
  ObjectKey,
  createReferences,
  isFeedCollection,
  type Check,
  type ChangesParams,
  type FeedCollection,
  type InsuranceCard,
  type ReceivedChange,
  type ReceivedChangesPage,
  type ResourceOf,
} from '../../shared/contract';
import { fieldErrorsFromZod, isServiceError } from '../../shared/service-error';
import { applyCardFacts, applyTerminal, isPolledCollection } from './remote-results';
import type { SyncLog } from './sync-policy';
import { localIdAt, noteRemoteId } from './remote-ids';

/**
 * The pull side of sync (docs/decisions.md, "Pulling the practice"): pages of the upstream's
 * changes feed applied to the desk's store, each page in runs of records, each run in one
 * transaction with the cursor that ends it, so a crash resumes exactly where the last
 * committed run ended.
 */

export interface PullFeed {
  /** What the cursor belongs to (the upstream's URL): another upstream starts from the beginning. */
  key: string;
  changes(params: ChangesParams): Promise<ReceivedChangesPage>;
}

export interface PullDeps {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  /** Each record received from elsewhere is audited as `receive` in its page's transaction. */
  audit?: { append(action: 'receive', recordId: string): unknown; appendAll?(action: 'receive', recordIds: string[]): unknown };
  /** Told after a page commits, per record it wrote, so screens refresh. */
  onRecordChanged?(change: { collection: FeedCollection; id: string }): void;
  /** Told after a page commits, per patient it created (duplicate candidates), all in one transaction of their own. */
  onPatientReceived?(localPatientId: string): void;
  log?: SyncLog;
}

export type PageOutcome =
  | { kind: 'applied'; applied: number; setAside: number; hasMore: boolean; waiting: boolean }
  /** The upstream has no feed (404): push works; the desk cannot see the practice. */
  | { kind: 'unavailable' }
  /** 410: the cursor was dropped; the next page starts from the beginning. */
  | { kind: 'restarted' };

export interface PullState {
  cursor: string | null;
  bootstrapped_at: string | null;
  last_pulled_at: string | null;
  received: number;
  behind: boolean;
}

type Applied = 'written' | 'unchanged' | 'set_aside' | 'wait';

/**
 * A change of the feed checked against the contract: its record as the collection's resource,
 * or why it is set aside. Checked for the whole page before the page's first transaction
 * (the contract's check needs nothing of the desk's store), so each run's transaction, the
 * time a desk create may wait for, holds only the writes.
 */
type CheckedChange =
  | { collection: FeedCollection; resource: ResourceOf<FeedCollection> & { id: string }; cursor: string }
  | { collection: string; upstreamId: string | null; problem: string; cursor: string };

function checkChange(change: ReceivedChange): CheckedChange {
  const record = change.record as Record<string, unknown> | null;
  const upstreamId = record && typeof record === 'object' && typeof record.id === 'string' ? record.id : null;
  if (!isFeedCollection(change.collection)) {
    const named = change.collection.slice(0, 64);
    return { collection: named, upstreamId, problem: `The feed named a collection this desk does not keep (${named}).`, cursor: change.cursor };
  }
  const collection = change.collection;
  const parsed = COLLECTIONS[collection].resource.safeParse(change.record);
  if (!parsed.success) {
    // The reason names the fields, never their values (they may be PHI).
    const fields = fieldErrorsFromZod(parsed.error, change.record).map((e) => e.message);
    return { collection, upstreamId, problem: `The ${COLLECTIONS[collection].noun} does not match the contract: ${fields.join(' ')}`, cursor: change.cursor };
  }
  return { collection, resource: parsed.data as ResourceOf<FeedCollection> & { id: string }, cursor: change.cursor };
}

/**
 * Records per transaction within a page. A page of 100 written at once held the desk's
 * thread long enough to put its own creates' p95 over 10 ms during a bootstrap; halves keep
 * the commits few (each commit is about a third of a page's cost).
 */
const PAGE_RUN = 50;

/**
 * The loop's turn before a run, taken twice: whatever arrived while the last run held the
 * thread (a desk create's timer, a request's bytes) queues its own turn during the first,
 * and so goes before the next run instead of after it. With one turn a create waited for the
 * rest of the run under way and then the whole next one (issue 31, item 4).
 */
function afterWhatCameMeanwhile(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
}

type Row = { id: string; remote_id: string | null };

/**
 * Upstream id → local id: by the ids this service gave (`remote_ids`, which survive a switch
 * to another service and back), else by the record's latest `remote_id` (index; the lookup
 * is built once per table: a bootstrap asks 100,000 times).
 */
function localIdOf(db: Db, upstream: string, collection: FeedCollection, remoteId: string): string | undefined {
  const known = localIdAt(db, upstream, remoteId);
  if (known?.startsWith(`${COLLECTIONS[collection].prefix}_`)) return known;
  const statement = preparedOnce(db, `pull:local-id:${collection}`, () => {
    const table = TABLES[collection] as typeof TABLES.patients;
    return db.select({ id: table.id }).from(table).where(eq(table.remote_id, sql.placeholder('remote_id'))).prepare();
  });
  const current = statement.get({ remote_id: remoteId })?.id;
  if (current) return current;
  // An id this desk was once answered with for one of its records, since replaced by a newer
  // one (a corrected patient and its cards sent again): still that record, never a copy.
  const answered = preparedOnce(db, 'pull:answered-id', () =>
    db.select({ record_id: outbox.record_id }).from(outbox).where(and(eq(outbox.remote_id, sql.placeholder('remote_id')), eq(outbox.collection, sql.placeholder('collection')))).limit(1).prepare(),
  );
  return answered.get({ remote_id: remoteId, collection })?.record_id;
}

/** The fields of a pulled record that name another pulled record, per collection (asked per record). */
const referencesOf = new Map<FeedCollection, (readonly [string, FeedCollection])[]>();
function pulledReferences(collection: FeedCollection): (readonly [string, FeedCollection])[] {
  let references = referencesOf.get(collection);
  if (!references) {
    references = createReferences(collection)
      .filter(([, ref]) => ref.local && ref.target !== 'photos')
      .map(([field, ref]) => [field, ref.target as FeedCollection] as const);
    if (collection === 'electronic_eligibility_checks') references.push(['electronic_eligibility_discovery_id', 'electronic_eligibility_discoveries']);
    referencesOf.set(collection, references);
  }
  return references;
}

const pairKey = (collection: FeedCollection, remoteId: string) => `${collection}\u0000${remoteId}`;

/**
 * `localIdOf` for every upstream id a page names (its records and what they refer to), in
 * three queries per page instead of up to three per id: a bootstrap page asks 150 times,
 * and nearly every answer is "not here yet". Same rules and order as `localIdOf`: the
 * service's own id first (when it names a record of that collection), then the record's
 * latest `remote_id`, then an id the outbox was once answered with. Absent: not known.
 */
function localIdsOf(db: Db, upstream: string, pairs: Map<string, readonly [FeedCollection, string]>): Map<string, string | null> {
  const found = new Map<string, string | null>();
  if (pairs.size === 0) return found;
  const firstPerKey = <R>(rows: R[], key: (row: R) => string, value: (row: R) => string): Map<string, string> => {
    // The first row per id, as a single-row lookup by the same index would have returned.
    const map = new Map<string, string>();
    for (const row of rows) if (!map.has(key(row))) map.set(key(row), value(row));
    return map;
  };
  const remoteIds = JSON.stringify([...new Set([...pairs.values()].map(([, remoteId]) => remoteId))]);
  const byService = firstPerKey(
    preparedOnce(db, 'pull:page-remote-ids', () =>
      db.$client.prepare('SELECT remote_id, record_id FROM remote_ids WHERE upstream = ? AND remote_id IN (SELECT value FROM json_each(?)) ORDER BY rowid'),
    ).all(upstream, remoteIds) as { remote_id: string; record_id: string }[],
    (row) => row.remote_id,
    (row) => row.record_id,
  );
  const rest = new Map<FeedCollection, string[]>();
  for (const [key, [collection, remoteId]] of pairs) {
    const known = byService.get(remoteId);
    if (known?.startsWith(`${COLLECTIONS[collection].prefix}_`)) found.set(key, known);
    else {
      const ids = rest.get(collection);
      if (ids) ids.push(remoteId);
      else rest.set(collection, [remoteId]);
    }
  }
  if (rest.size === 0) return found;
  const answered = firstPerKey(
    preparedOnce(db, 'pull:page-answered-ids', () =>
      db.$client.prepare('SELECT collection, remote_id, record_id FROM outbox WHERE remote_id IN (SELECT value FROM json_each(?)) ORDER BY rowid'),
    ).all(JSON.stringify([...rest.values()].flat())) as { collection: FeedCollection; remote_id: string; record_id: string }[],
    (row) => pairKey(row.collection, row.remote_id),
    (row) => row.record_id,
  );
  for (const [collection, ids] of rest) {
    const current = firstPerKey(
      preparedOnce(db, `pull:page-local-ids:${collection}`, () =>
        db.$client.prepare(`SELECT remote_id, id FROM "${getTableName(TABLES[collection])}" WHERE remote_id IN (SELECT value FROM json_each(?)) ORDER BY rowid`),
      ).all(JSON.stringify(ids)) as { remote_id: string; id: string }[],
      (row) => row.remote_id,
      (row) => row.id,
    );
    for (const remoteId of ids) {
      const key = pairKey(collection, remoteId);
      found.set(key, current.get(remoteId) ?? answered.get(key) ?? null);
    }
  }
  return found;
}

/** The object key at the end of an upstream photo URL (keys are the photo's SHA-256 everywhere). */
export function objectKeyOfUrl(url: string | undefined): string | null {
  if (!url) return null;
  const last = decodeURIComponent(url.split('?')[0].split('/').pop() ?? '');
  return ObjectKey.safeParse(last).success ? last : null;
}

export function readPullState(db: Db, key: string): PullState {
  const row = preparedOnce(db, 'pull:state', () => db.select().from(pull_state).where(eq(pull_state.upstream, sql.placeholder('key'))).prepare()).get({ key });
  return row ?? { cursor: null, bootstrapped_at: null, last_pulled_at: null, received: 0, behind: true };
}

export function setAsideCount(db: Db): number {
  return preparedOnce(db, 'pull:set-aside-count', () => db.select({ n: count() }).from(pull_set_aside).prepare()).get()?.n ?? 0;
}

export function createPullEngine(deps: PullDeps) {
  const { db } = deps;
  const now = () => deps.clock.now().toISOString();
  /** The feed (service) the page being applied comes from. */
  let feedKey = '';
  /** The page's upstream ids, looked up before its first record (`localIdsOf`); kept current as records are inserted. */
  let pageIds: Map<string, string | null> | null = null;
  /** The page's new records' upstream ids (local id, upstream id), kept for the service in one statement at the page's end. */
  let pageRemoteIds: [string, string][] | null = null;

  function keepPageRemoteIds(): void {
    if (!pageRemoteIds || pageRemoteIds.length === 0) return;
    // As noteRemoteId, for the whole page: nothing in the page reads them back (pageIds answers).
    preparedOnce(db, 'pull:page-note-remote-ids', () =>
      db.$client.prepare(
        "INSERT INTO remote_ids (upstream, record_id, remote_id) SELECT ?, json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?) WHERE true " +
          'ON CONFLICT (upstream, record_id) DO UPDATE SET remote_id = excluded.remote_id',
      ),
    ).run(feedKey, JSON.stringify(pageRemoteIds));
    pageRemoteIds = [];
  }

  function localId(collection: FeedCollection, remoteId: string): string | undefined {
    const key = pairKey(collection, remoteId);
    if (pageIds?.has(key)) return pageIds.get(key) ?? undefined;
    return localIdOf(db, feedKey, collection, remoteId);
  }

  /** Every (collection, upstream id) a run's records name: themselves and the records they refer to. */
  function idsNamedBy(run: readonly CheckedChange[]): Map<string, readonly [FeedCollection, string]> {
    const pairs = new Map<string, readonly [FeedCollection, string]>();
    const ask = (collection: FeedCollection, value: unknown) => {
      if (typeof value === 'string') pairs.set(pairKey(collection, value), [collection, value]);
    };
    for (const change of run) {
      if (!('resource' in change)) continue;
      const record = change.resource as unknown as Record<string, unknown>;
      ask(change.collection, record.id);
      for (const [field, target] of pulledReferences(change.collection)) ask(target, record[field]);
    }
    return pairs;
  }

  /**
   * Whether a record the upstream has and this desk does not know could be one of the
   * desk's own whose send landed but whose answer has not (in flight, or sent once and
   * unanswered). Applying it now would make a second copy; it waits for the push.
   */
  let unsureCache: Set<string> | null = null;
  function unsureSends(collection: FeedCollection): boolean {
    // Asked per record of a run: answered once per run, for every collection at once, from a
    // partial index holding only such entries. Through the state index it read every queued
    // entry (1.0–1.2 ms a run with 10,000 queued offline); SQLite's planner does not pick a
    // partial index by itself here, so the statement names it.
    unsureCache ??= new Set(
      (
        preparedOnce(db, 'pull:unsure-sends', () =>
          db.$client.prepare(`SELECT DISTINCT collection FROM outbox INDEXED BY outbox_unanswered WHERE ${OUTBOX_UNANSWERED_SQL}`),
        ).all() as { collection: string }[]
      ).map((row) => row.collection),
    );
    return unsureCache.has(collection);
  }

  /** The desk's outbox entries for a record: none (from elsewhere), all synced, or some not yet. */
  function sentByThisDesk(localId: string): 'no' | 'synced' | 'unsent' {
    // Prepared once: during a drain the feed brings back each of the desk's own records.
    const rows = preparedOnce(db, 'pull:entry-states', () =>
      db.select({ state: outbox.state }).from(outbox).where(eq(outbox.record_id, sql.placeholder('record_id'))).prepare(),
    ).all({ record_id: localId });
    if (rows.length === 0) return 'no';
    return rows.some((row) => row.state !== 'synced') ? 'unsent' : 'synced';
  }

  function setAside(collection: string, upstreamId: string | null, reason: string, record: unknown): void {
    anySetAside = true;
    if (upstreamId) db.delete(pull_set_aside).where(and(eq(pull_set_aside.collection, collection), eq(pull_set_aside.upstream_id, upstreamId))).run();
    db.insert(pull_set_aside).values({ collection, upstream_id: upstreamId, reason, record: record ?? null, created_at: now() }).run();
  }

  // Whether anything is set aside at all: most pages of a bootstrap have nothing to clear.
  let anySetAside = true;
  function clearSetAside(collection: string, upstreamId: string): void {
    if (!anySetAside) return;
    db.delete(pull_set_aside).where(and(eq(pull_set_aside.collection, collection), eq(pull_set_aside.upstream_id, upstreamId))).run();
  }

  /** A photo named by a pulled card: a row without bytes, fetched on first view. */
  function notePhoto(url: string | undefined): string | null {
    const key = objectKeyOfUrl(url);
    if (!key) return null;
    db.insert(photos)
      .values({ object_key: key, content_type: key.endsWith('.png') ? 'image/png' : 'image/jpeg', byte_size: 0, created_at: now(), remote_id: key })
      .onConflictDoNothing()
      .run();
    noteRemoteId(db, feedKey, key, key);
    return key;
  }

  /** The record's fields as a new local row: references to other records mapped to local ids. */
  function newRow(collection: FeedCollection, record: Record<string, unknown>): { row: Record<string, unknown> } | { missing: string } {
    const row: Record<string, unknown> = { ...record, id: deps.ids.next(COLLECTIONS[collection].prefix), remote_id: record.id };
    delete row.sync;
    for (const [field, target] of pulledReferences(collection)) {
      const upstreamId = record[field];
      if (upstreamId === undefined) {
        if (collection === 'insurance_cards' && field === 'patient_id') return { missing: 'The card names no patient; a desk keeps cards under their patient.' };
        continue;
      }
      const found = localId(target, String(upstreamId));
      if (!found) {
        // A check's discovery is context, not a home: the check is kept without it.
        if (field === 'electronic_eligibility_discovery_id') {
          row[field] = null;
          continue;
        }
        return { missing: `It refers to ${COLLECTIONS[target].noun} ${String(upstreamId)}, which this desk has not received yet.` };
      }
      row[field] = found;
    }
    if (collection === 'insurance_cards') {
      const card = record as InsuranceCard;
      row.front_photo_object_key = notePhoto(card.front_photo_download_url);
      row.back_photo_object_key = notePhoto(card.back_photo_download_url);
      delete row.front_photo_download_url;
      delete row.back_photo_download_url;
    }
    return { row };
  }

  /** What the upstream says now about a record this desk already has. */
  function update(collection: FeedCollection, local: Row, record: ResourceOf<FeedCollection>): boolean {
    // The desk's own unsent change wins; the upstream's answer lands with its push.
    const sent = sentByThisDesk(local.id);
    if (sent === 'unsent') return false;
    if (collection === 'insurance_cards') {
      const card = record as InsuranceCard;
      // Read once for both: the facts below never change the photo keys.
      const row = findRow(db, 'insurance_cards', local.id);
      if (!row) return false;
      let changed = applyCardFacts(db, local.id, card, row);
      const front = row.front_photo_object_key ? null : notePhoto(card.front_photo_download_url);
      const back = row.back_photo_object_key ? null : notePhoto(card.back_photo_download_url);
      if (front || back) {
        const table = TABLES.insurance_cards;
        db.update(table)
          .set({ ...(front ? { front_photo_object_key: front } : {}), ...(back ? { back_photo_object_key: back } : {}) })
          .where(eq(table.id, local.id))
          .run();
        changed = true;
      }
      return changed;
    }
    // The desk's own discoveries, checks and extractions are sync's to finish: its poll stores
    // the result with its follow-ups (spawned checks, card facts) in one transaction.
    if (isPolledCollection(collection) && sent === 'no') return applyTerminal(db, collection, local.id, record as Check);
    return false;
  }

  function applyOne(change: CheckedChange, written: { collection: FeedCollection; id: string; created: boolean }[]): Applied {
    if (!('resource' in change)) {
      setAside(change.collection, change.upstreamId, change.problem, null);
      return 'set_aside';
    }
    const { collection, resource } = change;
    const knownId = localId(collection, resource.id);
    if (knownId) {
      clearSetAside(collection, resource.id);
      const changed = update(collection, { id: knownId, remote_id: resource.id }, resource);
      if (changed) written.push({ collection, id: knownId, created: false });
      return changed ? 'written' : 'unchanged';
    }
    if (unsureSends(collection)) return 'wait';
    const built = newRow(collection, resource as unknown as Record<string, unknown>);
    if ('missing' in built) {
      setAside(collection, resource.id, built.missing, resource);
      return 'set_aside';
    }
    insertRecord(db, collection, built.row as NewRowOf<typeof collection>);
    if (pageRemoteIds) pageRemoteIds.push([built.row.id as string, resource.id]);
    else noteRemoteId(db, feedKey, built.row.id as string, resource.id);
    pageIds?.set(pairKey(collection, resource.id), built.row.id as string);
    clearSetAside(collection, resource.id);
    written.push({ collection, id: built.row.id as string, created: true });
    return 'written';
  }

  /** Records set aside for a reference the desk lacked: tried again with each page. */
  function retrySetAside(written: { collection: FeedCollection; id: string; created: boolean }[]): void {
    const waiting = db.select().from(pull_set_aside).all().filter((row) => row.record !== null && isFeedCollection(row.collection));
    for (const row of waiting) {
      const outcome = applyOne(checkChange({ collection: row.collection, cursor: '0', record: row.record }), written);
      if (outcome === 'written' || outcome === 'unchanged') db.delete(pull_set_aside).where(eq(pull_set_aside.id, row.id)).run();
    }
  }

  type Written = { collection: FeedCollection; id: string; created: boolean }[];

  /**
   * Applies `data`, a run of the page's records, and moves the cursor past what was handled,
   * in one transaction: to the page's end after its last run (`last`), else to the run's
   * last record (a resumable position, as when a record waits). Everything the run reads
   * about this desk (which upstream ids it holds, what it has sent) is read inside it.
   */
  function applyRun(key: string, page: ReceivedChangesPage, data: readonly CheckedChange[], last: boolean, pageWritten: Written): { applied: number; setAside: number; waiting: boolean; written: Written } {
    const written: Written = [];
    unsureCache = null;
    feedKey = key;
    // Without waiting for the disk: the cursor commits with the run, so a run a power cut
    // takes back is simply pulled again from the cursor before it (the upstream still has it).
    try {
      return inTransactionWithoutFsync(db, () => {
        anySetAside = setAsideCount(db) > 0;
        pageIds = localIdsOf(db, key, idsNamedBy(data));
        pageRemoteIds = [];
        const state = readPullState(db, key);
        let cursor = state.cursor;
        let setAsideNow = 0;
        let waiting = false;
        for (const change of data) {
          const outcome = applyOne(change, written);
          if (outcome === 'wait') {
            waiting = true;
            break;
          }
          if (outcome === 'set_aside') setAsideNow += 1;
          cursor = change.cursor;
        }
        if (!waiting && last) {
          cursor = page.next_cursor;
          if (pageWritten.length + written.length > 0 && anySetAside) retrySetAside(written);
        }
        // A record arriving is audited; news about one the desk holds is not (as sync's own polls).
        keepPageRemoteIds();
        const received = written.filter((record) => record.created).map((record) => record.id);
        if (deps.audit?.appendAll) deps.audit.appendAll('receive', received);
        else for (const id of received) deps.audit?.append('receive', id);
        const at = now();
        const caughtUp = last && !waiting && !page.has_more;
        const values = {
          cursor,
          last_pulled_at: at,
          received: state.received + received.length,
          behind: !caughtUp,
          // The last time the desk had everything the practice had: how far behind it is.
          bootstrapped_at: caughtUp ? at : state.bootstrapped_at,
        };
        writePullState(key, values);
        return { applied: written.length, setAside: setAsideNow, waiting, written };
      });
    } finally {
      // Rolled back or committed, the run's lookups are no longer the store's.
      pageIds = null;
      pageRemoteIds = null;
    }
  }

  /** The upstream's cursor and counts, as each run ends: built once (a bootstrap writes it twenty thousand times). */
  function writePullState(key: string, values: { cursor: string | null; last_pulled_at: string; received: number; behind: boolean; bootstrapped_at: string | null }): void {
    preparedOnce(db, 'pull:write-state', () =>
      db.$client.prepare(
        'INSERT INTO pull_state (upstream, cursor, last_pulled_at, received, behind, bootstrapped_at) VALUES (?, ?, ?, ?, ?, ?) ' +
          'ON CONFLICT (upstream) DO UPDATE SET cursor = excluded.cursor, last_pulled_at = excluded.last_pulled_at, received = excluded.received, ' +
          'behind = excluded.behind, bootstrapped_at = excluded.bootstrapped_at',
      ),
    ).run(key, values.cursor, values.last_pulled_at, values.received, values.behind ? 1 : 0, values.bootstrapped_at);
  }

  /**
   * Applies one page in runs of `PAGE_RUN` records, each its own transaction with the cursor
   * that ends it, giving the loop a turn between runs: a desk create that comes meanwhile
   * waits for one run, not for a whole page (issue 31, item 4).
   */
  async function applyPage(key: string, page: ReceivedChangesPage, checked: readonly CheckedChange[]): Promise<PageOutcome> {
    const written: Written = [];
    let applied = 0;
    let setAsideNow = 0;
    let waiting = false;
    for (let from = 0; from === 0 || from < page.data.length; from += PAGE_RUN) {
      if (from > 0) await afterWhatCameMeanwhile();
      const last = from + PAGE_RUN >= page.data.length;
      const run = applyRun(key, page, checked.slice(from, from + PAGE_RUN), last, written);
      written.push(...run.written);
      applied += run.applied;
      setAsideNow += run.setAside;
      if (run.waiting) {
        waiting = true;
        break;
      }
    }
    // A bootstrap page writes a hundred records: screens hear once per collection, not per record.
    const told = written.length > 10 ? [...new Map(written.map((w) => [w.collection, w])).values()] : written;
    for (const record of told) deps.onRecordChanged?.({ collection: record.collection, id: record.id });
    // One durable transaction for the page's patients: each possible duplicate recorded by
    // the hook was an autocommit of its own, a wait for the disk per pair.
    const receivedPatients = written.filter((record) => record.created && record.collection === 'patients');
    const onPatient = deps.onPatientReceived;
    if (onPatient && receivedPatients.length > 0) inTransaction(db, () => receivedPatients.forEach((record) => onPatient(record.id)));
    return { kind: 'applied', applied, setAside: setAsideNow, waiting, hasMore: page.has_more && !waiting };
  }

  /** Forgets the cursor of this upstream: the next page reads the feed from the beginning. */
  function restart(key: string): void {
    db.update(pull_state).set({ cursor: null, behind: true }).where(eq(pull_state.upstream, key)).run();
  }

  /**
   * The page after the one being applied, asked for before applying it: the upstream serves
   * it (another process, another core) while this one is written, so a bootstrap waits for
   * the slower of the two instead of both. Used only by the very next call for that cursor.
   */
  let ahead: { key: string; after: string; limit: number | undefined; page: Promise<ReceivedChangesPage> } | null = null;

  function fetchPage(feed: PullFeed, cursor: string | null, limit: number | undefined): Promise<ReceivedChangesPage> {
    const prefetched = ahead;
    ahead = null;
    if (prefetched && prefetched.key === feed.key && prefetched.after === cursor && prefetched.limit === limit) return prefetched.page;
    return feed.changes({ ...(cursor ? { after: cursor } : {}), ...(limit ? { limit } : {}) });
  }

  function fetchAhead(feed: PullFeed, page: ReceivedChangesPage, limit: number | undefined): void {
    if (!page.has_more || !page.next_cursor) return;
    const next = feed.changes({ after: page.next_cursor, ...(limit ? { limit } : {}) });
    // Its failure is the next call's to report (as if asked then), not an unhandled rejection now.
    next.catch(() => undefined);
    ahead = { key: feed.key, after: page.next_cursor, limit, page: next };
  }

  return {
    /** One page: fetch after the stored cursor, apply, commit with the new cursor. */
    async pullPage(feed: PullFeed, limit?: number): Promise<PageOutcome> {
      const { cursor } = readPullState(db, feed.key);
      let page: ReceivedChangesPage;
      try {
        page = await fetchPage(feed, cursor, limit);
      } catch (error) {
        if (isServiceError(error) && error.status === 404) return { kind: 'unavailable' };
        if (isServiceError(error) && error.code === 'cursor_expired') {
          deps.log?.('pull.cursor_expired', {});
          restart(feed.key);
          return { kind: 'restarted' };
        }
        throw error;
      }
      fetchAhead(feed, page, limit);
      const checked = page.data.map(checkChange);
      // node:http writes a request on the next tick, not when it is made: without this turn
      // of the loop the early ask would leave only after the page below is written, and the
      // upstream would serve it after, not during, that work.
      if (ahead) await new Promise<void>((resolve) => setImmediate(resolve));
      const outcome = await applyPage(feed.key, page, checked);
      // Stopped inside the page (a record waits for this desk's push): the next call starts
      // from another cursor and asks again later; the page fetched ahead is not for it.
      if (outcome.kind === 'applied' && outcome.waiting) ahead = null;
      return outcome;
    },
    state: (key: string) => readPullState(db, key),
    /** The upstream's row, written once at start, so later pulls only ever update it. */
    ensureState(key: string): void {
      db.insert(pull_state).values({ upstream: key }).onConflictDoNothing().run();
    },
    /** Records set aside (newest first) for the Sync screen: what, which upstream id, why. Never the record itself. */
    setAside(limit = 50) {
      return db
        .select({ id: pull_set_aside.id, collection: pull_set_aside.collection, upstream_id: pull_set_aside.upstream_id, reason: pull_set_aside.reason, created_at: pull_set_aside.created_at })
        .from(pull_set_aside)
        .orderBy(pull_set_aside.id)
        .limit(limit)
        .all()
        .reverse();
    },
    /** Local ids of records pulled with these upstream ids (tests, duplicate checks). */
    localIds(collection: FeedCollection, remoteIds: string[]): string[] {
      const table = TABLES[collection] as typeof TABLES.patients;
      return remoteIds.length ? db.select({ id: table.id }).from(table).where(inArray(table.remote_id, remoteIds)).all().map((r) => r.id) : [];
    },
  };
}

export type PullEngine = ReturnType<typeof createPullEngine>;
