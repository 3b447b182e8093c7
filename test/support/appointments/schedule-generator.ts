import { seededRandom } from '@src/main/sandbox/fault-injection';
import { SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { DEFAULT_VISIT_TYPES } from '@src/main/appointments/appointment-settings';
import type { SkipReason } from '@src/shared/bridge/appointment-contract';

/**
 * Generates a practice's schedule exports with the answer key beside them: several column
 * layouts, date and time formats and encodings, names written the ways scheduling systems
 * write them, duplicates, ambiguous and unknown patients, and every kind of bad row. The
 * expected counts come from the generator's own plan, never from the importer.
 */

export interface Person {
  first_name: string;
  last_name: string;
  date_of_birth: string;
}

export type Layout = 'pm_csv' | 'name_tsv' | 'legacy_1252';

export interface GeneratedFile {
  name: string;
  layout: Layout;
  bytes: Uint8Array;
  /** The rows (after the header) in file order, as the plan made them. */
  kinds: RowKind[];
}

type RowKind = 'existing' | 'new' | 'ambiguous' | 'swapped' | 'duplicate' | SkipReason;

export interface ExpectedCounts {
  created: number;
  skipped: number;
  patients_matched: number;
  patients_created: number;
  needs_person: number;
  skipped_by_reason: Partial<Record<SkipReason, number>>;
}

export interface GeneratedSchedule {
  /** Patients the desk already has (seed them before importing). */
  existing: Person[];
  files: GeneratedFile[];
  expected: ExpectedCounts;
  /** The appointment dates used (YYYY-MM-DD). */
  dates: string[];
}

const FIRST = ['José', 'María', 'Zoë', 'François', 'Siobhan', 'Anne-Marie', 'Mei', 'Olúwaseun', 'Jürgen', 'Ana', 'Liam', 'Grace', 'Noah', 'Chloé', 'Ines', 'Rafael', 'Priya', 'Tomás', 'Léa', 'Omar'];
const LAST = ['Peña', 'Núñez', "O'Brien", 'Smith-Jones', 'Müller', 'García', 'Nguyen', 'Kowalski', 'Dubois', 'Okafor', 'Haddad', 'Lindqvist', 'Ramírez', 'Chen', 'Moreau', 'Åberg', 'Costa', 'Ibáñez', 'Novak', 'Søren'];

const strip = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '');
const pad = (n: number) => String(n).padStart(2, '0');

export interface GenerateOptions {
  rows: number;
  seed: number;
  /** The first appointment day (YYYY-MM-DD); rows spread over five days from it. */
  firstDate: string;
  /** How many of the rows are bad, duplicated, ambiguous…: the share of the "other" rows (default 0.3). */
  messiness?: number;
}

