import { parse } from 'csv-parse/sync';
import type { ColumnMapping, ScheduleField, SchedulePreview } from '../../shared/bridge/appointment-contract';
import { ServiceError, validationFailed } from '../../shared/service-error';
import { readAppointmentDate } from './schedule-values';

/** A day's schedule is a few hundred rows; 10 MiB is tens of thousands. Anything bigger is not a schedule. */
export const MAX_SCHEDULE_BYTES = 10 * 1024 * 1024;

export interface ScheduleTable {
  encoding: SchedulePreview['encoding'];
  delimiter: SchedulePreview['delimiter'];
  /** The header row's cells; empty when the file has no header row. */
  headers: string[];
  rows: string[][];
  /** The file's row number of `rows[0]` (1-based, counting the header). */
  firstRow: number;
}

function fileError(code: string, message: string): ServiceError {
  return validationFailed([{ path: 'file', code, message }]);
}

/**
 * The file's text. Scheduling systems on Windows export in Windows-1252 as often as UTF-8:
 * bytes that are not valid UTF-8 are read as Windows-1252 (every byte is a character
 * there), so "Peña" is never turned into "Pe�a". UTF-16 is recognised by its byte-order mark.
 */
export function decodeSchedule(bytes: Uint8Array, noun = 'schedule'): { text: string; encoding: ScheduleTable['encoding'] } {
  if (bytes.byteLength > MAX_SCHEDULE_BYTES) {
    throw new ServiceError('payload_too_large', `A ${noun} file must be at most ${MAX_SCHEDULE_BYTES / 1024 / 1024} MiB${noun === 'schedule' ? '; export one day or one week at a time' : ''}.`);
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' };
  // NUL bytes do not occur in text: a spreadsheet, a PDF or an image was dropped.
  if (bytes.includes(0)) throw fileError('not_csv', `This file is not a CSV or TSV text file. Export the ${noun} as CSV (comma- or tab-separated).`);
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
  }
}

/** The separator of the first line that has any: tabs (TSV), else semicolons where they outnumber commas. */
function detectDelimiter(text: string): ScheduleTable['delimiter'] {
  const firstLine = text.split(/\r?\n/).find((line) => line.trim().length > 0) ?? '';
  const count = (c: string) => firstLine.split(c).length - 1;
  if (count('\t') > 0 && count('\t') >= count(',')) return '\t';
  if (count(';') > count(',')) return ';';
  return ',';
}

/** Header names as scheduling systems write them, normalised (lower case, letters and digits only). */
const HEADER_NAMES: Record<ScheduleField, string[]> = {
  external_id: ['appointmentid', 'apptid', 'appt', 'appointmentnumber', 'apptno', 'appointmentno', 'encounterid', 'visitid', 'id', 'scheduleid', 'eventid'],
  date: ['date', 'apptdate', 'appointmentdate', 'visitdate', 'servicedate', 'dateofservice', 'dos', 'scheduleddate', 'startdate', 'appointmentdatetime', 'apptdatetime', 'datetime', 'start'],
  time: ['time', 'appttime', 'appointmenttime', 'starttime', 'visittime', 'scheduledtime'],
  first_name: ['firstname', 'first', 'patientfirstname', 'ptfirstname', 'fname', 'givenname', 'patientfirst'],
  last_name: ['lastname', 'last', 'patientlastname', 'ptlastname', 'lname', 'surname', 'familyname', 'patientlast'],
  patient_name: ['patient', 'patientname', 'name', 'fullname', 'ptname', 'patientfullname'],
  date_of_birth: ['dob', 'dateofbirth', 'birthdate', 'birthday', 'patientdob', 'ptdob', 'birth'],
  member_id: ['memberid', 'subscriberid', 'insuranceid', 'policynumber', 'policyno', 'memberno', 'membernumber', 'insurancememberid', 'policyid'],
  payer: ['payer', 'payername', 'payerid', 'payor', 'payorname', 'payorid', 'insurance', 'insurancename', 'insurancecompany', 'insurancecarrier', 'carrier', 'insurer', 'primaryinsurance', 'primarypayer', 'primarypayor', 'insuranceplan'],
  group_number: ['group', 'groupnumber', 'groupno', 'groupid', 'insurancegroup', 'grp', 'groupnum'],
  relationship: ['relationship', 'relationshiptosubscriber', 'subscriberrelationship', 'relationshiptoinsured', 'patientrelationship', 'relation', 'insuredrelationship', 'reltosubscriber', 'patientreltosubscriber', 'relationshiptosub'],
  phone: ['phone', 'phonenumber', 'cell', 'mobile', 'homephone', 'cellphone', 'patientphone', 'telephone'],
  provider: ['provider', 'providername', 'doctor', 'physician', 'renderingprovider', 'resource', 'clinician', 'appointmentprovider', 'npi'],
  visit_type: ['visittype', 'appointmenttype', 'appttype', 'type', 'visitreason', 'reason', 'reasonforvisit', 'eventtype'],
  location: ['location', 'office', 'facility', 'site', 'department', 'clinic', 'room'],
};

