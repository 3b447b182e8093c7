import fs from 'node:fs';
import path from 'node:path';

export interface PlaintextFinding {
  file: string;
  needle: string;
  encoding: 'utf8' | 'utf16le';
  offset: number;
}

/** Every regular file under the given files and folders (symlinks are not followed). */
export function listFiles(targets: readonly string[]): string[] {
  const files: string[] = [];
  const visit = (target: string) => {
    const stat = fs.lstatSync(target, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) for (const name of fs.readdirSync(target).sort()) visit(path.join(target, name));
    else if (stat.isFile()) files.push(target);
  };
  targets.forEach(visit);
  return files;
}

/**
 * Where any needle (a canary patient name, member id, or `SQLite format 3`) appears in the
 * bytes of the given files and folders: case-insensitively, as UTF-8 and as UTF-16LE (how
 * Windows tools write logs). Used by the encryption tests on the data folder and by the
 * end-to-end run on its log folders: a finding means PHI reached the disk readable.
 */
export function findPlaintext(targets: readonly string[], needles: readonly string[]): PlaintextFinding[] {
  const findings: PlaintextFinding[] = [];
  for (const file of listFiles(targets)) {
    // latin1 maps each byte to one char, so offsets are byte offsets and ASCII lowercases.
    const haystack = fs.readFileSync(file).toString('latin1').toLowerCase();
    for (const needle of needles) {
      const lower = needle.toLowerCase();
      const forms = {
        utf8: Buffer.from(lower, 'utf8').toString('latin1'),
        utf16le: Buffer.from(lower, 'utf16le').toString('latin1'),
      };
      for (const [encoding, form] of Object.entries(forms) as [PlaintextFinding['encoding'], string][]) {
        const offset = haystack.indexOf(form);
        if (form.length > 0 && offset >= 0) findings.push({ file, needle, encoding, offset });
      }
    }
  }
  return findings;
}
