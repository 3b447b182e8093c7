import fs from 'node:fs';
import path from 'node:path';
import { AAA_REASONS, FOLLOW_UP_ACTIONS, type ClearinghouseEntityError } from '../../shared/contract';
import { read271, type X12Person } from './read-271';
import { X12FileError } from './x12-interchange';

/** The extensions read from a folder of 271s; anything else (a README, provenance notes) is left alone. */
export const X12_EXTENSIONS = ['.x12', '.edi', '.txt', '.271'] as const;

export interface X12Roster {
  /** File names read, in order. */
  files: string[];
  /** Files beside them that were not read (another extension). */
  ignored: string[];
  people: X12Person[];
  /** The 271 person a check is about, or how the payer would refuse a near miss. */
  find(check: { member_id?: string | null; first_name: string; last_name: string; date_of_birth: string }): X12Match | null;
}

export type X12Match = { kind: 'person'; person: X12Person } | { kind: 'mismatch'; error: ClearinghouseEntityError };

/** Names match as a front desk would: ignoring case, accents and extra spaces. */
export function normalizeName(name: string | undefined): string {
  return (name ?? '').normalize('NFD').replace(/\p{M}/gu, '').trim().replace(/\s+/g, ' ').toLowerCase();
}

const memberKey = (id: string) => id.trim().toUpperCase();

function personKey(person: X12Person): string {
  return [memberKey(person.member_id ?? ''), normalizeName(person.last_name), normalizeName(person.first_name), person.date_of_birth ?? ''].join('\u0000');
}

function mismatch(code: '71' | '73'): X12Match {
  const { reason, field } = AAA_REASONS[code];
  const description = code === '73' ? 'Invalid/missing subscriber/insured name' : 'Patient birth date does not match that for the patient on the database';
  return { kind: 'mismatch', error: { code, reason, description, follow_up_action: FOLLOW_UP_ACTIONS.C, field, level: 'subscriber' } };
}

/** Builds the lookup over people already read (tests use it without a folder). */
export function createX12Roster(people: X12Person[], files: string[] = [], ignored: string[] = []): X12Roster {
  const seen = new Map<string, X12Person>();
  for (const person of people) {
    const key = personKey(person);
    const earlier = seen.get(key);
    // Named by file only: the person's name and member id are PHI.
    if (earlier) {
      const same = earlier.file === person.file;
      throw new X12FileError(
        same ? person.file : `${earlier.file} and ${person.file}`,
        `${same ? 'describes the same person twice' : 'describe the same person'} (same member id, name and date of birth); keep one answer per person`,
      );
    }
    seen.set(key, person);
  }
  const byMember = new Map<string, X12Person[]>();
  for (const person of people) {
    if (!person.member_id) continue;
    const key = memberKey(person.member_id);
    byMember.set(key, [...(byMember.get(key) ?? []), person]);
  }
  return {
    files,
    ignored,
    people,
    find(check) {
      if (!check.member_id) return null;
      const candidates = byMember.get(memberKey(check.member_id));
      if (!candidates) return null;
      const nameMatches = candidates.filter(
        (p) =>
          (!p.last_name || normalizeName(p.last_name) === normalizeName(check.last_name)) &&
          (!p.first_name || normalizeName(p.first_name) === normalizeName(check.first_name)),
      );
      // The person the payer named exactly first; one the 271 gives no name for after.
      nameMatches.sort((a, b) => Number(!a.last_name) - Number(!b.last_name));
      if (nameMatches.length === 0) return mismatch('73');
      const person = nameMatches.find((p) => !p.date_of_birth || p.date_of_birth === check.date_of_birth);
      return person ? { kind: 'person', person } : mismatch('71');
    },
  };
}

/**
 * Every 271 in `dir` (by extension), read and checked: a bad file, or two answers about
 * the same person, refuses the whole folder, naming the files.
 */
export function loadX12Roster(dir: string): X12Roster {
  let names: string[];
  try {
    names = fs.readdirSync(dir).sort();
  } catch {
    throw new X12FileError(dir, 'cannot be read as a folder of 271 files');
  }
  const files: string[] = [];
  const ignored: string[] = [];
  for (const name of names) {
    if (name.startsWith('.') || !fs.statSync(path.join(dir, name)).isFile()) continue;
    (X12_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext)) ? files : ignored).push(name);
  }
  if (files.length === 0) throw new X12FileError(dir, `holds no 271 file (${X12_EXTENSIONS.join(', ')})`);
  const people = files.flatMap((name) => read271(name, fs.readFileSync(path.join(dir, name), 'utf8')).people);
  return createX12Roster(people, files, ignored);
}
