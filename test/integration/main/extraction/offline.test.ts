import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCardSet, type GeneratedCard } from '../../../../scripts/generate-cards';
import { bundledLangPath, offlineTesseractOptions } from '@src/main/extraction/ocr-worker';
import { makeTempDir } from '@test/support/temp-dir';

const ROOT = path.resolve(__dirname, '../../../..');
const GUARD = path.join(__dirname, 'no-network.cjs');

let temp: ReturnType<typeof makeTempDir>;
let card: GeneratedCard;

beforeAll(async () => {
  temp = makeTempDir('coverdesk-offline-');
  [card] = await writeCardSet(temp.dir, { count: 1, seed: 7 });
}, 30_000);
afterAll(() => temp.cleanup());

/** Runs `node --require no-network.cjs …args` and returns what it did and what it tried. */
function guarded(args: string[]): { status: number | null; stdout: string; stderr: string; attempts: string[] } {
  const report = path.join(temp.dir, `attempts-${Math.random().toString(36).slice(2)}.txt`);
  const { NODE_OPTIONS: _ignored, ...env } = process.env;
  const run = spawnSync(process.execPath, ['--require', GUARD, ...args], {
    cwd: ROOT,
    env: { ...env, NO_NETWORK_REPORT: report },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const attempts = fs.existsSync(report) ? fs.readFileSync(report, 'utf8').trim().split('\n') : [];
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, attempts };
}

describe('on-device extraction is offline', () => {
  it('configures tesseract with the bundled language data, no cache and no CDN', () => {
    const options = offlineTesseractOptions();
    expect(options).toEqual({ langPath: bundledLangPath(), gzip: true, cacheMethod: 'none' });
    expect(fs.existsSync(path.join(options.langPath, 'eng.traineddata.gz'))).toBe(true);
    expect(options.langPath).toContain(path.join('node_modules', '@tesseract.js-data', 'eng', '4.0.0_best_int'));
  });

  it('the guard catches tesseract left to its defaults, fetching from its worker thread', () => {
    // Without our options tesseract.js downloads the language data from jsDelivr, inside
    // its worker thread. The guard must see that, or the next test would prove nothing.
    const script = `
      process.on('uncaughtException', (error) => { console.log('refused: ' + error.message); process.exit(0); });
      require('tesseract.js').createWorker('eng', 1, { cacheMethod: 'none' }).then(
        async (worker) => { await worker.terminate(); console.log('loaded'); process.exit(0); },
        (error) => { console.log('refused: ' + error); process.exit(0); },
      );`;
    const run = guarded(['-e', script]);
    expect(run.stdout).toContain('refused');
    expect(run.stdout).not.toContain('loaded');
    expect(run.attempts.some((a) => a.startsWith('worker thread: fetch https://cdn.jsdelivr.net'))).toBe(true);
  }, 60_000);

  it('`npm run extract` reads a card with every non-loopback connection refused, and tries none', () => {
    const run = guarded(['--require', require.resolve('tsx/cjs'), 'src/main/extraction/cli.ts', path.join(temp.dir, card.file)]);
    expect(run.attempts).toEqual([]);
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout) as { fields: Record<string, { value: string; confidence: number }>; text: string };
    expect(result.fields.member_id).toEqual({ value: card.truth.member_id, confidence: expect.any(Number) });
    expect(result.fields.payer_name.value).toBe(card.truth.payer_name);
    expect(result.text).toContain(card.truth.member_id);
  }, 60_000);

  it('`npm run extract` on a damaged photo prints the failure and its reason, and exits 1', () => {
    const damaged = path.join(temp.dir, 'damaged.jpg');
    fs.writeFileSync(damaged, card.bytes.subarray(0, 3000));
    const run = guarded(['--require', require.resolve('tsx/cjs'), 'src/main/extraction/cli.ts', damaged]);
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({ error: { reason: 'unreadable_image', message: expect.stringContaining('could not be read') } });
    expect(run.attempts).toEqual([]);
  }, 60_000);
});
