/**
 * The README's fault figures (issue 29): `npx tsx bench/faults.ts [--kills N]`. Each fault is
 * run on real files against a real upstream (the sandbox on a loopback port), then the desk is
 * started again as a person would (the restart, or the restore tried again) and left to send
 * everything. Printed per fault: records the desk was told were saved, how many the upstream
 * lacks at the end (lost; goal 0) and how many it holds more than once (duplicated; goal 0).
 * Creates the desk refused ("nothing was saved") are counted apart: they were never saved.
 * It does not touch README's table.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createBackup, deskIdentity } from '../src/main/backup/desk-backup';
import { finishInterruptedRestore, practiceOfFolder, restoreBackup } from '../src/main/backup/desk-restore';
import { keyFilePaths, readOrCreateKeyFile } from '../src/main/db/database-key';
import { createHost, hostPaths, type Host, type HostOptions } from '../src/main/host/create-host';
import { createPhotoStore } from '../src/main/photos/photo-store';
import { startSandbox, type Sandbox } from '../src/main/sandbox/start-sandbox';
import { FAST_POLICY, SANDBOX_KEY } from '@test/support/sync/visits';

interface Figures {
  fault: string;
  saved: number;
  refused: number;
  lost: number;
  duplicated: number;
  note?: string;
}

const PAGE = 4096;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'coverdesk-bench-faults-'));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function deskOptions(upstream: Sandbox, dataDir: string, extra: Partial<HostOptions> = {}): HostOptions {
  return {
    dataDir,
    upstream: { url: upstream.url, apiKey: SANDBOX_KEY },
    localApi: false,
    hotFolder: false,
    sync: { policy: { ...FAST_POLICY, diskFullRetryMs: 200 }, timeoutMs: 2_000 },
    ...extra,
  };
}

async function started(options: HostOptions): Promise<Host> {
  const host = createHost(options);
  await host.start();
  return host;
}

const person = (fault: string, n: number) => ({ first_name: `${fault}${n}`, last_name: 'Fault', date_of_birth: '1975-06-07' });

async function drained(host: Host, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { counts } = await host.bridge['sync.status']({});
    if (counts.queued + counts.sending + counts.blocked === 0) return;
    if (Date.now() > deadline) throw new Error(`the outbox did not drain: ${JSON.stringify(counts)}`);
    await sleep(50);
  }
}

/** Of the names the desk was told were saved: how many the upstream lacks, and how many rows beyond one it holds. */
function upstreamFigures(upstream: Sandbox, saved: string[]): { lost: number; duplicated: number } {
  const rows = upstream.database.sqlite.prepare('SELECT first_name, count(*) AS n FROM patients GROUP BY first_name').all() as { first_name: string; n: number }[];
  const byName = new Map(rows.map((row) => [row.first_name, row.n]));
  return {
    lost: saved.filter((name) => !byName.has(name)).length,
    duplicated: saved.reduce((sum, name) => sum + Math.max(0, (byName.get(name) ?? 0) - 1), 0),
  };
}

async function create(host: Host, fault: string, n: number, saved: string[]): Promise<boolean> {
  try {
    saved.push((await host.bridge['patients.create'](person(fault, n))).first_name);
    return true;
  } catch {
    return false;
  }
}

/** The disk fills while the desk takes creates (SQLite's page limit at the file's size), then space comes back. */
async function diskFullDuringCreates(upstream: Sandbox): Promise<Figures> {
  const host = await started(deskOptions(upstream, path.join(root, 'full')));
  const saved: string[] = [];
  let refused = 0;
  let n = 0;
  for (; n < 30; n += 1) await create(host, 'Full', n, saved);
  const sqlite = host.database.sqlite;
  sqlite.pragma(`max_page_count = ${sqlite.pragma('page_count', { simple: true }) as number}`);
  for (; n < 130; n += 1) if (!(await create(host, 'Full', n, saved))) refused += 1;
  await sleep(500);
  sqlite.pragma('max_page_count = 1073741823');
  for (; n < 160; n += 1) await create(host, 'Full', n, saved);
  await drained(host);
  await host.close();
  return { fault: 'disk full during creates', saved: saved.length, refused, ...upstreamFigures(upstream, saved) };
}

