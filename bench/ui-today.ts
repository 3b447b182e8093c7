import { chromium, type Browser } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createHost } from '@src/main/host/create-host';
import { startWebHost, type WebHost } from '@src/main/web-host/start-web-host';
import type { CallContext } from '@src/shared/contract';
import { makeTempDir } from '@test/support/temp-dir';
import { closedPort, interleaved, median, pageFunction, startBareServer, percentile, scrollFrames, timeEach, type BenchResult, type Benchmark } from './harness';

const RECORDS = 10_000;
const DESK: CallContext = { source: 'dashboard' };
const ROW_HEIGHT = 64;
const VIEWPORT = { width: 1280, height: 800 };
/** Debian's Chromium, never a downloaded one (Playwright's download cannot run on these machines). */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/**
 * Runs in every page before its own scripts: notes the first animation frame that begins
 * after a Today row is in the document (the row has been painted by then), in ms since
 * navigation start.
 */
const FIRST_RENDER_PROBE = `
  window.__firstRender = null;
  (function watch() {
    requestAnimationFrame(() => {
      if (document.querySelector('.today-row')) requestAnimationFrame((t) => { window.__firstRender = t; });
      else watch();
    });
  })();
`;

const SCROLL_FRAMES = scrollFrames('.today-list');

/** `--profile`: what the page fetched and when (resource timing), and its long frames' scripts (LoAF), in ms from navigation start. */
const TIMELINE = pageFunction<void, unknown>(`
  const path = (url) => url.replace(location.origin, '').replace(/[?#].*$/, '');
  const nav = performance.getEntriesByType('navigation')[0];
  const fetched = performance.getEntriesByType('resource').map((e) => ({
    name: path(e.name), start: e.startTime, responseStart: e.responseStart, end: e.responseEnd, bytes: e.encodedBodySize,
  }));
  const frames = performance.getEntriesByType('long-animation-frame').map((f) => ({
    start: f.startTime, duration: f.duration, renderStart: f.renderStart, styleAndLayoutStart: f.styleAndLayoutStart,
    scripts: f.scripts.map((x) => ({ invoker: x.invoker, source: path(x.sourceURL || '') + ':' + (x.sourceFunctionName || ''), start: x.startTime, duration: x.duration, layout: x.forcedStyleAndLayoutDuration })),
  }));
  return { document: { responseStart: nav.responseStart, end: nav.responseEnd, domInteractive: nav.domInteractive }, fetched, frames, firstRender: window.__firstRender };
`);

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function over a CPU profile, biggest first. */
function selfTimes(profile: CpuProfile, top: number): string[] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byNode.get(id)!.callFrame;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url ? `${path.basename(frame.url)}:${frame.lineNumber + 1}` : ''}`.trim();
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]).slice(0, top).map(([key, ms]) => `${ms.toFixed(1).padStart(8)} ms  ${key}`);
}

/**
 * `--profile`: one cold load of a page with a CPU profile running and a long-frame observer,
 * printed as a timeline (what was fetched and when, long frames and their scripts) and the
 * functions that took the most time, so a figure says where its time went.
 */
async function profileLoad(browser: Browser, url: string, label: string): Promise<void> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    await page.addInitScript(FIRST_RENDER_PROBE);
    await page.addInitScript('new PerformanceObserver(() => undefined).observe({ type: "long-animation-frame", buffered: true });');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(url);
    await page.waitForFunction(FIRST_RENDER, undefined, { timeout: 60_000 });
    await page.waitForFunction(WHOLE_LIST, undefined, { timeout: 60_000 });
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
    const timeline = (await page.evaluate(TIMELINE)) as {
      document: { responseStart: number; end: number; domInteractive: number };
      fetched: { name: string; start: number; responseStart: number; end: number; bytes: number }[];
      frames: { start: number; duration: number; renderStart: number; styleAndLayoutStart: number; scripts: { invoker: string; source: string; start: number; duration: number; layout: number }[] }[];
      firstRender: number;
    };
    const ms = (n: number) => n.toFixed(0).padStart(6);
    const lines = [`  --- ${label}: first row painted at ${timeline.firstRender.toFixed(0)} ms`];
    lines.push(`  document     ${ms(0)} → ${ms(timeline.document.end)}  (interactive ${timeline.document.domInteractive.toFixed(0)})`);
    for (const f of timeline.fetched.filter((e) => e.start < timeline.firstRender)) {
      lines.push(`  fetch ${f.name.padEnd(40)} ${ms(f.start)} → first byte ${ms(f.responseStart)} → ${ms(f.end)}  ${(f.bytes / 1024).toFixed(0)} KB`);
    }
    for (const frame of timeline.frames.filter((f) => f.start < timeline.firstRender)) {
      lines.push(`  long frame ${ms(frame.start)} +${ms(frame.duration)} (render at ${frame.renderStart ? (frame.renderStart - frame.start).toFixed(0) : '-'}, layout at ${frame.styleAndLayoutStart ? (frame.styleAndLayoutStart - frame.start).toFixed(0) : '-'})`);
      for (const script of frame.scripts) lines.push(`      script ${ms(script.start)} +${ms(script.duration)}  ${script.invoker} ${script.source}${script.layout ? ` (forced layout ${script.layout.toFixed(0)})` : ''}`);
    }
    lines.push('  self time, top functions:', ...selfTimes(profile, 25).map((line) => `    ${line}`));
    process.stderr.write(`${lines.join('\n')}\n`);
  } finally {
    await context.close();
  }
}
const FIRST_RENDER = pageFunction<void, number | null>('return window.__firstRender;');
const WHOLE_LIST = pageFunction<void, boolean>('return document.querySelector(\'[aria-busy="true"]\') === null;');

/**
 * The raw limit's page: the same rows (the bytes the bridge answered) fetched from a bare
 * node:http server and drawn by a few lines of DOM code as a fixed-height virtual list
 * with the same row height, cells and overscan. No framework, no app.
 */
const BARE_PAGE = `<!doctype html><html><head><meta charset="utf-8"><style>
  body { margin: 0; font: 14px system-ui, sans-serif; display: flex; flex-direction: column; height: 100vh; }
  header { padding: 24px; } .today-list { flex: 1; overflow-y: auto; margin: 0 24px 24px; border: 1px solid #ccd; }
  .rows { position: relative; } .today-row { position: absolute; left: 0; right: 0; top: 0; height: ${ROW_HEIGHT}px; display: grid;
    grid-template-columns: 2fr 1fr 1fr 2fr 1fr 1fr; align-items: center; gap: 12px; padding: 0 16px; border-bottom: 1px solid #eef; }
  .today-row span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
</style></head><body><header><h1>Today</h1></header><div class="today-list"><div class="rows"></div></div><script>
  fetch('/rows.json').then((r) => r.json()).then(({ value }) => {
    const rows = value.data, list = document.querySelector('.today-list'), inner = list.firstElementChild;
    inner.style.height = rows.length * ${ROW_HEIGHT} + 'px';
    const draw = () => {
      const start = Math.max(0, Math.floor(list.scrollTop / ${ROW_HEIGHT}) - 6);
      const end = Math.min(rows.length, Math.ceil((list.scrollTop + list.clientHeight) / ${ROW_HEIGHT}) + 6);
      const out = [];
      for (let i = start; i < end; i++) {
        const r = rows[i], el = document.createElement('div');
        el.className = 'today-row';
        el.style.transform = 'translateY(' + i * ${ROW_HEIGHT} + 'px)';
        for (const text of [r.first_name + ' ' + r.last_name, r.date_of_birth, r.member_id || 'No card', r.payer_name || '—', r.eligibility, r.last_activity_at]) {
          const cell = document.createElement('span');
          cell.textContent = text;
          el.appendChild(cell);
        }
        out.push(el);
      }
      inner.replaceChildren(...out);
    };
    list.addEventListener('scroll', draw);
    draw();
  });
</script></body></html>`;


interface Load {
  firstRenderMs: number;
  /**
   * The page's main thread until the first row was painted (Chromium's own counters): all its
   * tasks, and the script among them. CPU work, which a shared machine's load stretches less
   * than the wall clock, so a change shows in them when the first render's time is lost in noise.
   */
  taskMs: number;
  scriptMs: number;
  frames: number[];
}

/** One cold load (fresh context: no cache, no storage) until the first row is painted; optionally a scroll run. */
async function load(browser: Browser, url: string, scroll?: { frames: number; step: number }): Promise<Load> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    await page.addInitScript(FIRST_RENDER_PROBE);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(url);
    const handle = await page.waitForFunction(FIRST_RENDER, undefined, { timeout: 60_000 });
    const firstRenderMs = (await handle.jsonValue()) as number;
    const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
    const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
    // Until the whole list is in (ours paints Today's first rows first, aria-busy while the rest
    // is on its way): scrolling is measured over it, and a load closed earlier left the host
    // shaping 10,000 rows into the next load's measurement, whichever page that was.
    await page.waitForFunction(WHOLE_LIST, undefined, { timeout: 60_000 });
    const frames = scroll ? await page.evaluate(SCROLL_FRAMES, scroll) : [];
    return { firstRenderMs, taskMs: metric('TaskDuration'), scriptMs: metric('ScriptDuration'), frames };
  } finally {
    await context.close();
  }
}

/**
 * Today in Chromium with 10,000 patients registered today (seeded through the host
 * service; a quarter with a card): time from navigation to the first row painted, and
 * animation-frame durations while scrolling the list fast (1.5 rows a frame). The raw
 * limit: the same rows from a bare server drawn by a bare virtual list in the same browser.
 */
export const uiToday: Benchmark = async ({ quick, profile }) => {
  // `UI_TODAY_AGAINST=<another build's renderer dir>`: that build is loaded too, in the same
  // rounds (its own host, on a copy of the same patients), so a change is compared with its
  // base under the same load, which on a shared machine moves both pages' times by a third.
  const against = process.env.UI_TODAY_AGAINST;
  const rounds = quick ? 2 : 7;
  const scroll = { frames: quick ? 180 : 600, step: ROW_HEIGHT * 1.5 };
  const temp = makeTempDir('coverdesk-bench-');
  const dataDir = path.join(temp.dir, 'host');
  let webHost: WebHost | undefined;
  let againstHost: WebHost | undefined;
  let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
  let browser: Browser | undefined;
  try {
    // The renderer as it is in this tree, built beside the benchmark (never over out/, which tests may be reading).
    const outDir = path.join(temp.dir, 'out');
    execFileSync(path.join(process.cwd(), 'node_modules', '.bin', 'electron-vite'), ['build', '--outDir', outDir], { stdio: 'ignore' });

    const seedStart = Date.now();
    const seeding = createHost({ dataDir, localApi: false, hotFolder: false });
    // Seeding is the fixture, not the figure: every record still goes through the service
    // (validation, record and outbox in one transaction), without waiting for the disk.
    seeding.database.sqlite.pragma('synchronous = OFF');
    try {
      for (let i = 0; i < RECORDS; i++) {
        const patient = await seeding.service.create('patients', { first_name: `First${i}`, last_name: `Last${i}`, date_of_birth: '1980-01-01' }, DESK);
        if (i % 4 === 0) await seeding.service.create('insurance_cards', { patient_id: patient.id, member_id: `XGH${String(i).padStart(9, '0')}` }, DESK);
      }
    } finally {
      await seeding.close();
    }
    process.stderr.write(`  seeded ${RECORDS} patients through the host service in ${((Date.now() - seedStart) / 1000).toFixed(1)} s\n`);

    const port = await closedPort();
    const serve = (data: string, rendererDir: string) =>
      startWebHost({
        dataDir: data,
        // The desk as before staff: the bench opens the page straight at Today.
        askFirstManager: false,
        rendererDir,
        localApi: false,
        hotFolder: false,
        upstream: { url: `http://127.0.0.1:${port}`, apiKey: 'bench-offline' },
      });
    if (against) {
      const againstData = path.join(temp.dir, 'against');
      fs.cpSync(dataDir, againstData, { recursive: true });
      againstHost = await serve(againstData, path.resolve(against));
    }
    webHost = await serve(dataDir, path.join(outDir, 'renderer'));
    const now = new Date();
    const since = new Date(now.getFullYear(), now.getMonth(), now.getDate()).toISOString();
    const host = webHost.host;
    const queryMs = await timeEach(3, 1, () => host.bridge['desk.today']({ since }));
    const firstRowsMs = await timeEach(3, 1, () => host.bridge['desk.today']({ since, first: 50 }));
    const today = await host.bridge['desk.today']({ since });
    if (today.data.length < RECORDS) throw new Error(`Today has ${today.data.length} rows, not ${RECORDS}`);
    const rowsJson = JSON.stringify({ ok: true, value: today });
    // Where first render's time goes: the host's read model, before any HTTP or browser work.
    process.stderr.write(`  desk.today in the host: ${median(queryMs).toFixed(0)} ms for ${today.data.length} rows, ${(rowsJson.length / 1e6).toFixed(1)} MB as JSON; its first 50 rows ${median(firstRowsMs).toFixed(0)} ms\n`);
    bare = await startBareServer(BARE_PAGE, '/rows.json', rowsJson);
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });

    const ours = webHost.url;
    const raw = bare.url;
    const b = browser;
    if (profile) {
      // Warm the host's statements and the disk cache as a round's warm-up does, then one profiled load of each.
      await load(b, ours);
      await profileLoad(b, ours, 'ours');
      await profileLoad(b, raw, 'bare page');
    }
    const firstRender = await interleaved(
      rounds,
      1,
      () => load(b, ours),
      () => load(b, raw),
    );
    // Scrolling: one warm-up, then ABBA runs (two of each in a full run).
    const scrollRuns = quick ? 1 : 2;
    const frames = await interleaved(
      scrollRuns,
      quick ? 0 : 1,
      async () => (await load(b, ours, scroll)).frames,
      async () => (await load(b, raw, scroll)).frames,
    );
    const oursFrames = frames.ours.flat();
    const rawFrames = frames.raw.flat();
    const value = median(firstRender.ours.map((l) => l.firstRenderMs));
    const baseline = median(firstRender.raw.map((l) => l.firstRenderMs));
    const oursTask = median(firstRender.ours.map((l) => l.taskMs));
    const rawTask = median(firstRender.raw.map((l) => l.taskMs));
    const p95 = percentile(oursFrames, 95);
    const rawP95 = percentile(rawFrames, 95);
    const results: BenchResult[] = [
      { name: 'ui_today.first_render', value, unit: 'ms', baseline, ratio: baseline / value, goal: '< 1000 ms', met: value < 1000 },
      // The same loads' main-thread work until the first row was painted (see `Load`).
      { name: 'ui_today.first_render_main_thread', value: oursTask, unit: 'ms', baseline: rawTask, ratio: rawTask / oursTask },
      { name: 'ui_today.first_render_script', value: median(firstRender.ours.map((l) => l.scriptMs)), unit: 'ms', baseline: median(firstRender.raw.map((l) => l.scriptMs)), ratio: null },
      { name: 'ui_today.scroll_frame_p95', value: p95, unit: 'ms', baseline: rawP95, ratio: rawP95 / p95, goal: '< 20 ms', met: p95 < 20 },
      { name: 'ui_today.scroll_frame_p50', value: median(oursFrames), unit: 'ms', baseline: median(rawFrames), ratio: median(rawFrames) / median(oursFrames) },
    ];
    if (againstHost) results.push(...(await compareAgainst(b, { ours, against: againstHost.url, raw }, rounds)));
    return results;
  } finally {
    await browser?.close();
    await bare?.close();
    await webHost?.close();
    await againstHost?.close();
    temp.cleanup();
  }
};

