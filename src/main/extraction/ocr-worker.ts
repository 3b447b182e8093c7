import path from 'node:path';
import { createWorker, type Page, type Worker } from 'tesseract.js';

export interface OcrBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface OcrWord {
  text: string;
  /** Tesseract's confidence, 0..100. */
  confidence: number;
  bbox: OcrBox;
}

export interface OcrLine {
  text: string;
  confidence: number;
  bbox: OcrBox;
  words: OcrWord[];
}

/** What the parser needs from one recognised image: its text and its words with positions. */
export interface OcrPage {
  text: string;
  lines: OcrLine[];
  width: number;
  height: number;
}

export interface OcrWorkerOptions {
  /** The folder holding `eng.traineddata.gz`; defaults to the bundled `@tesseract.js-data/eng`. */
  langPath?: string;
  /** A start or a recognition that takes longer is abandoned and the worker restarted. */
  timeoutMs?: number;
}

export interface OcrWorker {
  /** Starts the worker now (it is otherwise started by the first recognition); resolves in ms taken. */
  start(): Promise<number>;
  /** `params`: tesseract variables for this recognition only (e.g. `thresholding_method`). */
  recognize(image: Buffer, size: { width: number; height: number }, params?: Record<string, string>): Promise<OcrPage>;
  close(): Promise<void>;
}

/**
 * The pages of a side's two halves (the lower one starting at row `cut` of the side) as the
 * one page of the whole side: the lower half's words and lines moved down by `cut`, so the
 * parser sees the page as if it had been read whole, top half first. A half read with rows
 * added below it (`halvesForOcr`'s padding) is given with its own height: lines starting
 * at or below it were read in the padding, not on the side, and are dropped.
 */
export function joinPages(top: OcrPage, bottom: OcrPage, cut: number, size: { width: number; height: number }): OcrPage {
  const down = (b: OcrBox): OcrBox => ({ x0: b.x0, x1: b.x1, y0: b.y0 + cut, y1: b.y1 + cut });
  const [upper, lower] = [top, bottom].map(onPage);
  const moved = lower.lines.map((l) => ({ ...l, bbox: down(l.bbox), words: l.words.map((w) => ({ ...w, bbox: down(w.bbox) })) }));
  const text = [upper.text, lower.text].filter((t) => t.trim() !== '').join(upper.text.endsWith('\n') ? '' : '\n');
  return { text, lines: [...upper.lines, ...moved], width: size.width, height: size.height };
}

/** A page without the lines that start below its height; its text then from the lines kept. */
function onPage(page: OcrPage): OcrPage {
  const lines = page.lines.filter((l) => l.bbox.y0 < page.height);
  if (lines.length === page.lines.length) return page;
  return { ...page, lines, text: lines.map((l) => `${l.text}\n`).join('') };
}

/**
 * A file of a package electron-builder unpacks (see electron-builder.yml): in the
 * packaged app, worker threads and tesseract's own file reads need the real file under
 * `app.asar.unpacked`, not its name inside the archive. Elsewhere the path is unchanged.
 */
export function unpacked(file: string): string {
  return file.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

/** The language data shipped in node_modules: nothing is fetched from a CDN. */
export function bundledLangPath(): string {
  return unpacked(path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int'));
}

/**
 * The options that keep tesseract.js offline: a local `langPath` (without one it downloads
 * from jsDelivr), gzip for the `.gz` file there, and no cache (the cache would write the
 * language data into the working directory).
 */
export function offlineTesseractOptions(langPath = bundledLangPath()) {
  return { langPath, gzip: true, cacheMethod: 'none' } as const;
}

/** tesseract.js's worker-thread script, by its real path (see `unpacked`). */
function workerScript(): string {
  return unpacked(path.join(path.dirname(require.resolve('tesseract.js/package.json')), 'src', 'worker-script', 'node', 'index.js'));
}

class OcrTimeout extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new OcrTimeout(`${what} took longer than ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * One tesseract.js worker (a worker thread, so recognition never blocks the main process),
 * started on first use, kept warm and reused for every card, one recognition at a time.
 */
export function createOcrWorker(options: OcrWorkerOptions = {}): OcrWorker {
  const timeoutMs = options.timeoutMs ?? 60_000;
  let worker: Promise<Worker> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;

  function ensure(): Promise<Worker> {
    if (closed) return Promise.reject(new Error('The OCR worker is closed.'));
    if (!worker) {
      // LSTM only (oem 1): the bundled best_int data has no legacy model. Without an
      // errorHandler, tesseract.js throws a failed job's error from a message listener,
      // where nothing can catch it and the whole process dies; the job's own promise
      // rejects either way, so that is where errors are handled.
      const creating = createWorker('eng', 1, { ...offlineTesseractOptions(options.langPath), workerPath: workerScript(), errorHandler: () => {} }).then(async (w) => {
        // Cards are sparse text in blocks and columns, not a page of prose (measured: sparse
        // mode reads the generated set better than automatic layout). Tesseract's own
        // diagnostics ("Estimating resolution…") would go to stderr: into the void instead.
        await w.setParameters({ tessedit_pageseg_mode: '11' as never, preserve_interword_spaces: '1', debug_file: '/dev/null' });
        return w;
      });
      const current = withTimeout(creating, timeoutMs, 'Starting the OCR worker');
      worker = current;
      current.catch(() => {
        // A failed start is not kept: the next card tries again. A start that only timed
        // out is stopped when it does finish.
        if (worker === current) worker = undefined;
        creating.then((w) => w.terminate()).catch(() => {});
      });
    }
    return worker;
  }

  async function restart(): Promise<void> {
    const current = worker;
    worker = undefined;
    if (current) await current.then((w) => w.terminate()).catch(() => {});
  }

  function serial<T>(job: () => Promise<T>): Promise<T> {
    const run = queue.then(job, job);
    queue = run.catch(() => {});
    return run;
  }

  return {
    async start() {
      const started = Date.now();
      await ensure();
      return Date.now() - started;
    },
    recognize(image, size, params = {}) {
      return serial(async () => {
        const w = await ensure();
        try {
          // tesseract.js sets these variables for this job and restores them after it.
          const result = await withTimeout(w.recognize(image, params as Record<string, never>, { text: true, blocks: true }), timeoutMs, 'Recognition');
          return toPage(result.data, size);
        } catch (error) {
          // A worker that timed out or crashed may be wedged: the next card gets a fresh one.
          await restart();
          throw error;
        }
      });
    },
    async close() {
      closed = true;
      await queue;
      await restart();
    },
  };
}

function toPage(data: Page, size: { width: number; height: number }): OcrPage {
  const lines: OcrLine[] = [];
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const words = line.words
          .filter((w) => w.text.trim() !== '')
          .map((w) => ({ text: w.text.trim(), confidence: w.confidence, bbox: { ...w.bbox } }));
        if (words.length > 0) lines.push({ text: line.text.trim(), confidence: line.confidence, bbox: { ...line.bbox }, words });
      }
    }
  }
  return { text: data.text, lines, width: size.width, height: size.height };
}
