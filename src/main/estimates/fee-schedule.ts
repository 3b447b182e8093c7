import { inArray } from 'drizzle-orm';
import { inTransaction, type Db } from '../db/open-database';
import { settings } from '../db/schema';
import type { Clock } from '../support/clock';
import { payerResolver } from '../appointments/schedule-card';
import { mappingByHeaderNames, readDelimitedTable } from '../appointments/schedule-file';
import { nameKey } from '../appointments/schedule-values';
import { FeeSchedule, FeeScheduleRow, type FeeRowInput, type FeeRowKey, type FeeScheduleImported } from '../../shared/bridge/estimate-contract';
import type { FieldError } from '../../shared/contract';
import { centsFromDecimal, formatCents } from '../../shared/money';
import { ServiceError, validationFailed } from '../../shared/service-error';
import { z } from 'zod';

/**
 * The practice's fee schedule (issue 30, item 1): its expected allowed amount per visit
 * type or procedure code, per payer, with a default row for every other payer. Kept as one
 * value in the settings table of the encrypted database: it is a few hundred rows, always
 * read and replaced whole, so a table of its own (and a migration) would buy nothing.
 */

export const DEFAULT_FRESHNESS_DAYS = 30;
/** A million dollars: anything above is a typo (cents typed as dollars, a column mixed up). */
const MAX_ALLOWED_CENTS = 100_000_000;

const KEYS = { rows: 'fee_schedule.rows', imported_at: 'fee_schedule.imported_at', freshness_days: 'estimates.freshness_days' } as const;

export type FeeField = 'service' | 'payer' | 'allowed';

/** Header names as practice-management and billing systems write them, normalised as the schedule import's are. */
const HEADER_NAMES: Record<FeeField, string[]> = {
  service: ['visittype', 'appointmenttype', 'appttype', 'service', 'procedure', 'procedurecode', 'cpt', 'cptcode', 'hcpcs', 'hcpcscode', 'code', 'type'],
  payer: ['payer', 'payername', 'payerid', 'payor', 'payorname', 'insurance', 'insurancename', 'carrier', 'plan'],
  allowed: ['allowed', 'allowedamount', 'expectedallowed', 'expectedallowedamount', 'allowable', 'contractrate', 'rate', 'fee', 'amount'],
};

/** Each field's column, by the header names; a column is taken once. */
export function detectFeeMapping(headers: string[]): Partial<Record<FeeField, number>> {
  return mappingByHeaderNames<FeeField>(headers, HEADER_NAMES);
}

const FEE_TABLE = {
  noun: 'fee schedule',
  needs: 'a fee schedule needs a visit type (or procedure code) column and an allowed amount column, with a payer column for amounts per payer',
  looksLikeHeader: (records: string[][]) => {
    const mapping = detectFeeMapping(records[0]);
    return mapping.service !== undefined && mapping.allowed !== undefined;
  },
};

/** Words that mean "every other payer" in the payer column. */
const DEFAULT_PAYER = new Set(['', 'default', 'all', 'any', '*', 'other', 'all payers', 'any payer', 'all other']);

/** "$1,250.00", "1250", "1250.5": what a spreadsheet writes. Money is read from its digits, never through a float. */
function readAmount(cell: string): { cents: number } | { code: string; message: string } {
  const text = cell.trim().replace(/^\$/, '').replace(/,/g, '').replace(/^-\$/, '-');
  if (!text.trim()) return { code: 'missing_amount', message: 'has no allowed amount: fill in the expected allowed amount in dollars (e.g. 125.00).' };
  if (/^\(.*\)$/.test(text) || text.startsWith('-')) return { code: 'negative_amount', message: 'has a negative allowed amount: an allowed amount is what the payer pays in all, zero or more.' };
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return { code: 'invalid_amount', message: `has an allowed amount that is not a dollar amount: use digits with at most two decimals (e.g. 125.00).` };
  const cents = centsFromDecimal(text)!;
  if (cents > MAX_ALLOWED_CENTS) return { code: 'invalid_amount', message: `has an allowed amount above ${formatCents(MAX_ALLOWED_CENTS)}: check the column holds dollars, not cents.` };
  return { cents };
}

