import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findPlaintext } from '@src/main/security/plaintext-scan';
import { CANARY_MEMBER_ID, CANARY_PATIENT } from '@test/support/canary-phi';
import { makeTempDir } from '@test/support/temp-dir';

const temps: { dir: string; cleanup(): void }[] = [];
function logsDir() {
  const temp = makeTempDir('coverdesk-logs-');
  temps.push(temp);
  fs.mkdirSync(path.join(temp.dir, 'main', 'old'), { recursive: true });
  fs.writeFileSync(path.join(temp.dir, 'main', 'app.log'), 'sync: sent pat_01JD0000000000000000000001 (201)\n');
  return temp.dir;
}
afterEach(() => temps.splice(0).forEach((t) => t.cleanup()));

describe('plaintext scan (the canary check for logs and data folders)', () => {
  it('finds nothing in clean logs', () => {
    expect(findPlaintext([logsDir()], [CANARY_PATIENT.last_name, CANARY_MEMBER_ID])).toEqual([]);
  });

  it('finds a canary in any case, as UTF-8 or UTF-16, in nested folders', () => {
    const dir = logsDir();
    fs.writeFileSync(path.join(dir, 'main', 'old', 'crash.log'), `TypeError at patient ${CANARY_PATIENT.last_name.toUpperCase()}\n`);
    fs.writeFileSync(path.join(dir, 'renderer.log'), Buffer.from(`member ${CANARY_MEMBER_ID}`, 'utf16le'));
    const findings = findPlaintext([dir], [CANARY_PATIENT.last_name, CANARY_MEMBER_ID]);
    expect(findings.map((f) => [path.relative(dir, f.file), f.needle, f.encoding])).toEqual([
      [path.join('main', 'old', 'crash.log'), CANARY_PATIENT.last_name, 'utf8'],
      ['renderer.log', CANARY_MEMBER_ID, 'utf16le'],
    ]);
  });

  it('does not follow symlinks out of the folder it was given', () => {
    const dir = logsDir();
    const elsewhere = logsDir();
    fs.writeFileSync(path.join(elsewhere, 'note.txt'), CANARY_PATIENT.last_name);
    fs.symlinkSync(elsewhere, path.join(dir, 'link'));
    expect(findPlaintext([dir], [CANARY_PATIENT.last_name])).toEqual([]);
  });

  it('is a command for the end-to-end run: exit 1 naming the file, 0 when clean', { timeout: 30_000 }, () => {
    const dir = logsDir();
    const run = () => spawnSync(process.execPath, [require.resolve('tsx/cli'), 'scripts/scan-plaintext.ts', dir, path.join(dir, 'missing')], { encoding: 'utf8' });
    const clean = run();
    expect(clean.status).toBe(0);
    expect(clean.stdout).toContain('No canary text in 1 file(s).');
    fs.writeFileSync(path.join(dir, 'main', 'app.log'), `created patient ${CANARY_PATIENT.first_name}`);
    const dirty = run();
    expect(dirty.status).toBe(1);
    expect(dirty.stderr).toContain(`app.log  "${CANARY_PATIENT.first_name}" as utf8`);
  });
});