export function generateSchedule(options: GenerateOptions): GeneratedSchedule {
  const random = seededRandom(options.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const people = new Map<string, Person>();
  const personKey = (p: Person) => `${strip(p.last_name).toLowerCase()}|${strip(p.first_name).toLowerCase()}|${p.date_of_birth}`;
  const newPerson = (): Person => {
    for (;;) {
      const year = 1930 + Math.floor(random() * 90);
      const p = { first_name: pick(FIRST), last_name: pick(LAST), date_of_birth: `${year}-${pad(1 + Math.floor(random() * 12))}-${pad(1 + Math.floor(random() * 28))}` };
      // Unique as the matcher sees names (accents, case), and unique even when first and last are swapped.
      const swapped = { ...p, first_name: p.last_name, last_name: p.first_name };
      if (!people.has(personKey(p)) && !people.has(personKey(swapped)) && strip(p.first_name).toLowerCase() !== strip(p.last_name).toLowerCase()) {
        people.set(personKey(p), p);
        return p;
      }
    }
  };
  const existingCount = Math.max(20, Math.round(options.rows * 0.3));
  const regular = Array.from({ length: existingCount }, newPerson);
  // Registered twice at the desk (once with accents, once without): a person must choose.
  const twins = Array.from({ length: 5 }, () => {
    const p = newPerson();
    return [p, { ...p, first_name: strip(p.first_name).toUpperCase(), last_name: strip(p.last_name) }] as const;
  });
  const unknown = Array.from({ length: Math.max(10, Math.round(options.rows * 0.06)) }, newPerson);
  const existing = [...regular, ...twins.flat()];

  const dates = Array.from({ length: 5 }, (_, i) => {
    const d = new Date(`${options.firstDate}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + i);
    return d.toISOString().slice(0, 10);
  });
  const layouts: Layout[] = ['pm_csv', 'name_tsv', 'legacy_1252'];
  const messy = options.messiness ?? 0.3;
  const badKinds: SkipReason[] = ['missing_name', 'missing_date_of_birth', 'invalid_date_of_birth', 'invalid_date', 'invalid_time', 'unknown_provider', 'unknown_visit_type'];
  const visitTypes = Object.keys(DEFAULT_VISIT_TYPES);

  interface Row {
    kind: RowKind;
    person: Person;
    date: string;
    time: string;
    provider: string;
    visit: string;
    externalId: string;
    member: string;
    variant: number;
    /** First and last name written in each other's place (a duplicate keeps it). */
    swapped: boolean;
  }
  const rowsByFile: Row[][] = layouts.map(() => []);
  for (let i = 0; i < options.rows; i++) {
    const file = i % layouts.length;
    const earlier = rowsByFile[file].filter((r) => ['existing', 'new', 'ambiguous', 'swapped'].includes(r.kind));
    const roll = random();
    let kind: RowKind;
    if (roll >= messy) kind = random() < 0.75 ? 'existing' : 'new';
    else {
      const r = random();
      kind = r < 0.2 ? 'ambiguous' : r < 0.3 ? 'swapped' : r < 0.45 && earlier.length > 0 ? 'duplicate' : pick(badKinds);
    }
    if (kind === 'duplicate') {
      rowsByFile[file].push({ ...pick(earlier), kind: 'duplicate' });
      continue;
    }
    // One five-minute slot per row: no two usable rows share date, time and person by accident.
    const slot = i;
    const person = kind === 'new' ? pick(unknown) : kind === 'ambiguous' ? pick(twins)[Math.floor(random() * 2)] : pick(regular);
    rowsByFile[file].push({
      kind,
      person,
      date: dates[Math.floor(slot / 120) % dates.length],
      time: `${pad(8 + Math.floor((slot % 120) / 12))}:${pad((slot % 12) * 5)}`,
      provider: kind === 'unknown_provider' ? 'Dr. Nobody Known' : pick(SEED_PROVIDERS).name,
      visit: kind === 'unknown_visit_type' ? 'Reiki consult' : random() < 0.15 ? '' : pick(visitTypes),
      externalId: `A${100000 + i}`,
      member: random() < 0.5 ? `M${Math.floor(random() * 1e9)}` : '',
      variant: Math.floor(random() * 4),
      swapped: kind === 'swapped',
    });
  }

  // The answer key, walking the files in order as the importer will.
  const expected: ExpectedCounts = { created: 0, skipped: 0, patients_matched: 0, patients_created: 0, needs_person: 0, skipped_by_reason: {} };
  const madeByImport = new Set<string>();
  for (const rows of rowsByFile) {
    for (const row of rows) {
      if (row.kind === 'duplicate' || badKinds.includes(row.kind as SkipReason)) {
        const reason: SkipReason = row.kind === 'duplicate' ? 'duplicate_row' : (row.kind as SkipReason);
        expected.skipped += 1;
        expected.skipped_by_reason[reason] = (expected.skipped_by_reason[reason] ?? 0) + 1;
        continue;
      }
      expected.created += 1;
      if (row.kind === 'ambiguous' || row.kind === 'swapped') expected.needs_person += 1;
      else if (row.kind === 'new' && !madeByImport.has(personKey(row.person))) {
        madeByImport.add(personKey(row.person));
        expected.patients_created += 1;
      } else expected.patients_matched += 1;
    }
  }

  const files = layouts.map((layout, index): GeneratedFile => {
    const rows = rowsByFile[index];
    return { name: `${layout}.${layout === 'name_tsv' ? 'tsv' : 'csv'}`, layout, bytes: render(layout, rows), kinds: rows.map((r) => r.kind) };
  });
  return { existing, files, expected, dates };

  /** A name as a scheduling system might write it: upper case, accents lost, hyphen as space. */
  function styled(name: string, variant: number): string {
    if (variant === 1) return name.toUpperCase();
    if (variant === 2) return strip(name);
    if (variant === 3) return name.replace(/-/g, ' ');
    return name;
  }

  function cellsOf(row: Row) {
    const swapped = row.swapped;
    const first = row.kind === 'missing_name' ? '' : styled(swapped ? row.person.last_name : row.person.first_name, row.variant);
    const last = row.kind === 'missing_name' ? '' : styled(swapped ? row.person.first_name : row.person.last_name, row.variant);
    const [y, m, d] = row.person.date_of_birth.split('-');
    const [ay, am, ad] = row.date.split('-');
    return { first, last, dob: { y, m, d }, date: { y: ay, m: am, d: ad } };
  }

  function render(layout: Layout, rows: Row[]): Uint8Array {
    const lines: string[] = [];
    const csv = (cells: string[], sep: string) => cells.map((c) => (/[",\n;]/.test(c) && sep !== '\t' ? `"${c.replace(/"/g, '""')}"` : c)).join(sep);
    if (layout === 'pm_csv') {
      // A modern PM system: its own ids, split names, M/D/YYYY and 12-hour times, UTF-8.
      lines.push(csv(['Appt ID', 'Appt Date', 'Start Time', 'Patient Last Name', 'Patient First Name', 'DOB', 'Provider', 'Appointment Type', 'Location', 'Member ID'], ','));
      for (const row of rows) {
        const c = cellsOf(row);
        const [h, min] = row.time.split(':').map(Number);
        const time = row.kind === 'invalid_time' ? '25:99' : `${((h + 11) % 12) + 1}:${pad(min)} ${h < 12 ? 'AM' : 'PM'}`;
        const date = row.kind === 'invalid_date' ? `2/30/${c.date.y}` : `${Number(c.date.m)}/${Number(c.date.d)}/${c.date.y}`;
        const dob = row.kind === 'missing_date_of_birth' ? '' : row.kind === 'invalid_date_of_birth' ? '13/45/1980' : `${Number(c.dob.m)}/${Number(c.dob.d)}/${c.dob.y}`;
        lines.push(csv([row.externalId, date, time, c.last, c.first, dob, row.provider, row.visit, 'Main St', row.member], ','));
      }
      return new TextEncoder().encode(`${lines.join('\r\n')}\r\n`);
    }
    if (layout === 'name_tsv') {
      // An older system: no ids, "Last, First" in one column, ISO dates, 24-hour times, tabs.
      lines.push(['Date', 'Time', 'Patient', 'Date of Birth', 'Doctor', 'Visit Type', 'Phone'].join('\t'));
      for (const row of rows) {
        const c = cellsOf(row);
        const name = row.kind === 'missing_name' ? '' : row.variant % 2 === 0 ? `${c.last}, ${c.first}` : `${c.last.toUpperCase()}, ${c.first.toUpperCase()}`;
        const date = row.kind === 'invalid_date' ? `${c.date.y}-02-30` : row.date;
        const time = row.kind === 'invalid_time' ? '7.5' : row.time;
        const dob = row.kind === 'missing_date_of_birth' ? '' : row.kind === 'invalid_date_of_birth' ? '2999-01-01' : row.person.date_of_birth;
        lines.push([date, time, name, dob, row.provider, row.visit, '555-0100'].join('\t'));
      }
      return new TextEncoder().encode(`${lines.join('\n')}\n`);
    }
    // A Windows export: Windows-1252 bytes, MM-DD-YY dates, one date-and-time column, semicolons.
    lines.push(csv(['Visit ID', 'Appointment Date/Time', 'First Name', 'Last Name', 'Birth Date', 'Resource', 'Reason', 'Facility'], ';'));
    for (const row of rows) {
      const c = cellsOf(row);
      const [h, min] = row.time.split(':').map(Number);
      const date = row.kind === 'invalid_date' ? `02-30-${c.date.y.slice(2)}` : `${c.date.m}-${c.date.d}-${c.date.y.slice(2)}`;
      const time = row.kind === 'invalid_time' ? '99:99' : `${((h + 11) % 12) + 1}:${pad(min)}pm`.replace('pm', h < 12 ? 'am' : 'pm');
      const dob = row.kind === 'missing_date_of_birth' ? '' : row.kind === 'invalid_date_of_birth' ? '02-30-80' : `${c.dob.m}-${c.dob.d}-${c.dob.y.slice(2)}`;
      lines.push(csv([`V-${row.externalId}`, `${date} ${time}`, c.first, c.last, dob, row.provider, row.visit, 'North Clinic'], ';'));
    }
    // Windows-1252 agrees with Latin-1 on every letter these names use.
    return new Uint8Array(Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1'));
  }
}
