import zlib from 'node:zlib';

/**
 * A tiny but valid PNG (solid colour), built here so no binary fixture is checked in.
 * `text` adds tEXt chunks: readable bytes in the file, e.g. a canary name that must not
 * be found on disk once the photo is stored encrypted.
 */
export function makePng(width = 4, height = 4, rgb: [number, number, number] = [200, 30, 30], text: Record<string, string> = {}): Uint8Array {
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => rgb[i % 3])]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      ...Object.entries(text).map(([keyword, value]) => chunk('tEXt', Buffer.from(`${keyword}\0${value}`, 'latin1'))),
      chunk('IDAT', zlib.deflateSync(raw)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/**
 * A real, tiny JPEG whose frame header claims `width` x `height`: to every reader that
 * looks at the header (as a guard against huge photos should), a photo of that size.
 */
export async function jpegClaiming(width: number, height: number): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#ffffff' } }).jpeg().toBuffer();
  for (let i = 2; i < jpeg.length - 9; i++) {
    if (jpeg[i] === 0xff && jpeg[i + 1] >= 0xc0 && jpeg[i + 1] <= 0xc2) {
      jpeg.writeUInt16BE(height, i + 5);
      jpeg.writeUInt16BE(width, i + 7);
      return jpeg;
    }
  }
  throw new Error('no JPEG frame header');
}
