import fs from 'node:fs';
import { prepareZXingModule, readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';
import type { GrayImage } from './find-card';

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
 * The photo as it is, for what the first look cannot read: a PDF417 whose narrow bars the
 * enlarging blurred, a small Data Matrix. Only those two: QR and Aztec codes were read by the
 * first look, and their detectors were a third of this look's time on a card without any
 * barcode (measured on 24 generated cards: 8.4 s against 5.8 s in all).
 */
const SECOND_LOOK: ReaderOptions = { ...OPTIONS, formats: ['PDF417', 'DataMatrix'], tryHarder: true };

let ready: Promise<unknown> | undefined;

/** The decoder's wasm from node_modules, once per process: nothing is fetched. */
function loadDecoder(): Promise<unknown> {
  ready ??= (async () => {
    const wasm = await fs.promises.readFile(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    return prepareZXingModule({ overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer }, fireImmediately: true });
  })();
  return ready;
}

/** A grey image as the RGBA ImageData zxing reads (Node has no ImageData class; the shape is what it reads). */
type ZxingImage = Extract<Parameters<typeof readBarcodes>[0], { data: Uint8ClampedArray }>;

function asImageData(image: GrayImage): ZxingImage {
  const data = new Uint8ClampedArray(image.width * image.height * 4);
  for (let i = 0, j = 0; i < image.gray.length; i++, j += 4) {
    const v = image.gray[i];
    data[j] = v;
    data[j + 1] = v;
    data[j + 2] = v;
    data[j + 3] = 255;
  }
  return { data, width: image.width, height: image.height, colorSpace: 'srgb' } as ZxingImage;
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
  for (const side of sides) take(await readBarcodes(asImageData(side), OPTIONS));
  // The second look tries harder: a small Data Matrix was missed by both fast looks (measured: 21 ms for a photo without any barcode).
  if (found.length === 0) for (const photo of photos) take(await readBarcodes(photo, SECOND_LOOK));
  return found;
}