export interface FeeScheduleDeps {
  db: Db;
  clock: Clock;
}

export interface FeeScheduleStore {
  read(): FeeSchedule;
  /** Reads, checks and replaces the whole fee schedule; any bad row refuses the file, naming every bad row, and changes nothing. */
  import(bytes: Uint8Array): FeeScheduleImported;
  setFreshnessDays(days: number): FeeSchedule;
  /** Adds one amount, or changes the one for the same visit type and payer (Settings' editor). */
  setRow(input: FeeRowInput): FeeSchedule;
  /** Removes the amount for a visit type and payer; refused when there is none. */
  removeRow(input: FeeRowKey): FeeSchedule;
  /** The schedule as CSV, in the columns the import reads. */
  exportCsv(): string;
  /** The allowed amount for a visit type or procedure code at a payer: the payer's row, else the default row; null when neither. */
  allowedFor(service: string, clearinghouseEntityId: string | null): FeeScheduleRow | null;
}

const Stored = z.array(FeeScheduleRow);

export function createFeeScheduleStore(deps: FeeScheduleDeps): FeeScheduleStore {
  const { db } = deps;
  const put = (key: string, value: unknown) => db.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } }).run();
  const read = (): FeeSchedule => {
    const rows = db.select().from(settings).where(inArray(settings.key, Object.values(KEYS))).all();
    const value = (key: string) => rows.find((row) => row.key === key)?.value;
    const parsedRows = Stored.safeParse(value(KEYS.rows) ?? []);
    const parsed = FeeSchedule.safeParse({
      rows: parsedRows.success ? parsedRows.data : [],
      imported_at: value(KEYS.imported_at) ?? null,
      freshness_days: value(KEYS.freshness_days) ?? DEFAULT_FRESHNESS_DAYS,
    });
    return parsed.success ? parsed.data : { rows: parsedRows.success ? parsedRows.data : [], imported_at: null, freshness_days: DEFAULT_FRESHNESS_DAYS };
  };

  return {
    read,
    import(bytes) {
      const rows = parseFeeSchedule(db, bytes);
      inTransaction(db, () => {
        put(KEYS.rows, rows);
        put(KEYS.imported_at, deps.clock.now().toISOString());
      });
      return { imported: rows.length, schedule: read() };
    },
    setFreshnessDays(days) {
      put(KEYS.freshness_days, days);
      return read();
    },
    setRow(input) {
      const row = readFeeRow(payerResolver(db), input);
      if ('code' in row) throw validationFailed([{ path: row.field, code: row.code, message: `This amount ${row.message}` }]);
      const rows = read().rows;
      const at = rows.findIndex((existing) => feeRowKey(existing) === feeRowKey(row));
      put(KEYS.rows, at === -1 ? [...rows, row] : rows.map((existing, i) => (i === at ? row : existing)));
      return read();
    },
    removeRow(input) {
      const rows = read().rows;
      const kept = rows.filter((existing) => feeRowKey(existing) !== feeRowKey(input));
      if (kept.length === rows.length) throw new ServiceError('resource_not_found', `The fee schedule has no amount for ${input.service} at that payer.`);
      put(KEYS.rows, kept);
      return read();
    },
    exportCsv() {
      return toCsv(read().rows);
    },
    allowedFor(service, clearinghouseEntityId) {
      return allowedIn(read().rows, service, clearinghouseEntityId);
    },
  };
}

/** The row for a visit type or procedure code at a payer: the payer's own row, else the default row; null when neither. */
export function allowedIn(rows: readonly FeeScheduleRow[], service: string, clearinghouseEntityId: string | null): FeeScheduleRow | null {
  const key = nameKey(service);
  const matching = rows.filter((row) => nameKey(row.service) === key);
  return matching.find((row) => clearinghouseEntityId !== null && row.clearinghouse_entity_id === clearinghouseEntityId) ?? matching.find((row) => row.clearinghouse_entity_id === null) ?? null;
}

