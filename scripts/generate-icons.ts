/**
 * `npm run icons`: the app icon for the installers, drawn here from one SVG, so no binary
 * is checked in. Writes build/icons/icon.png (1024 px), icon.ico (Windows: 16–256 px) and
 * icon.icns (macOS: 16–1024 px), all PNG-compressed. `npm run dist` runs it first.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

/** A blue tile, a white insurance card, a green check: readable down to 16 px. */
export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1024 1024">
  <rect x="32" y="32" width="960" height="960" rx="200" fill="#1d5bb8"/>
  <rect x="168" y="268" width="688" height="448" rx="56" fill="#ffffff"/>
  <rect x="168" y="348" width="688" height="72" fill="#c9d0db"/>
  <rect x="232" y="500" width="260" height="40" rx="20" fill="#8a94a6"/>
  <rect x="232" y="580" width="180" height="40" rx="20" fill="#8a94a6"/>
  <circle cx="716" cy="716" r="180" fill="#1e8a47" stroke="#ffffff" stroke-width="36"/>
  <path d="M630 716 l60 60 l112 -124" fill="none" stroke="#ffffff" stroke-width="52" stroke-linecap="round" stroke-linejoin="round"/>
</svg>`;

async function png(size: number): Promise<Buffer> {
  return sharp(Buffer.from(ICON_SVG), { density: Math.max(72, (72 * size) / 1024) * 4 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** ICO with PNG entries (Windows Vista and later read them; 256 px is stored as 0). */
export function buildIco(images: { size: number; data: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, data }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += data.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((i) => i.data)]);
}

/** The ICNS types that hold PNG data, and the pixel size of each. */
export const ICNS_TYPES: [string, number][] = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
  ['ic11', 32],
  ['ic12', 64],
  ['ic13', 256],
  ['ic14', 512],
];

export function buildIcns(pngOfSize: Map<number, Buffer>): Buffer {
  const chunks = ICNS_TYPES.map(([type, size]) => {
    const data = pngOfSize.get(size)!;
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(data.length + 8, 4);
    return Buffer.concat([head, data]);
  });
  const body = Buffer.concat(chunks);
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([head, body]);
}

export async function generateIcons(outDir: string): Promise<string[]> {
  const sizes = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
  const pngs = new Map<number, Buffer>();
  for (const size of sizes) pngs.set(size, await png(size));
  fs.mkdirSync(outDir, { recursive: true });
  const files = {
    'icon.png': pngs.get(1024)!,
    'icon.ico': buildIco([16, 24, 32, 48, 64, 128, 256].map((size) => ({ size, data: pngs.get(size)! }))),
    'icon.icns': buildIcns(pngs),
  };
  for (const [name, data] of Object.entries(files)) fs.writeFileSync(path.join(outDir, name), data);
  return Object.keys(files).map((name) => path.join(outDir, name));
}

if (require.main === module) {
  const outDir = path.resolve(__dirname, '..', 'build', 'icons');
  generateIcons(outDir).then(
    (files) => console.log(`Icons written: ${files.map((f) => path.relative(process.cwd(), f)).join(', ')}`),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