/**
 * `UI_TODAY_AGAINST`: this tree's page, the other build's and the bare page loaded in turn
 * (the order rotating each round), each round's ratio to the bare page kept: the medians of
 * those ratios, and of the main thread's work, for both builds.
 */
async function compareAgainst(browser: Browser, urls: { ours: string; against: string; raw: string }, rounds: number): Promise<BenchResult[]> {
  const sides = ['ours', 'against', 'raw'] as const;
  const loads: Record<(typeof sides)[number], Load[]> = { ours: [], against: [], raw: [] };
  for (const side of sides) await load(browser, urls[side]);
  for (let round = 0; round < rounds * 2; round++) {
    for (let i = 0; i < sides.length; i++) {
      const side = sides[(round + i) % sides.length];
      loads[side].push(await load(browser, urls[side]));
    }
  }
  const ratios = (side: 'ours' | 'against') => loads[side].map((l, i) => loads.raw[i].firstRenderMs / l.firstRenderMs);
  const task = (side: (typeof sides)[number]) => median(loads[side].map((l) => l.taskMs));
  process.stderr.write(
    `  against ${process.env.UI_TODAY_AGAINST}: ratio per round, ours ${ratios('ours').map((r) => r.toFixed(2)).join(' ')}; against ${ratios('against').map((r) => r.toFixed(2)).join(' ')}\n`,
  );
  return [
    { name: 'ui_today.ab.ours_ratio_median', value: median(ratios('ours')), unit: '', baseline: null, ratio: null },
    { name: 'ui_today.ab.against_ratio_median', value: median(ratios('against')), unit: '', baseline: null, ratio: null },
    { name: 'ui_today.ab.ours_first_render', value: median(loads.ours.map((l) => l.firstRenderMs)), unit: 'ms', baseline: median(loads.raw.map((l) => l.firstRenderMs)), ratio: null },
    { name: 'ui_today.ab.against_first_render', value: median(loads.against.map((l) => l.firstRenderMs)), unit: 'ms', baseline: median(loads.raw.map((l) => l.firstRenderMs)), ratio: null },
    { name: 'ui_today.ab.ours_main_thread', value: task('ours'), unit: 'ms', baseline: task('raw'), ratio: task('raw') / task('ours') },
    { name: 'ui_today.ab.against_main_thread', value: task('against'), unit: 'ms', baseline: task('raw'), ratio: task('raw') / task('against') },
  ];
}
