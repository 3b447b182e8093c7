import { COLLECTIONS, ID_PREFIX, type Collection } from '../../shared/contract';
import { AUDIT_ACTION_WORDS, type AuditAction, type AuditExport, type AuditFilter, type AuditRow, type AuditRows } from '../../shared/bridge/security-contract';
import type { Db } from '../db/open-database';
import { findRow } from '../records/record-store';
import type { Clock } from '../support/clock';
import { entryKind } from '../sync/sync-messages';
import { csvCell } from '../../shared/csv';

/** Entries of one person, one action and one patient this close together are one row. */
export const AUDIT_FOLD_WINDOW_MS = 5 * 60_000;
/** How many raw entries are read per round while a page of rows fills. */
const CHUNK = 500;
/** An export holds at most this many rows (the newest). */
const EXPORT_MAX_ROWS = 50_000;

interface RawEntry {
  seq: number;
  at: string;
  actor: string;
  action: AuditAction;
  record_id: string;
}

interface Subject {
  patientId: string | null;
  patientName: string | null;
  kind: string;
}

interface Building extends Omit<AuditRow, 'records'> {
  oldestSeq: number;
  kinds: Map<string, Set<string>>;
}

const PREFIX_TO_COLLECTION = new Map(
  (Object.keys(COLLECTIONS) as Collection[]).filter((c) => COLLECTIONS[c].prefix).map((c) => [COLLECTIONS[c].prefix, c] as const),
);

/**
 * Whose record an audit entry names, as the desk knows it: the log holds ids only (no PHI
 * in an append-only table), so names are looked up when the log is read. A record gone
 * from this computer is shown by its kind, unnamed.
 */
function subjectResolver(db: Db): (recordId: string) => Subject {
  const cache = new Map<string, Subject>();
  const sqlite = db.$client;
  const cardByPhoto = sqlite.prepare('SELECT patient_id FROM insurance_cards WHERE front_photo_object_key = ? OR back_photo_object_key = ? LIMIT 1');
  const inboxCard = sqlite.prepare('SELECT insurance_card_id FROM inbox_items WHERE id = ?');
  const collectionPatient = sqlite.prepare('SELECT patient_id FROM collections WHERE id = ?');

  const patient = (patientId: string | null | undefined, kind: string): Subject => {
    const row = patientId ? findRow(db, 'patients', patientId) : undefined;
    return { patientId: row ? row.id : null, patientName: row ? `${row.first_name} ${row.last_name}` : null, kind };
  };
  const ofCard = (cardId: string | null | undefined, kind: string): Subject =>
    patient(cardId ? findRow(db, 'insurance_cards', cardId)?.patient_id : null, kind);

  function resolve(recordId: string): Subject {
    const prefix = recordId.includes('_') ? recordId.slice(0, recordId.indexOf('_')) : '';
    const collection = PREFIX_TO_COLLECTION.get(prefix as never);
    if (!collection && prefix === 'inb') {
      const item = inboxCard.get(recordId) as { insurance_card_id: string | null } | undefined;
      return ofCard(item?.insurance_card_id, 'scanned card');
    }
    if (!collection && prefix === ID_PREFIX.integration) return { patientId: null, patientName: null, kind: 'local API integration' };
    // Sign-ins, time-outs and staff changes name a person of the desk's staff, never a patient.
    if (!collection && prefix === ID_PREFIX.staff) return { patientId: null, patientName: null, kind: 'staff member' };
    if (recordId.startsWith('setting:')) return { patientId: null, patientName: null, kind: `setting ${recordId.slice('setting:'.length).replace(/_/g, ' ')}` };
    if (recordId.startsWith('desk:')) return { patientId: null, patientName: null, kind: 'this desk' };
    if (!collection && prefix === 'col') {
      // A payment, mark or void at the window (issue 30): whose visit it was.
      const entry = collectionPatient.get(recordId) as { patient_id: string | null } | undefined;
      return patient(entry?.patient_id, 'collection');
    }
    if (!collection) {
      // An object key: a card photo (its card says whose), or a scan still in the inbox.
      const card = cardByPhoto.get(recordId, recordId) as { patient_id: string } | undefined;
      return patient(card?.patient_id, entryKind('photos'));
    }
    const kind = entryKind(collection);
    switch (collection) {
      case 'patients':
        return patient(recordId, kind);
      case 'insurance_cards':
        return ofCard(recordId, kind);
      case 'extractions':
      case 'electronic_eligibility_discoveries':
      case 'electronic_eligibility_checks':
        return ofCard(findRow(db, collection, recordId)?.insurance_card_id, kind);
      default:
        return { patientId: null, patientName: null, kind };
    }
  }
  return (recordId) => {
    let subject = cache.get(recordId);
    if (!subject) {
      subject = resolve(recordId);
      cache.set(recordId, subject);
    }
    return subject;
  };
}

/** Kinds in the order a desk meets them, so a row reads the same however it was folded. */
const KIND_ORDER = ['patients', 'insurance_cards', 'photos', 'extractions', 'electronic_eligibility_discoveries', 'electronic_eligibility_checks'].map(entryKind);
const kindRank = (kind: string) => (KIND_ORDER.includes(kind) ? KIND_ORDER.indexOf(kind) : KIND_ORDER.length);

