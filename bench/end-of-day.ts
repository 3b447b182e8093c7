import { chromium, type Browser } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { createHost } from '@src/main/host/create-host';
import { startWebHost, type WebHost } from '@src/main/web-host/start-web-host';
import { localDate } from '@src/main/appointments/appointment-import';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import { buildActiveBenefits } from '@src/main/sandbox/benefits-builder';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { endOfDayCsv } from '@src/shared/collections';
import type { EndOfDay } from '@src/shared/bridge/collection-contract';
import { createDayOfVisits } from '@test/support/batch/day-of-visits';
import { makeTempDir } from '@test/support/temp-dir';
import { CHROMIUM_ARGS } from './ui-today';
import { closedPort, interleaved, median, pageFunction, startBareServer, round, timeEach, type Benchmark } from './harness';

const VISITS = 1_000;

/**
 * The end-of-day report (issue 30, item 4) for a day of 1,000 visits: every card with a
 * payer answered by a successful check (the sandbox's benefits), an estimate worked out for
 * each visit without a payment, 600 payments across the three methods, 50 of them voided, and
 * 100 visits marked declined or waived. Timed as the desk asks for it (the bridge call,
 * input and answer validated) and the CSV made from it; then on screen, in Chromium: from the
 * keystroke that opens End of day (Alt+9) until its 1,000 visit rows are painted (the issue's
 * "renders in < 1 s"). The raw limit of that: the same report's bytes fetched from a bare
 * node:http server and drawn as a plain table by a few lines of DOM code, in the same browser.
 */
export const endOfDay: Benchmark = async ({ quick, profile }) => {
  const temp = makeTempDir('coverdesk-bench-eod-');
  const host = createHost({ dataDir: temp.dir, localApi: false, hotFolder: false });
  let closed = false;
  try {
    const date = localDate(host.clock.now());
    const visits = await createDayOfVisits(host, date, VISITS);
    await host.bridge['feeSchedule.import']({ text: 'Visit type,Payer,Allowed\nOffice Visit,default,125\nFollow up,default,90\n' });
    const insert = host.database.sqlite.prepare(
      `INSERT INTO electronic_eligibility_checks (id, insurance_card_id, provider_id, clearinghouse_entity_id, provider_npi, patient_first_name, patient_last_name,
        patient_date_of_birth, service_type, status, source, benefits, created_at, finished_at) VALUES (?, ?, ?, ?, ?, 'Pat', 'Ient', '1980-01-01', 'professional_physician_visit_office', 'success', 'dashboard', ?, ?, ?)`,
    );
    const at = host.clock.now().toISOString();
    host.database.sqlite.transaction(() => {
      visits.forEach((visit, i) => {
        if (!visit.card_id) return;
        const benefits = JSON.stringify(buildActiveBenefits(`W${100000 + i}`, 'professional_physician_visit_office'));
        insert.run(host.ids.next('eec'), visit.card_id, SEED_PROVIDERS[0].id, SEED_CLEARINGHOUSE_ENTITIES[0].id, SEED_PROVIDERS[0].npi, benefits, at, at);
      });
    })();
    const methods = [{ method: 'cash' }, { method: 'check', check_number: '1001' }, { method: 'card', card_reference: 'TRM-1' }] as const;
    for (let i = 0; i < 600; i++) {
      const entry = await host.bridge['collections.record']({ kind: 'payment', appointment_id: visits[i].appointment_id, amount_cents: 2000 + i, taken_by: i % 2 ? 'JD' : 'MK', ...methods[i % 3] });
      if (i % 12 === 0) await host.bridge['collections.void']({ id: entry.id, taken_by: 'JD' });
    }
    for (let i = 600; i < 700; i++) await host.bridge['collections.record']({ kind: i % 2 ? 'declined' : 'waived', appointment_id: visits[i].appointment_id, taken_by: 'MK' });

    let report: EndOfDay | undefined;
    const runs = quick ? 5 : 15;
    const build = await timeEach(runs, 2, async () => {
      const answer = await dispatchBridgeCall(host.bridge, 'collections.endOfDay', { date });
      if (!answer.ok) throw new Error(answer.error.message);
      report = answer.value as EndOfDay;
    });
    const csv = await timeEach(runs, 2, () => endOfDayCsv(report!));
    const value = round(median(build));
    if (report!.visits.length !== VISITS) throw new Error(`the report has ${report!.visits.length} visits, not ${VISITS}`);
    await host.close();
    closed = true;

    const screen = await onScreen(temp.dir, report!, quick ? 3 : 9, profile === true);
    return [
      { name: 'end_of_day.report_1000_visits', value, unit: 'ms', baseline: null, ratio: null, goal: '< 1 s', met: value < 1000 },
      { name: 'end_of_day.csv_1000_visits', value: round(median(csv)), unit: 'ms', baseline: null, ratio: null },
      {
        name: 'end_of_day.screen_1000_visits',
        value: round(median(screen.ours)),
        unit: 'ms',
        baseline: round(median(screen.raw)),
        ratio: round(median(screen.raw) / median(screen.ours)),
        goal: '< 1 s',
        met: median(screen.ours) < 1000,
      },
    ];
  } finally {
    if (!closed) await host.close();
    temp.cleanup();
  }
};

