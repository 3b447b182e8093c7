import fs from 'node:fs';
import { prepareZXingModule, readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';
import type { GrayImage } from './find-card';
import { toPgm } from './prepare-image';

export interface DecodedBarcode {
  /** zxing's name: "QRCode", "PDF417", "DataMatrix", "Aztec". */
  format: string;
  /** The payload exactly as encoded (control characters kept: the AAMVA header has three). */
  text: string;
}

/**
 * The 2D symbologies cards carry: QR (digital cards), PDF417 (licences, plan cards), Data
 * Matrix and Aztec. `tryRotate` has zxing try the quarter turns; its 2D detectors read a half
 * turn as they are. Not `tryHarder` on the prepared sides: it cost a card without a barcode
 * three times as long (measured: 30 against 9 ms a side).
 */
const OPTIONS: ReaderOptions = {
  formats: ['QRCode', 'PDF417', 'DataMatrix', 'Aztec'],
  tryHarder: false,
  tryRotate: true,
  tryInvert: false,
  textMode: 'Plain',
  maxNumberOfSymbols: 4,
};

/**
 * The photo as it is, for what the first look cannot read, trying harder: a PDF417 whose
 * narrow bars the enlarging blurred, a small Data Matrix, and a phone's QR whose modules the
 * card finder took for the card's edges (it cut out and straightened a patch of them, so the
 * first look had only that patch: 1 of 250 links of one length, found by an e2e run). The QR
 * detector adds 2 ms a photo here (measured on 24 generated cards without a barcode, as the
 * engine hands them over: 27.8 ms for PDF417 and Data Matrix, 29.7 with QR, 32.4 with Aztec
 * too, which no photo has needed), against a digital card lost.
 */
const SECOND_LOOK: ReaderOptions = { ...OPTIONS, formats: ['PDF417', 'DataMatrix', 'QRCode'], tryHarder: true };

let ready: Promise<unknown> | undefined;

/** The decoder's wasm from node_modules, once per process: nothing is fetched. */
function loadDecoder(): Promise<unknown> {
  ready ??= (async () => {
    const wasm = await fs.promises.readFile(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    return prepareZXingModule({ overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer }, fireImmediately: true });
  })();
  return ready;
}

/**
 * The barcodes on a card's photos. First on the sides the reader prepared (found in the
 * photo, cut out along their corners, which undoes perspective, and deskewed: zxing reads a
 * PDF417 tilted by a degree or two, not by five); then, when none was found there, on the
 * photos as they are: a flat scan enlarged for the OCR blurs a PDF417's narrow bars
 * (measured: a licence back at 1012 pixels read as it was, not at 1100).
 */
export async function decodeBarcodes(sides: readonly GrayImage[], photos: readonly Uint8Array[] = []): Promise<DecodedBarcode[]> {
  await loadDecoder();
  const found: DecodedBarcode[] = [];
  const seen = new Set<string>();
  const take = (results: Awaited<ReturnType<typeof readBarcodes>>) => {
    for (const r of results) {
      if (!r.isValid || r.text === '' || seen.has(r.text)) continue;
      seen.add(r.text);
      found.push({ format: r.format, text: r.text });
    }
  };
  // As a PGM file, which zxing's decoder (stb_image) reads as one grey channel. Handed over as
  // RGBA ImageData instead, each side was four times the bytes, built pixel by pixel here and
  // turned back into grey by zxing (measured on the bench's 24 cards: this look 34 ms CPU a
  // card that way, 18 ms as a PGM, the same barcodes found).
  for (const side of sides) take(await readBarcodes(toPgm(side), OPTIONS));
  // Only when the prepared sides gave nothing: a barcode found there is not looked for twice.
  if (found.length === 0) for (const photo of photos) take(await readBarcodes(photo, SECOND_LOOK));
  return found;
}