/** A byte flipped in a page of a desk with records sent and not yet sent; found by the check, recovered at the restart. */
async function damagedFile(upstream: Sandbox): Promise<Figures> {
  const dataDir = path.join(root, 'damaged');
  const saved: string[] = [];
  const online = await started(deskOptions(upstream, dataDir));
  for (let n = 0; n < 200; n += 1) await create(online, 'Damaged', n, saved);
  await drained(online);
  await online.close();
  // Offline (not started: nothing sent): what exists only on this desk.
  const offline = createHost(deskOptions(upstream, dataDir));
  for (let n = 200; n < 400; n += 1) await create(offline, 'Damaged', n, saved);
  offline.database.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  await offline.close();
  const file = hostPaths(dataDir).database;
  const bytes = fs.readFileSync(file);
  bytes[(bytes.length / PAGE - 3) * PAGE + 1000] ^= 0xff;
  fs.writeFileSync(file, bytes);

  let restart: () => void = () => {};
  const restarted = new Promise<void>((resolve) => (restart = resolve));
  const found = await started(deskOptions(upstream, dataDir, { onRestartNeeded: () => restart() }));
  const check = await found.checked;
  await restarted;
  await found.close();
  const recovered = await started(deskOptions(upstream, dataDir));
  const unreadable = recovered.damaged ? Object.values(recovered.damaged.unreadableRows).reduce((a, b) => a + b, 0) : 0;
  await drained(recovered);
  await recovered.close();
  return { fault: 'damaged file (a flipped byte)', saved: saved.length, refused: 0, ...upstreamFigures(upstream, saved), note: `check: ${check?.state}; rows unreadable: ${unreadable}` };
}

/** The backup folder is removed while a backup is written; the desk goes on. */
async function backupFolderVanishes(upstream: Sandbox): Promise<Figures> {
  const dataDir = path.join(root, 'vanish');
  const saved: string[] = [];
  const host = createHost(deskOptions(upstream, dataDir));
  for (let n = 0; n < 50; n += 1) await create(host, 'Vanish', n, saved);
  const to = path.join(root, 'usb');
  fs.mkdirSync(to);
  const key = readOrCreateKeyFile({ file: keyFilePaths(dataDir).plain, mayCreate: false });
  let outcome = 'backed up';
  try {
    await createBackup(
      { clock: { now: () => new Date() }, key, version: '0.1.0', onStep: (step) => step === 'database' && fs.rmSync(to, { recursive: true, force: true }) },
      { files: hostPaths(dataDir), identity: deskIdentity(host.database.sqlite), to, keep: 3 },
    );
  } catch (error) {
    outcome = `refused: ${(error as Error).message.slice(0, 60)}…`;
  }
  for (let n = 50; n < 100; n += 1) await create(host, 'Vanish', n, saved);
  await host.start();
  await drained(host);
  await host.close();
  return { fault: 'backup folder vanishing mid-backup', saved: saved.length, refused: 0, ...upstreamFigures(upstream, saved), note: outcome };
}

/**
 * `npm run restore`'s script in a child process. With `killAfterMs`, it is SIGKILLed that long
 * after its staging folder appears (the restore's own work, not the process starting). Answers
 * how it ended and how long it ran after staging began.
 */
function runRestoreChild(args: string[], dataDir: string, killAfterMs: number | null): Promise<{ outcome: 'done' | 'killed' | 'failed'; stagedMs: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(__dirname, '../scripts/restore.ts'), ...args], { stdio: 'ignore' });
    let stagedAt: number | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const watch = setInterval(() => {
      if (stagedAt !== null || !fs.existsSync(path.join(dataDir, '.restore-staging'))) return;
      stagedAt = performance.now();
      if (killAfterMs !== null) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    }, 1);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearInterval(watch);
      if (timer) clearTimeout(timer);
      const stagedMs = stagedAt === null ? 0 : performance.now() - stagedAt;
      resolve({ outcome: signal === 'SIGKILL' ? 'killed' : code === 0 ? 'done' : 'failed', stagedMs });
    });
  });
}

