import { createWorker } from 'tesseract.js';
import { generateCards } from '../scripts/generate-cards';
import { createExtractionEngine } from '@src/main/extraction/extraction-engine';
import { offlineTesseractOptions } from '@src/main/extraction/ocr-worker';
import { directoryEntities } from '@src/shared/payers/payer-directory';
import { median, percentile, type BenchResult, type Benchmark } from './harness';

/**
 * On-device card extraction, per card image, after warm-up: our whole path (finding the
 * card in the photo, image preparation, quality gate, OCR passes, field re-reads, parsing,
 * payer matching against the directory) against the raw limit, a bare
 * tesseract.js recognize of the same image with the same offline language data and no
 * preparation or parsing, with the model the engine reads with (`4.0.0_best_int`). And the time to start the OCR workers, against a bare
 * `createWorker` with the same options.
 */
export const extraction: Benchmark = async ({ quick }) => {
  const count = quick ? 12 : 40;
  const warmup = 3;
  const starts = quick ? 2 : 4;
  // Half flat cards, half photos the card has to be found in first (on a desk in
  // perspective, small in a video frame, both sides side by side), against the payer
  // directory the desk ships with.
  const classic = await generateCards({ count: Math.ceil((count + warmup) / 2), seed: 7 });
  const found = await generateCards({ count: Math.floor((count + warmup) / 2), seed: 7, styles: 'held-out' });
  const cards = classic.flatMap((card, i) => (found[i] ? [card, found[i]] : [card]));
  const context = { entities: directoryEntities() };

  const ourStarts: number[] = [];
  const rawStarts: number[] = [];
  for (let i = 0; i < starts; i++) {
    const engine = createExtractionEngine();
    ourStarts.push(await engine.warmUp());
    await engine.close();
    const started = process.hrtime.bigint();
    const bare = await createWorker('eng', 1, offlineTesseractOptions());
    rawStarts.push(Number(process.hrtime.bigint() - started) / 1e6);
    await bare.terminate();
  }

  // COVERDESK_BENCH_SPLIT=on|off: the engine's splitSides (each side read as two halves on
  // the two workers) forced either way, to time both on the same machine; unset, the default.
  const split = process.env.COVERDESK_BENCH_SPLIT;
  const engine = createExtractionEngine({
    ...(split === 'on' || split === 'off' ? { splitSides: split === 'on' } : {}),
  });
  const bare = await createWorker('eng', 1, offlineTesseractOptions());
  try {
    await engine.warmUp();
    const ours: number[] = [];
    const oursCpu: number[] = [];
    const raw: number[] = [];
    for (const [i, card] of cards.entries()) {
      const measured = i >= warmup;
      // Interleaved, card by card, so machine noise hits both alike.
      let cpu = process.cpuUsage();
      let started = process.hrtime.bigint();
      await engine.extract([{ bytes: new Uint8Array(card.bytes), content_type: card.content_type }], context);
      if (measured) {
        ours.push(Number(process.hrtime.bigint() - started) / 1e6);
        const used = process.cpuUsage(cpu);
        oursCpu.push((used.user + used.system) / 1000);
      }
      cpu = process.cpuUsage();
      started = process.hrtime.bigint();
      await bare.recognize(card.bytes);
      if (measured) raw.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    const p50 = median(ours);
    const results: BenchResult[] = [
      { name: 'extraction.card.p50', value: p50, unit: 'ms', baseline: median(raw), ratio: median(raw) / p50, goal: '< 500 ms', met: p50 < 500 },
      { name: 'extraction.card.p90', value: percentile(ours, 90), unit: 'ms', baseline: percentile(raw, 90), ratio: percentile(raw, 90) / percentile(ours, 90), goal: '< 1000 ms', met: percentile(ours, 90) < 1000 },
      // Process CPU (main thread, OCR worker thread and sharp's threads): what the card costs a 2-core desk.
      { name: 'extraction.card.cpu_p50', value: median(oursCpu), unit: 'ms', baseline: null, ratio: null },
      { name: 'extraction.worker_start', value: median(ourStarts), unit: 'ms', baseline: median(rawStarts), ratio: median(rawStarts) / median(ourStarts) },
    ];
    return results;
  } finally {
    await engine.close();
    await bare.terminate();
  }
};
