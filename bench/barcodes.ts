import { generateCards } from '../scripts/generate-cards';
import { generateBarcodeCards } from '../scripts/generate-barcode-cards';
import { decodeBarcodes } from '@src/main/extraction/barcodes';
import { createExtractionEngine } from '@src/main/extraction/extraction-engine';
import { prepareCard } from '@src/main/extraction/prepare-image';
import { directoryEntities } from '@src/shared/payers/payer-directory';
import { median, percentile, type BenchResult, type Benchmark } from './harness';

/**
 * Barcodes (issue 27): the time to find and decode a card photo's barcode, per image, after
 * the card reader has prepared it (the preparation is the OCR's own, shared); and what the
 * barcode look adds to reading a card without one: the whole extraction with it against the
 * same engine without it (`barcodes: false`), card by card, interleaved.
 */
export const barcodes: Benchmark = async ({ quick }) => {
  const withCodes = (await generateBarcodeCards(7)).filter((c) => c.truth.kind !== 'none');
  const rounds = quick ? 1 : 3;
  const decode: number[] = [];
  await decodeBarcodes([]);
  for (let round = 0; round < rounds; round++) {
    for (const card of withCodes) {
      const bytes = new Uint8Array(card.bytes);
      const sides = await prepareCard(bytes);
      const started = process.hrtime.bigint();
      const found = await decodeBarcodes(sides, [bytes]);
      decode.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (found.length === 0) throw new Error(`no barcode found on ${card.file}`);
    }
  }

  const plain = await generateCards({ count: quick ? 8 : 24, seed: 11 });
  const context = { entities: directoryEntities() };
  const ours = createExtractionEngine();
  const ocrOnly = createExtractionEngine({ barcodes: false });
  const withLook: number[] = [];
  const without: number[] = [];
  try {
    await ours.warmUp();
    await ocrOnly.warmUp();
    for (const [i, card] of plain.entries()) {
      const images = [{ bytes: new Uint8Array(card.bytes), content_type: card.content_type }];
      let started = process.hrtime.bigint();
      await ours.extract(images, context).catch(() => undefined);
      if (i > 1) withLook.push(Number(process.hrtime.bigint() - started) / 1e6);
      started = process.hrtime.bigint();
      await ocrOnly.extract(images, context).catch(() => undefined);
      if (i > 1) without.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  } finally {
    await ours.close();
    await ocrOnly.close();
  }
  const p50 = median(decode);
  const results: BenchResult[] = [
    { name: 'barcodes.decode.p50', value: p50, unit: 'ms', baseline: null, ratio: null, goal: '< 150 ms', met: p50 < 150 },
    { name: 'barcodes.decode.p90', value: percentile(decode, 90), unit: 'ms', baseline: null, ratio: null },
    { name: 'barcodes.card_without_one.p50', value: median(withLook), unit: 'ms', baseline: median(without), ratio: median(without) / median(withLook), goal: 'no slower OCR (ratio ≥ 0.95)', met: median(without) / median(withLook) >= 0.95 },
  ];
  return results;
};
