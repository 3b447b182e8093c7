/**
 * `npm run scan:plaintext -- [--canary TEXT]... PATH...`: fails if any file under the given
 * files or folders holds a canary string in readable form (UTF-8 or UTF-16, any case).
 * Without --canary it looks for the canary patient of test/support/canary-phi.ts: the
 * end-to-end run registers that patient, then scans its log folders with this, so "no log
 * file contains PHI" is checked rather than hoped. Also usable on a data folder, with
 * `--canary 'SQLite format 3'`, to prove a database is not stored in the clear.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { findPlaintext, listFiles } from '../src/main/security/plaintext-scan';
import { CANARY_STRINGS } from '../test/support/canary-phi';

function main(): number {
  const { values, positionals } = parseArgs({ options: { canary: { type: 'string', multiple: true } }, allowPositionals: true });
  if (positionals.length === 0) {
    console.error('Usage: scan-plaintext [--canary TEXT]... PATH...');
    return 2;
  }
  const canaries = values.canary?.length ? values.canary : [...CANARY_STRINGS];
  const present = positionals.filter((target) => fs.existsSync(target));
  for (const missing of positionals.filter((target) => !present.includes(target))) console.warn(`(nothing at ${missing})`);
  const findings = findPlaintext(present, canaries);
  const scanned = listFiles(present).length;
  if (scanned === 0) {
    // A scan of nothing proves nothing: the logs it was pointed at were never written.
    console.error(`No files to scan under ${positionals.join(', ')}.`);
    return 1;
  }
  if (findings.length === 0) {
    console.log(`No canary text in ${scanned} file(s).`);
    return 0;
  }
  console.error(`Canary text found in plain form (${findings.length}):`);
  for (const f of findings) console.error(`  ${path.relative(process.cwd(), f.file)}  "${f.needle}" as ${f.encoding} at byte ${f.offset}`);
  return 1;
}

process.exitCode = main();
