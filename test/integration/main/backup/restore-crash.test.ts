import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackup, deskIdentity } from '@src/main/backup/desk-backup';
import { keyFilePaths, readOrCreateKeyFile } from '@src/main/db/database-key';
import { createHost, hostPaths, type Host } from '@src/main/host/create-host';
import { seededRandom } from '@src/main/sandbox/fault-injection';
import { bundleChild } from '@test/support/bundle-child';
import { snapshotDatabase } from '@test/support/db-snapshot';
import { createVisit } from '@test/support/sync/visits';
import { makeTempDir } from '@test/support/temp-dir';
import { startReadyChild } from '@test/support/sync/child-process';

/**
 * Power loss during a restore (issue 29): `npm run restore` (the script itself, bundled) in
 * a child process, SIGKILLed at seeded random moments. After each kill the desk starts on
 * either its old data, untouched, or the restored backup with the old data kept aside:
 * never a mix, never a record lost.
 */
const RUNS = 12;
const SEED = 20261126;
const temp = makeTempDir('coverdesk-restore-crash-');
let childFile: string;
let stoppingChild: string;
const pristine = path.join(temp.dir, 'pristine');
const backups = path.join(temp.dir, 'backups');
let backupFolder: string;
let oldContents: ReturnType<typeof contents>;
let backupContents: ReturnType<typeof contents>;

function contents(host: Host) {
  const outbox = (host.database.sqlite.prepare('SELECT id FROM outbox ORDER BY id').all() as { id: string }[]).map((row) => row.id);
  return { ...snapshotDatabase(host.database.sqlite, hostPaths(host.dataDir).photos), outbox };
}

function openDesk(dataDir: string): Host {
  return createHost({ dataDir, localApi: false, hotFolder: false });
}

beforeAll(async () => {
  childFile = await bundleChild(path.resolve(__dirname, '../../../../scripts/restore.ts'), 'coverdesk-restore');
  stoppingChild = await bundleChild(path.resolve(__dirname, '../../../support/backup/restore-child.ts'), 'coverdesk-restore');
  fs.mkdirSync(backups);
  const desk = openDesk(pristine);
  for (let n = 0; n < 120; n++) await createVisit(desk, n);
  deskIdentity(desk.database.sqlite);
  const made = await createBackup(
    { clock: { now: () => new Date() }, key: readOrCreateKeyFile({ file: keyFilePaths(pristine).plain, mayCreate: false }), version: '0.1.0' },
    { files: hostPaths(pristine), identity: deskIdentity(desk.database.sqlite), to: backups, keep: 1 },
  );
  backupFolder = made.folder;
  backupContents = contents(desk);
  // What the desk made after its backup: the old data a restore must not lose.
  for (let n = 120; n < 130; n++) await createVisit(desk, n);
  oldContents = contents(desk);
  await desk.close();
}, 120_000);

afterAll(() => temp.cleanup());

function runRestore(dataDir: string) {
  const child = spawn(process.execPath, [childFile, '--from', backupFolder, '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** The desk at `dataDir` after a start: the old data, or the backup with the old data kept aside; else the test fails. */
async function outcomeOf(dataDir: string, label: string): Promise<'old' | 'restored'> {
  const desk = openDesk(dataDir);
  const found = contents(desk);
  await desk.close();
  if (JSON.stringify(found) === JSON.stringify(oldContents)) return 'old';
  expect(found, `${label}: neither the old data nor the backup`).toEqual(backupContents);
  const previous = fs.readdirSync(dataDir).find((name) => name.startsWith('.restore-previous-'));
  expect(previous, `${label}: the old data was not kept aside`).toBeDefined();
  const kept = openDesk(path.join(dataDir, previous!));
  expect(contents(kept), `${label}: the old data kept aside is not whole`).toEqual(oldContents);
  await kept.close();
  return 'restored';
}

describe('SIGKILL during restore', () => {
  it('killed at each step of the swap: before READY the old data, after it the backup with the old data aside', async () => {
    const steps: [string, 'old' | 'restored'][] = [
      ['staged', 'old'],
      ['ready', 'restored'],
      ['moved:coverdesk.sqlite', 'restored'],
      ['moved:photos', 'restored'],
      ['moved:database.key', 'restored'],
    ];
    for (const [step, expected] of steps) {
      const dataDir = path.join(temp.dir, `step-${step.replace(/[:.]/g, '-')}`);
      fs.cpSync(pristine, dataDir, { recursive: true });
      const child = startReadyChild(stoppingChild, { RESTORE_FROM: backupFolder, RESTORE_DATA_DIR: dataDir, RESTORE_STOP_AT: step });
      await child.ready;
      child.process.kill('SIGKILL');
      await child.exited;
      expect(await outcomeOf(dataDir, step), step).toBe(expected);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it(`${RUNS} restores killed at random moments: each leaves the old data as it was, or the backup restored with the old data kept aside`, async () => {
    const random = seededRandom(SEED);
    // How long an undisturbed restore takes here, to spread the kills over it.
    const full = path.join(temp.dir, 'full');
    fs.cpSync(pristine, full, { recursive: true });
    const started = Date.now();
    const undisturbed = runRestore(full);
    expect(await undisturbed.exited, undisturbed.output()).toBe(0);
    const duration = Date.now() - started;
    const restoredHost = openDesk(full);
    expect(contents(restoredHost)).toEqual(backupContents);
    await restoredHost.close();

    const outcomes = { old: 0, restored: 0, lost: 0 };
    for (let run = 0; run < RUNS; run++) {
      const dataDir = path.join(temp.dir, `run-${run}`);
      fs.cpSync(pristine, dataDir, { recursive: true });
      const restore = runRestore(dataDir);
      await new Promise((resolve) => setTimeout(resolve, random() * duration));
      restore.child.kill('SIGKILL');
      await restore.exited;

      // The next start finishes or drops what the killed restore left.
      outcomes[await outcomeOf(dataDir, `run ${run}`)] += 1;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    console.log(`restore crash: ${JSON.stringify({ runs: RUNS, restoreMs: duration, ...outcomes, recordsLost: 0, recordsDuplicated: 0 })}`);
    expect(outcomes.old + outcomes.restored).toBe(RUNS);
  }, 240_000);
});