/** A desk's backup restored on a new computer (Move this desk), the restore killed at a random moment each time; started, then tried again if it had not finished. */
async function killedDuringRestore(upstream: Sandbox, kills: number): Promise<Figures> {
  const oldDir = path.join(root, 'old-desk');
  const saved: string[] = [];
  const online = await started(deskOptions(upstream, oldDir));
  for (let n = 0; n < 40; n += 1) await create(online, 'Moved', n, saved);
  await drained(online);
  await online.close();
  const offline = createHost(deskOptions(upstream, oldDir));
  for (let n = 40; n < 80; n += 1) await create(offline, 'Moved', n, saved);
  const backups = path.join(root, 'share');
  fs.mkdirSync(backups);
  const keyFile = keyFilePaths(oldDir).plain;
  const key = readOrCreateKeyFile({ file: keyFile, mayCreate: false });
  // Photo files (sealed, as the store writes them) so the restore takes long enough for kills to land inside it.
  const photos = createPhotoStore(hostPaths(oldDir).photos, { key });
  for (let i = 0; i < 800; i += 1) photos.put({ content_type: 'image/png', bytes: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(60_000)]) });
  await createBackup({ clock: { now: () => new Date() }, key, version: '0.1.0' }, { files: hostPaths(oldDir), identity: deskIdentity(offline.database.sqlite), to: backups, keep: 1 });
  await offline.close();

  // How long a whole restore runs once it has begun staging: the kills fall all along that.
  const timedDir = path.join(root, 'timed');
  const { stagedMs } = await runRestoreChild(['--from', backups, '--data-dir', timedDir, '--key-file', keyFile], timedDir, null);
  const when = { staging: 0, ready: 0, swapped: 0, finished: 0 };
  let retried = 0;
  for (let round = 0; round < kills; round += 1) {
    const dataDir = path.join(root, `new-desk-${round}`);
    const { outcome } = await runRestoreChild(['--from', backups, '--data-dir', dataDir, '--key-file', keyFile], dataDir, Math.random() * stagedMs);
    const staging = path.join(dataDir, '.restore-staging');
    if (outcome !== 'killed') when.finished += 1;
    else if (fs.existsSync(path.join(staging, 'READY'))) when.ready += 1;
    else if (fs.existsSync(staging)) when.staging += 1;
    else when.swapped += 1;
    // The next start finishes a restore that was READY, or drops one that was not: then it is tried again.
    finishInterruptedRestore({ ...hostPaths(dataDir), dataDir, keyFile: keyFilePaths(dataDir).plain });
    if (!fs.existsSync(hostPaths(dataDir).database) || !fs.existsSync(keyFilePaths(dataDir).plain)) {
      retried += 1;
      const folder = fs.readdirSync(backups).map((name) => path.join(backups, name))[0];
      await restoreBackup(
        { version: '0.1.0', now: () => new Date() },
        { from: folder, key, target: { ...hostPaths(dataDir), dataDir, keyFile: keyFilePaths(dataDir).plain }, targetPracticeId: practiceOfFolder(hostPaths(dataDir).database, null) },
      );
    }
    const desk = await started(deskOptions(upstream, dataDir));
    await drained(desk);
    await desk.close();
  }
  return { fault: `SIGKILL during restore (${kills} runs)`, saved: saved.length, refused: 0, ...upstreamFigures(upstream, saved), note: `killed while staging ${when.staging}, after READY ${when.ready}, after the swap ${when.swapped}, finished first ${when.finished}; restore tried again ${retried}; a restore's work ${Math.round(stagedMs)} ms` };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { kills: { type: 'string' } } });
  const kills = Number(values.kills ?? 16);
  const figures: Figures[] = [];
  try {
    for (const fault of [diskFullDuringCreates, damagedFile, backupFolderVanishes, (up: Sandbox) => killedDuringRestore(up, kills)]) {
      // One upstream per fault: its counts are that fault's alone.
      const upstream = await startSandbox({ port: 0, apiKey: SANDBOX_KEY, delayMs: 20 });
      try {
        const result = await fault(upstream);
        figures.push(result);
        console.log(`${result.fault}: ${result.saved} saved, ${result.refused} refused (nothing saved), lost ${result.lost}, duplicated upstream ${result.duplicated}${result.note ? ` (${result.note})` : ''}`);
      } finally {
        await upstream.close();
      }
    }
    console.log(JSON.stringify({ faults: figures }));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