const VISIT_ROW = '[data-testid="eod-visit"]';

/**
 * In the page: starts the clock, opens the report (Alt+9 in the app; `__show()` on the bare
 * page), and resolves the time to the first animation frame that begins after `rows` visit
 * rows are in the document (painted by then), in ms.
 */
const OPEN_AND_TIME = pageFunction<{ rows: number; bare: boolean }, Promise<number>>(`
  const { rows, bare } = arg;
  const t0 = performance.now();
  if (bare) window.__show();
  else window.dispatchEvent(new KeyboardEvent('keydown', { key: '9', code: 'Digit9', altKey: true, bubbles: true }));
  return new Promise((resolve) => {
    const watch = () => requestAnimationFrame(() => {
      if (document.querySelectorAll(${JSON.stringify(VISIT_ROW)}).length >= rows) requestAnimationFrame((t) => resolve(t - t0));
      else watch();
    });
    watch();
  });
`);

/** The raw limit's page: the report fetched and drawn as one table with the app's cells; nothing else. */
const BARE_PAGE = `<!doctype html><html><head><meta charset="utf-8"><style>
  body { margin: 0; font: 14px system-ui, sans-serif; } table { border-collapse: collapse; margin: 24px; } td { padding: 6px 12px; border-bottom: 1px solid #eef; }
</style></head><body><h1>End of day</h1><table><tbody></tbody></table><script>
  const money = (c) => '$' + (c / 100).toFixed(2);
  window.__show = () => fetch('/report.json').then((r) => r.json()).then(({ visits }) => {
    const body = document.querySelector('tbody'), out = [];
    for (const v of visits) {
      const tr = document.createElement('tr');
      tr.dataset.testid = 'eod-visit';
      for (const text of [v.time || '—', v.name, v.visit_type || '—', v.estimate ? money(v.estimate.min_cents) + '–' + money(v.estimate.max_cents) : '—', money(v.collected_cents), v.status]) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.appendChild(td);
      }
      out.push(tr);
    }
    body.replaceChildren(...out);
  });
</script></body></html>`;


/**
 * The desk's own page on the seeded data folder (the web host, offline: the figure is the
 * screen's, not the sync's) against the bare page, each opened cold in a fresh browser context
 * and then timed from the keystroke, rounds interleaved.
 */
/** `profile`: each opening's script, layout and style time from Chromium's counters, on stderr. */
async function onScreen(tempDir: string, report: EndOfDay, rounds: number, profile: boolean): Promise<{ ours: number[]; raw: number[] }> {
  let webHost: WebHost | undefined;
  let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
  let browser: Browser | undefined;
  try {
    // The renderer as it is in this tree, built beside the benchmark (never over out/, which tests may be reading).
    const outDir = path.join(tempDir, 'out');
    execFileSync(path.join(process.cwd(), 'node_modules', '.bin', 'electron-vite'), ['build', '--outDir', outDir], { stdio: 'ignore' });
    webHost = await startWebHost({
      dataDir: tempDir,
      // The desk as before staff: the bench opens the page straight at Today.
      askFirstManager: false,
      rendererDir: path.join(outDir, 'renderer'),
      localApi: false,
      hotFolder: false,
      upstream: { url: `http://127.0.0.1:${await closedPort()}`, apiKey: 'bench-offline' },
    });
    bare = await startBareServer(BARE_PAGE, '/report.json', JSON.stringify(report));
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const b = browser;
    const time = async (url: string, bareRun: boolean, ready: string) => {
      const context = await b.newContext({ viewport: { width: 1366, height: 820 } });
      try {
        const page = await context.newPage();
        await page.goto(url);
        await page.waitForSelector(ready, { timeout: 60_000 });
        const cdp = await context.newCDPSession(page);
        await cdp.send('Performance.enable');
        const m0 = (await cdp.send('Performance.getMetrics')).metrics;
        const v = await page.evaluate(OPEN_AND_TIME, { rows: report.visits.length, bare: bareRun });
        const m1 = (await cdp.send('Performance.getMetrics')).metrics;
        const d = (n: string) => Math.round(((m1.find((m) => m.name === n)?.value ?? 0) - (m0.find((m) => m.name === n)?.value ?? 0)) * 1000);
        if (profile) process.stderr.write(`  end_of_day ${bareRun ? 'bare' : 'ours'}: total ${Math.round(v)} script ${d('ScriptDuration')} layout ${d('LayoutDuration')} style ${d('RecalcStyleDuration')} task ${d('TaskDuration')} nodes ${(m1.find((m) => m.name === 'Nodes')?.value)}\n`);
        return v;
      } finally {
        await context.close();
      }
    };
    const ours = webHost.url;
    const raw = bare.url;
    return await interleaved(
      rounds,
      1,
      () => time(ours, false, 'nav'),
      () => time(raw, true, 'h1'),
    );
  } finally {
    await browser?.close();
    await bare?.close();
    await webHost?.close();
  }
}
