import { chromium, type Browser, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHost } from '@src/main/host/create-host';
import { startWebHost, type WebHost } from '@src/main/web-host/start-web-host';
import { createDayOfVisits } from '@test/support/batch/day-of-visits';
import { seedPracticeFile } from '@test/support/sync/practice-seed';
import { makeTempDir } from '@test/support/temp-dir';
import { median, pageFunction, percentile, round, scrollFrames, type BenchResult, type Benchmark } from './harness';
import { startSandboxWorker, type Upstream } from './sync-drain';
import { CHROMIUM_ARGS } from './ui-today';

const APPOINTMENTS = 1_000; // 800 of them with a card and a payer: the batch's 800 checks
const PRACTICE_RECORDS = 100_000;
const VIEWPORT = { width: 1366, height: 820 };

interface Screen {
  nav: RegExp;
  /** Shown once the screen has its rows. */
  ready: string;
  /** What scrolls, and by how much a frame (Today's rows are 64 px: 1.5 rows, as ui_today). */
  list: string;
  step: number;
}
const SCREENS: Record<'schedule' | 'today', Screen> = {
  schedule: { nav: /^Schedule/, ready: 'tr[data-status]', list: '.main', step: 24 },
  today: { nav: /^Today/, ready: '.today-row', list: '.today-list', step: 96 },
};