export const normaliseHeader = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Each field's column by the header names it goes by, most specific name first ("Appt Date"
 * before "Appt"); a column is taken once. The schedule's and the fee schedule's imports both.
 */
export function mappingByHeaderNames<F extends string>(headers: string[], names: Record<F, readonly string[]>): Partial<Record<F, number>> {
  const mapping: Partial<Record<F, number>> = {};
  const taken = new Set<number>();
  for (const [field, wanted] of Object.entries(names) as [F, readonly string[]][]) {
    for (const name of wanted) {
      const index = headers.findIndex((h, i) => !taken.has(i) && normaliseHeader(h) === name);
      if (index >= 0) {
        mapping[field] = index;
        taken.add(index);
        break;
      }
    }
  }
  return mapping;
}

/** The mapping the header names say; each field takes the first column that names it. */
export function detectMapping(headers: string[]): ColumnMapping {
  return mappingByHeaderNames<ScheduleField>(headers, HEADER_NAMES);
}

const hasDate = (cells: string[]) => cells.some((cell) => readAppointmentDate(cell) !== null);

/**
 * Whether the first row is a header: it names at least two fields we know, or it has no
 * date where the next row has one (headers we cannot read, "When,Who,Born", which the desk maps).
 */
function looksLikeHeader(records: string[][]): boolean {
  if (Object.keys(detectMapping(records[0])).length >= 2) return true;
  return records.length > 1 && !hasDate(records[0]) && hasDate(records[1]);
}

/** What a delimited file holds: its name in messages, and how its header row is recognised. */
export interface TableKind {
  noun: string;
  /** Say what the file needs at the least ("the date, the patient and the date of birth"). */
  needs: string;
  looksLikeHeader(records: string[][]): boolean;
}

const SCHEDULE: TableKind = { noun: 'schedule', needs: 'a schedule needs at least the date, the patient and the date of birth', looksLikeHeader };

/** The schedule file as rows of cells, with its header row apart. Refuses what is not a delimited text file. */
export function readScheduleTable(bytes: Uint8Array): ScheduleTable {
  return readDelimitedTable(bytes, SCHEDULE);
}

/**
 * Any desk import's delimited file (a schedule, a fee schedule) as rows of cells: one
 * reader for every CSV or TSV the desk takes, so encodings, delimiters and quoting are
 * handled once.
 */
export function readDelimitedTable(bytes: Uint8Array, kind: TableKind): ScheduleTable {
  const { text, encoding } = decodeSchedule(bytes, kind.noun);
  if (text.trim().length === 0) throw fileError('empty_file', `The file is empty: export the ${kind.noun} again with its rows.`);
  const delimiter = detectDelimiter(text);
  let records: string[][];
  try {
    records = parse(text, {
      delimiter,
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      trim: true,
    }) as string[][];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw fileError('not_csv', `The file could not be read as CSV${line ? ` (near line ${line})` : ''}: export the ${kind.noun} as CSV or TSV.`);
  }
  records = records.filter((cells) => cells.some((cell) => cell.length > 0));
  const widest = Math.max(0, ...records.map((cells) => cells.length));
  if (records.length === 0 || widest < 2) {
    throw fileError('not_csv', `The file has no columns: ${kind.needs}, separated by commas or tabs.`);
  }
  const hasHeader = kind.looksLikeHeader(records);
  return {
    encoding,
    delimiter,
    headers: hasHeader ? records[0] : [],
    rows: hasHeader ? records.slice(1) : records,
    firstRow: hasHeader ? 2 : 1,
  };
}

/** What a mapping must have to make appointments: a date, a name and a date of birth. */
export function mappingProblems(mapping: ColumnMapping, width: number): string[] {
  const problems: string[] = [];
  if (mapping.date === undefined) problems.push('date');
  if (mapping.date_of_birth === undefined) problems.push('date_of_birth');
  if (mapping.patient_name === undefined && (mapping.first_name === undefined || mapping.last_name === undefined)) problems.push('patient_name');
  for (const [field, column] of Object.entries(mapping)) if (column !== undefined && column >= width) problems.push(field);
  return problems;
}
