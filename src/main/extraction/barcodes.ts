import fs from 'node:fs';
import { prepareZXingModule, readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';
import type { GrayImage } from './find-card';

export interface DecodedBarcode {
  /** zxing's name: "QRCode", "PDF417", "DataMatrix", "Aztec". */
  format: string;
  /** The payload exactly as encoded (control characters kept: the AAMVA header has three). */
  text: string;
}

/** The 2D symbologies cards carry: QR (digital cards), PDF417 (licences, plan cards), Data Matrix and Aztec. */
const OPTIONS: ReaderOptions = {
  formats: ['QRCode', 'PDF417', 'DataMatrix', 'Aztec'],
  tryHarder: true,
  tryRotate: true,
  tryInvert: false,
  textMode: 'Plain',
  maxNumberOfSymbols: 4,
};

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

/** The image turned a half turn: a card photographed upside down. */
function halfTurn(image: GrayImage): GrayImage {
  return { gray: Uint8Array.from(image.gray).reverse(), width: image.width, height: image.height };
}

/**
 * The barcodes on the card sides the reader prepared (found in the photo, cut out along
 * their corners, which undoes perspective, and deskewed: zxing reads a PDF417 tilted by a
 * degree or two, not by five). zxing tries the quarter turns itself (`tryRotate`); the half
 * turn is tried only when nothing was found upright, so a card without a barcode costs one
 * more look, not four.
 */
export async function decodeBarcodes(sides: readonly GrayImage[]): Promise<DecodedBarcode[]> {
  await loadDecoder();
  const found: DecodedBarcode[] = [];
  const seen = new Set<string>();
  for (const side of sides) {
    let results = await readBarcodes(asImageData(side), OPTIONS);
    if (results.length === 0) results = await readBarcodes(asImageData(halfTurn(side)), OPTIONS);
    for (const r of results) {
      if (!r.isValid || r.text === '' || seen.has(r.text)) continue;
      seen.add(r.text);
      found.push({ format: r.format, text: r.text });
    }
  }
  return found;
}
