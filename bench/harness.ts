import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';

/** What every benchmark reports: one JSON line each, plus a row in the table. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** Ours against the raw limit measured in the same run, higher is better (1 = as fast). */
  ratio: number | null;
  /** The raw limit's figure, in the same unit. */
  baseline: number | null;
  goal?: string;
  met?: boolean;
}

export interface BenchOptions {
  quick: boolean;
  /** `--profile`: benchmarks that can say where their time goes print it (to stderr) beside the figures. */
  profile?: boolean;
}

export type Benchmark = (options: BenchOptions) => Promise<BenchResult[]>;

export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export const median = (samples: number[]) => percentile(samples, 50);

/** Runs `fn` `warmup` times unmeasured, then `iterations` times; returns each duration in ms. */
export async function timeEach(iterations: number, warmup: number, fn: (i: number) => unknown): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    await fn(i);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples;
}

/**
 * Runs `ours` and `raw` in alternating rounds, after `warmup` unmeasured rounds of each,
 * in ABBA order so drift and the neighbours' noise on a shared machine hit both alike.
 * Returns each measured round's figure, per side.
 */
export async function interleaved<T>(rounds: number, warmup: number, ours: () => Promise<T>, raw: () => Promise<T>): Promise<{ ours: T[]; raw: T[] }> {
  for (let i = 0; i < warmup; i++) {
    await ours();
    await raw();
  }
  const result = { ours: [] as T[], raw: [] as T[] };
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 === 0 ? (['ours', 'raw'] as const) : (['raw', 'ours'] as const);
    for (const side of order) result[side].push(await (side === 'ours' ? ours() : raw()));
  }
  return result;
}

export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function printResults(results: BenchResult[]): void {
  for (const r of results) {
    console.log(JSON.stringify({ name: r.name, value: round(r.value, 3), unit: r.unit, ratio: r.ratio === null ? null : round(r.ratio, 3), baseline: r.baseline === null ? null : round(r.baseline, 3) }));
  }
}

export function printTable(results: BenchResult[]): void {
  const rows = results.map((r) => [
    r.name,
    `${round(r.value)} ${r.unit}`,
    r.baseline === null ? '' : `${round(r.baseline)} ${r.unit}`,
    r.ratio === null ? '' : round(r.ratio, 2).toFixed(2),
    r.goal ? `${r.goal} ${r.met ? '✓' : '✗'}` : '',
  ]);
  const header = ['benchmark', 'value', 'raw limit', 'ratio', 'goal'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

/**
 * A TypeScript file on a worker thread (its own event loop, so the other side of a
 * benchmark is not measured with ours). tsx does not load a `.ts` worker on Node 20 by
 * itself, so the worker registers tsx's CommonJS hook before requiring the file.
 */
export function startTsWorker(file: string, workerData?: unknown): Worker {
  return new Worker(`require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(file)});`, { eval: true, workerData });
}

/**
 * A loopback port nothing listens on. As a host's upstream it keeps the desk offline, so
 * no sync runs beside what a benchmark measures (the worker only probes, seconds apart).
 */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The raw limit's server for a UI benchmark: a bare node:http server answering `data` (JSON)
 * at `dataPath` and `page` (HTML) at every other path. Nothing else: no app, no framework.
 */
export async function startBareServer(page: string, dataPath: string, data: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const [body, type] = request.url === dataPath ? [data, 'application/json'] : [page, 'text/html; charset=utf-8'];
    response.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * In-page code as text, made into functions: Playwright sends a function's text over CDP,
 * which the app's CSP allows (it forbids eval), and text keeps tsx's helpers out of it.
 */
export function pageFunction<A, R>(body: string): (arg: A) => R {
  return new Function('arg', body) as (arg: A) => R;
}

/** Scrolls the element `selector` names by `step` px every frame (turning at the ends); resolves each frame's duration. */
export function scrollFrames(selector: string): (arg: { frames: number; step: number }) => Promise<number[]> {
  return pageFunction(`
  const { frames, step } = arg;
  return new Promise((resolve) => {
    const list = document.querySelector(${JSON.stringify(selector)});
    const deltas = [];
    let last = 0, direction = 1;
    const frame = (t) => {
      if (last) deltas.push(t - last);
      last = t;
      if (deltas.length >= frames) return resolve(deltas);
      const next = list.scrollTop + step * direction;
      if (next > list.scrollHeight - list.clientHeight || next < 0) direction = -direction;
      list.scrollTop += step * direction;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
`);
}