/** One amount as typed (a file's row, or Settings' form): checked, the payer resolved in the directory. */
function readFeeRow(
  resolvePayer: ReturnType<typeof payerResolver>,
  cells: { service: string; payer: string; allowed: string },
): FeeScheduleRow | { field: FeeField; code: string; message: string } {
  const bad = (field: FeeField, code: string, message: string) => ({ field, code, message });
  const service = cells.service.trim();
  if (!service) return bad('service', 'missing_service', 'has no visit type or procedure code.');
  if (service.length > 100) return bad('service', 'invalid_service', 'has a visit type longer than 100 characters.');
  const payerText = cells.payer.trim();
  let payer: { name: string | null; id: string | null } = { name: null, id: null };
  if (!DEFAULT_PAYER.has(payerText.toLowerCase())) {
    const found = resolvePayer(payerText);
    if (found.kind === 'none') return bad('payer', 'unknown_payer', 'names a payer that is not in the payer directory: use its name or payer id as the payer picker lists it, or "default" for every other payer.');
    if (found.kind === 'ambiguous') return bad('payer', 'ambiguous_payer', 'names a payer that matches several in the payer directory: use its payer id.');
    payer = { name: payerText, id: found.entry.id };
  }
  const amount = readAmount(cells.allowed);
  if ('code' in amount) return bad('allowed', amount.code, amount.message);
  return { service, payer: payer.name, clearinghouse_entity_id: payer.id, allowed_cents: amount.cents };
}

/** Rows are one amount per visit type (any case and spacing) and payer. */
const feeRowKey = (row: Pick<FeeScheduleRow, 'service' | 'clearinghouse_entity_id'>) => `${nameKey(row.service)}|${row.clearinghouse_entity_id ?? ''}`;

/** Every row checked before anything is written: all the bad rows are named at once, so the desk fixes the file in one go. */
export function parseFeeSchedule(db: Db, bytes: Uint8Array): FeeScheduleRow[] {
  const table = readDelimitedTable(bytes, FEE_TABLE);
  if (table.headers.length === 0) {
    throw validationFailed([
      { path: 'file', code: 'header_required', message: 'The fee schedule needs a header row naming its columns: "Visit type" (or "Procedure code"), "Payer" and "Allowed".' },
    ]);
  }
  const mapping = detectFeeMapping(table.headers);
  const resolvePayer = payerResolver(db);
  const errors: FieldError[] = [];
  const rows: FeeScheduleRow[] = [];
  const seen = new Map<string, number>();
  table.rows.forEach((cells, i) => {
    const row = table.firstRow + i;
    const cell = (field: FeeField) => (mapping[field] === undefined ? '' : (cells[mapping[field]!] ?? '').trim());
    const read = readFeeRow(resolvePayer, { service: cell('service'), payer: cell('payer'), allowed: cell('allowed') });
    if ('code' in read) return errors.push({ path: `rows[${row}].${read.field}`, code: read.code, message: `Row ${row} ${read.message}` });
    const key = feeRowKey(read);
    const earlier = seen.get(key);
    if (earlier !== undefined) return errors.push({ path: `rows[${row}].service`, code: 'duplicate_row', message: `Row ${row} has the same visit type and payer as row ${earlier}: keep one amount for each.` });
    seen.set(key, row);
    rows.push(read);
  });
  if (errors.length > 0) throw validationFailed(errors);
  if (rows.length === 0) throw validationFailed([{ path: 'file', code: 'empty_file', message: 'The fee schedule has a header row but no amounts.' }]);
  return rows;
}

const quote = (cell: string) => (/[",\n\r]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);

/** Dollars with two decimals and no thousands separator: the import reads it back as it was. */
const dollars = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

export function toCsv(rows: FeeScheduleRow[]): string {
  const lines = [['Visit type', 'Payer', 'Allowed'], ...rows.map((row) => [row.service, row.payer ?? 'default', dollars(row.allowed_cents)])];
  return `${lines.map((line) => line.map(quote).join(',')).join('\r\n')}\r\n`;
}