function describeKinds(kinds: Map<string, Set<string>>): string {
  return [...kinds]
    .sort(([a], [b]) => kindRank(a) - kindRank(b))
    .map(([kind, ids]) => (ids.size === 1 ? kind : `${ids.size} ${kind}s`))
    .join(', ');
}

function finish(row: Building): AuditRow {
  const { oldestSeq: _oldest, kinds, ...rest } = row;
  return { ...rest, records: describeKinds(kinds) };
}

/**
 * Reads the log newest first, folds it into rows (one per thing a person did) and keeps
 * the rows the filter asks for. `before` continues below a previous page's `next_before`.
 */
function readRows(db: Db, filter: AuditFilter & { limit: number; before?: number }): { rows: AuditRow[]; nextBefore: number | null } {
  const sqlite = db.$client;
  const conditions: [string, string | undefined][] = [
    ['action = ?', filter.action],
    ['actor = ?', filter.actor],
    ['at >= ?', filter.from && new Date(filter.from).toISOString()],
    ['at <= ?', filter.to && new Date(filter.to).toISOString()],
  ];
  const given = conditions.filter((c): c is [string, string] => c[1] !== undefined);
  const where = ['seq < ?', ...given.map(([sql]) => sql)];
  const args = given.map(([, value]) => value);
  const page = sqlite.prepare(`SELECT seq, at, actor, action, record_id FROM audit_log WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ?`);
  const subjectOf = subjectResolver(db);
  const wanted = filter.patient?.toLocaleLowerCase();

  const rows: Building[] = [];
  let current: Building | null = null;
  let cursor = filter.before ?? Number.MAX_SAFE_INTEGER;
  let exhausted = false;
  const keep = (row: Building) => {
    if (!wanted || (row.patient_name ?? '').toLocaleLowerCase().includes(wanted)) rows.push(row);
  };
  // One extra row past the limit proves the last one is complete and that more exist.
  while (rows.length <= filter.limit && !exhausted) {
    const chunk = page.all(cursor, ...args, CHUNK) as RawEntry[];
    if (chunk.length < CHUNK) exhausted = true;
    for (const entry of chunk) {
      cursor = entry.seq;
      const subject = subjectOf(entry.record_id);
      const key = subject.patientId ?? entry.record_id;
      const joins =
        current !== null &&
        current.actor === entry.actor &&
        current.action === entry.action &&
        (current.patient_id ?? current.record_ids[0]) === key &&
        Date.parse(current.first_at) - Date.parse(entry.at) <= AUDIT_FOLD_WINDOW_MS;
      if (current && joins) {
        current.first_at = entry.at;
        current.oldestSeq = entry.seq;
        current.entries += 1;
        if (!current.record_ids.includes(entry.record_id)) current.record_ids.push(entry.record_id);
        const ids = current.kinds.get(subject.kind) ?? new Set<string>();
        ids.add(entry.record_id);
        current.kinds.set(subject.kind, ids);
        continue;
      }
      if (current) keep(current);
      current = {
        seq: entry.seq,
        oldestSeq: entry.seq,
        first_at: entry.at,
        last_at: entry.at,
        actor: entry.actor,
        action: entry.action,
        patient_id: subject.patientId,
        patient_name: subject.patientName,
        entries: 1,
        record_ids: [entry.record_id],
        kinds: new Map([[subject.kind, new Set([entry.record_id])]]),
      };
      if (rows.length > filter.limit) break;
    }
  }
  if (exhausted && current && rows.length <= filter.limit) keep(current);
  const pageRows = rows.slice(0, filter.limit);
  const more = rows.length > filter.limit;
  return { rows: pageRows.map(finish), nextBefore: more ? pageRows[pageRows.length - 1]!.oldestSeq : null };
}

export function searchAuditRows(deps: { db: Db }, input: AuditFilter & { limit: number; before?: number }): AuditRows {
  const { rows, nextBefore } = readRows(deps.db, input);
  const actors = (deps.db.$client.prepare('SELECT DISTINCT actor FROM audit_log ORDER BY actor').all() as { actor: string }[]).map((r) => r.actor);
  return { data: rows, next_before: nextBefore, actors };
}

export const auditActionWords = (action: AuditAction) => AUDIT_ACTION_WORDS[action];

const cell = csvCell;

export function exportAuditRows(deps: { db: Db; clock: Clock }, filter: AuditFilter): AuditExport {
  const { rows } = readRows(deps.db, { ...filter, limit: EXPORT_MAX_ROWS });
  const header = ['from', 'to', 'who', 'action', 'patient', 'records', 'entries', 'record ids'];
  const lines = rows.map((r) =>
    [r.first_at, r.last_at, r.actor, AUDIT_ACTION_WORDS[r.action], r.patient_name ?? '', r.records, r.entries, r.record_ids.join(' ')].map(cell).join(','),
  );
  const day = deps.clock.now().toISOString().slice(0, 10);
  return { filename: `coverdesk-audit-${day}.csv`, content_type: 'text/csv', csv: [header.map(cell).join(','), ...lines].join('\r\n') + '\r\n', rows: rows.length };
}
