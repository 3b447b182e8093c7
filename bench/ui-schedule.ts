import { chromium, type Browser } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { createHost } from '@src/main/host/create-host';
import { startWebHost, type WebHost } from '@src/main/web-host/start-web-host';
import { createDayOfVisits } from '@test/support/batch/day-of-visits';
import { makeTempDir } from '@test/support/temp-dir';
import { percentile, round, scrollFrames, type Benchmark } from './harness';

const APPOINTMENTS = 1_000;
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

const SCROLL_FRAMES = scrollFrames('.main');

function localTomorrow(): string {
  const now = new Date();
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * The Schedule screen in Chromium while "Check tomorrow" runs for 1,000 appointments against
 * the embedded sandbox: animation-frame durations while the worklist is scrolled and the
 * host's progress events re-render it. Goal: p95 under 50 ms.
 */
export const uiSchedule: Benchmark = async ({ quick }) => {
  const count = quick ? 200 : APPOINTMENTS;
  const temp = makeTempDir('coverdesk-bench-ui-schedule-');
  const dataDir = path.join(temp.dir, 'host');
  let webHost: WebHost | undefined;
  let browser: Browser | undefined;
  try {
    const outDir = path.join(temp.dir, 'out');
    execFileSync(path.join(process.cwd(), 'node_modules', '.bin', 'electron-vite'), ['build', '--outDir', outDir], { stdio: 'ignore' });
    const date = localTomorrow();
    const seeding = createHost({ dataDir, localApi: false, hotFolder: false });
    seeding.database.sqlite.pragma('synchronous = OFF');
    try {
      await createDayOfVisits(seeding, date, count);
    } finally {
      await seeding.close();
    }
    webHost = await startWebHost({ dataDir, askFirstManager: false, rendererDir: path.join(outDir, 'renderer'), localApi: false, hotFolder: false, sync: { sandboxDelayMs: 200 } });
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(webHost.url);
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: /^Schedule/ }).click();
    await page.locator('tr[data-status]').first().waitFor({ timeout: 60_000 });
    // The patients and cards reach the sandbox first, so the window measured is the batch's own checks and answers.
    const host = webHost.host;
    for (let waited = 0; waited < 180_000; waited += 250) {
      const { counts } = await host.bridge['sync.status']({});
      if (counts.queued + counts.sending === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await page.getByRole('button', { name: 'Check tomorrow' }).click();
    await page.getByTestId('batch-progress').waitFor();
    const frames = await page.evaluate(SCROLL_FRAMES, { frames: quick ? 180 : 600, step: 24 });
    const progress = await host.bridge['appointments.progress']({ date });
    return [
      { name: `ui_schedule.batch_${count}.frame_p95`, value: round(percentile(frames, 95)), unit: 'ms', baseline: null, ratio: null, goal: '< 50 ms', met: percentile(frames, 95) < 50 },
      { name: `ui_schedule.batch_${count}.frame_max`, value: round(Math.max(...frames)), unit: 'ms', baseline: null, ratio: null },
      { name: `ui_schedule.batch_${count}.answered_while_measured`, value: progress.done - (progress.total - progress.checks), unit: `of ${progress.checks} checks`, baseline: null, ratio: null },
    ];
  } finally {
    await browser?.close();
    await webHost?.close();
    temp.cleanup();
  }
};