function localTomorrow(): string {
  const now = new Date();
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

async function until(done: () => Promise<boolean>, limitMs: number, what: string): Promise<void> {
  for (let waited = 0; !(await done()); waited += 250) {
    if (waited > limitMs) throw new Error(`ui_load: ${what} did not happen within ${limitMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

interface Measured {
  /** Each run's frame durations, per screen. */
  runs: Record<keyof typeof SCREENS, number[][]>;
  /** Load average (1 min) at each run's end. */
  loads: number[];
  /** Whether the load still ran when the last run ended (else the last runs measured less than the load). */
  lastedThrough: boolean;
}

/** The page's bridge reads since the last call, per method: how many, and the bytes they carried. */
const READS = pageFunction<void, Record<string, { reads: number; kb: number }>>(`
  const out = {};
  for (const e of performance.getEntriesByType('resource')) {
    const m = /\\/bridge\\/([^/?]+)$/.exec(e.name);
    if (!m) continue;
    const o = out[m[1]] || (out[m[1]] = { reads: 0, kb: 0 });
    o.reads++;
    o.kb += e.encodedBodySize / 1024;
  }
  performance.clearResourceTimings();
  performance.setResourceTimingBufferSize(100000);
  return out;
`);

/**
 * Runs in the page before its scripts: every long animation frame (Chromium's LoAF entries),
 * so the bench can say where a slow frame's time went: which scripts, or style and layout.
 */
const LONG_FRAMES_PROBE = `
  window.__loaf = [];
  new PerformanceObserver((list) => { window.__loaf.push(...list.getEntries()); }).observe({ type: 'long-animation-frame', buffered: true });
`;
/** The long frames since the last call: their time in scripts by what invoked them, and in style and layout. */
const LONG_FRAMES = pageFunction<void, { frames: number; total: number; layout: number; scripts: [string, number][] }>(`
  const entries = window.__loaf.splice(0);
  const scripts = {};
  let total = 0, layout = 0;
  for (const e of entries) {
    total += e.duration;
    if (e.styleAndLayoutStart) layout += e.startTime + e.duration - e.styleAndLayoutStart;
    for (const s of e.scripts) {
      const key = s.invoker + (s.sourceFunctionName ? ' ' + s.sourceFunctionName : '');
      scripts[key] = (scripts[key] || 0) + s.duration;
    }
  }
  return { frames: entries.length, total, layout, scripts: Object.entries(scripts).sort((a, b) => b[1] - a[1]).slice(0, 4) };
`);

/** Schedule, then Today, scrolled `frames` frames each, `rounds` times; `running()` asked at the end. */
async function measure(page: Page, rounds: number, frames: number, running: () => Promise<boolean>): Promise<Measured> {
  const measured: Measured = { runs: { schedule: [], today: [] }, loads: [], lastedThrough: false };
  await page.evaluate(READS);
  const started = Date.now();
  for (let round = 0; round < rounds; round++) {
    for (const name of ['schedule', 'today'] as const) {
      const screen = SCREENS[name];
      try {
        await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: screen.nav }).click();
        await page.locator(screen.ready).first().waitFor({ timeout: 60_000 });
      } catch (error) {
        const shot = path.join(os.tmpdir(), `ui-load-${name}-${Date.now()}.png`);
        await page.screenshot({ path: shot });
        process.stderr.write(`  ui_load: ${name} did not open (screenshot ${shot})\n`);
        throw error;
      }
      await page.evaluate(LONG_FRAMES);
      measured.runs[name].push(await page.evaluate(scrollFrames(screen.list), { frames, step: screen.step }));
      const long = await page.evaluate(LONG_FRAMES);
      const scripts = long.scripts.map(([what, ms]) => `${what} ${ms.toFixed(0)}`).join('; ');
      process.stderr.write(`    ${name}: ${long.frames} long frames, ${long.total.toFixed(0)} ms, style+layout ${long.layout.toFixed(0)} ms; scripts: ${scripts}\n`);
      measured.loads.push(os.loadavg()[0]);
    }
  }
  measured.lastedThrough = await running();
  // Where the renderer's time may go: what the screens read meanwhile (each answer parsed on its thread).
  const seconds = (Date.now() - started) / 1000;
  const reads = Object.entries(await page.evaluate(READS))
    .sort((a, b) => b[1].kb - a[1].kb)
    .map(([method, r]) => `${method} ${r.reads} (${(r.kb / 1024).toFixed(1)} MB)`);
  process.stderr.write(`    reads in ${seconds.toFixed(0)} s: ${reads.join(', ')}\n`);
  return measured;
}

/**
 * Frames under load (issue 31, item 1): the Schedule and Today screens in Chromium (the web
 * host, the renderer built beside the bench) scrolled while the desk bootstraps a practice of
 * 100,000 records from a sandbox on its own thread, while "Check tomorrow" runs 800 checks
 * against it (quick: 4,000 records, 40 checks), and while a backup of the desk runs; then with nothing running, the
 * limit at this load. Each: three rounds of each screen, the median round's p95 and worst frame,
 * with the load average beside.
 */
export const uiLoad: Benchmark = async ({ quick }) => {
  const records = quick ? 4_000 : PRACTICE_RECORDS;
  const appointments = quick ? 50 : APPOINTMENTS;
  const started = Date.now();
  const note = (what: string) => process.stderr.write(`  ui_load: ${what} at ${((Date.now() - started) / 1000).toFixed(0)} s, load ${os.loadavg()[0].toFixed(2)}\n`);
  const rounds = 3;
  const frames = quick ? 60 : 180;
  const temp = makeTempDir('coverdesk-bench-ui-load-');
  const dataDir = path.join(temp.dir, 'host');
  const date = localTomorrow();
  let upstream: Upstream | undefined;
  let webHost: WebHost | undefined;
  let browser: Browser | undefined;
  try {
    const outDir = path.join(temp.dir, 'out');
    execFileSync(path.join(process.cwd(), 'node_modules', '.bin', 'electron-vite'), ['build', '--outDir', outDir], { stdio: 'ignore' });
    const seeding = createHost({ dataDir, localApi: false, hotFolder: false });
    seeding.database.sqlite.pragma('synchronous = OFF');
    try {
      await createDayOfVisits(seeding, date, appointments);
    } finally {
      await seeding.close();
    }
    const practiceFile = path.join(temp.dir, 'sandbox', 'sandbox.sqlite');
    seedPracticeFile(practiceFile, records);
    upstream = await startSandboxWorker(practiceFile);

    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const page = await (await browser.newContext({ viewport: VIEWPORT })).newPage();
    await page.addInitScript(LONG_FRAMES_PROBE);
    // The desk starts pulling the practice as soon as it starts: the page is open before.
    webHost = await startWebHost({ dataDir, askFirstManager: false, rendererDir: path.join(outDir, 'renderer'), localApi: false, hotFolder: false, upstream: { url: upstream.url, apiKey: upstream.apiKey } });
    const host = webHost.host;
    // Scrolling by script is no one at the desk: without this the desk locks itself during the batch.
    await host.bridge['idleLock.update']({ minutes: 60 });
    await page.goto(webHost.url);
    const bootstrapping = async () => (await host.bridge['sync.practice']({})).caught_up_at === null;
    note('seeded, the desk started');
    const scenarios: [string, Measured][] = [];
    scenarios.push([`bootstrap_${records}`, await measure(page, rounds, frames, bootstrapping)]);
    await until(async () => !(await bootstrapping()), 600_000, 'the bootstrap');
    await until(async () => {
      const { counts } = await host.bridge['sync.status']({});
      return counts.queued + counts.sending === 0;
    }, 600_000, 'the desk’s own records reaching the sandbox');

    note('bootstrapped and pushed');
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: SCREENS.schedule.nav }).click();
    await page.getByRole('button', { name: 'Check tomorrow' }).click();
    await page.getByTestId('batch-progress').waitFor();
    const batchRunning = async () => (await host.bridge['appointments.progress']({ date })).state !== 'finished';
    scenarios.push([`batch_${(await host.bridge['appointments.progress']({ date })).checks}`, await measure(page, rounds, frames, batchRunning)]);
    await until(async () => !(await batchRunning()), 600_000, 'the batch');

    note('batch finished');
    const backups = path.join(temp.dir, 'backups');
    fs.mkdirSync(backups);
    await host.bridge['backups.update']({ folder: backups });
    let backingUp = true;
    const backup = host.bridge['backups.run']({}).finally(() => {
      backingUp = false;
    });
    scenarios.push(['backup', await measure(page, rounds, frames, async () => backingUp)]);
    const status = await backup;
    if (!status.last_verified) throw new Error(`ui_load: the backup failed (${status.last_failure?.message ?? 'no reason'})`);

    note('backup finished');
    const idle = await measure(page, rounds, frames, async () => false);
    const results: BenchResult[] = [];
    for (const [label, measured] of scenarios) {
      const load = `load ${median(measured.loads).toFixed(2)}${measured.lastedThrough ? '' : ', ended before the last run'}`;
      for (const name of ['schedule', 'today'] as const) {
        const p95 = median(measured.runs[name].map((run) => percentile(run, 95)));
        const worst = median(measured.runs[name].map((run) => Math.max(...run)));
        const idleP95 = median(idle.runs[name].map((run) => percentile(run, 95)));
        const idleWorst = median(idle.runs[name].map((run) => Math.max(...run)));
        results.push(
          { name: `ui_load.${label}.${name}.frame_p95 (${load})`, value: round(p95), unit: 'ms', baseline: round(idleP95), ratio: round(idleP95 / p95, 3), goal: '< 20 ms', met: p95 < 20 },
          { name: `ui_load.${label}.${name}.frame_worst`, value: round(worst), unit: 'ms', baseline: round(idleWorst), ratio: round(idleWorst / worst, 3), goal: '< 50 ms', met: worst < 50 },
        );
      }
    }
    return results;
  } finally {
    await browser?.close();
    await webHost?.close();
    await upstream?.close();
    temp.cleanup();
  }
};
