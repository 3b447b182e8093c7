/**
 * `npx tsx scripts/generate-barcode-cards.ts --out DIR [--seed 7]`: card photos that carry
 * barcodes, drawn with bwip-js (a maintained encoder) and photographed on a desk
 * (perspective, glare, blur) like the card generator's, and `truth.json` beside them. Tests
 * generate into a temp dir: no image blob is committed. Every person is fictional.
 *
 * - licence backs (PDF417, AAMVA payloads built from the standard's example layout);
 * - health plan cards with a PDF417 in the track layout (INCITS 284) and the fields printed;
 * - a card with a QR code of no known layout (kept raw), Data Matrix and Aztec codes;
 * - a card without any barcode (the OCR alone).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import bwip from 'bwip-js/node';
import sharp from 'sharp';
import { facePixels, layCard } from './card-photo';
import { aamvaPayload, payerTrackPayload, type LicencePerson } from './barcode-payloads';
import { CARD_H, CARD_W, rngFrom, type Rng } from './card-families';

export type Capture = 'scan' | 'desk' | 'glare' | 'upside-down';

export interface BarcodeCard {
  file: string;
  bytes: Buffer;
  /** What the barcode holds (empty for a card without one) and how it was drawn and captured. */
  truth: { kind: 'licence' | 'payer' | 'unknown' | 'digital_card' | 'none'; symbology: string; payload: string; capture: Capture; person?: LicencePerson; fields?: Record<string, string> };
}

async function symbol(bcid: string, text: string, scale: number): Promise<Buffer> {
  return bwip.toBuffer({ bcid, text, scale, paddingwidth: 6, paddingheight: 6, backgroundcolor: 'FFFFFF', ...(bcid === 'pdf417' ? { columns: 8, rowmult: 3 } : {}) });
}

/** A card face: a white card with a header band, printed lines, and the symbol at (x, y, w). */
async function face(lines: string[], code: { bcid: string; text: string } | null, band: string): Promise<Buffer> {
  const canvas = createCanvas(CARD_W, CARD_H);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fbfbf8';
  ctx.fillRect(0, 0, CARD_W, CARD_H);
  ctx.fillStyle = band;
  ctx.fillRect(0, 0, CARD_W, 80);
  ctx.fillStyle = '#111';
  ctx.font = 'bold 30px sans-serif';
  lines.forEach((line, i) => ctx.fillText(line, 40, 130 + i * 42));
  if (code) {
    const img = await loadImage(await symbol(code.bcid, code.text, 2));
    // A digital card's QR holds hundreds of characters: drawn larger, as on a phone's screen.
    const maxW = code.bcid === 'pdf417' ? CARD_W - 80 : code.text.length > 100 ? CARD_H - 100 : 300;
    const scale = Math.min(maxW / img.width, (CARD_H - 100) / img.height, code.bcid === 'pdf417' ? 10 : 6);
    const w = img.width * scale;
    const h = img.height * scale;
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(img, code.bcid === 'pdf417' ? (CARD_W - w) / 2 : CARD_W - w - 40, CARD_H - h - 30, w, h);
  }
  return canvas.toBuffer('image/png');
}

/** The face as captured: flat, or a phone photo on a desk (perspective, a lamp's glare, blur), or upside down. */
async function capture(r: Rng, png: Buffer, how: Capture): Promise<Buffer> {
  if (how === 'scan') return sharp(png).jpeg({ quality: 90 }).toBuffer();
  if (how === 'upside-down') return sharp(png).rotate(180).jpeg({ quality: 90 }).toBuffer();
  const W = 1600;
  const H = 1200;
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = r.pick(['#6b5a48', '#3d3f44', '#8a8f96']);
  ctx.fillRect(0, 0, W, H);
  // A camera held above one edge, the card turned a few degrees: that edge comes out longer.
  const t = (r.range(-6, 6) * Math.PI) / 180;
  const w = 1200;
  const h = w / 1.586;
  const tilt = r.range(0.04, 0.1);
  const corners = [
    [-w / 2, -h / 2, 1 - tilt],
    [w / 2, -h / 2, 1 - tilt],
    [w / 2, h / 2, 1],
    [-w / 2, h / 2, 1],
  ].map(([x, y, s]) => ({ x: W / 2 + x * s * Math.cos(t) - y * Math.sin(t), y: H / 2 + x * s * Math.sin(t) + y * Math.cos(t) }));
  layCard(ctx, await facePixels(png), corners);
  if (how === 'glare') {
    const gx = W * r.range(0.3, 0.7);
    const glare = ctx.createRadialGradient(gx, H * 0.35, 20, gx, H * 0.35, 220);
    glare.addColorStop(0, 'rgba(255,255,255,0.6)');
    glare.addColorStop(1, 'rgba(255,255,255,0)');
    ctx.fillStyle = glare;
    ctx.fillRect(0, 0, W, H);
  }
  return sharp(canvas.toBuffer('image/png')).blur(r.range(0.5, 1.0)).jpeg({ quality: 85 }).toBuffer();
}

const PEOPLE: LicencePerson[] = [
  { family: 'OKAFOR', first: 'GRACE', middle: 'ADAEZE', dob: '1984-02-29', sex: 'female', street: '41 MAPLE COURT', city: 'SPRINGFIELD', state: 'IL', zip: '627010000', number: 'S12345678901' },
  { family: 'LINDQVIST', first: 'MARCUS', dob: '1991-11-03', sex: 'male', street: '9 HARBOR WAY APT 2', city: 'PORTLAND', state: 'ME', zip: '041011234', number: 'D9988776' },
];

/** The back of licence `i` (of the fictional people here), captured `how`. */
export async function licenceBack(r: Rng, i: number, how: Capture): Promise<BarcodeCard> {
  const person = PEOPLE[i];
  const payload = aamvaPayload(person, { version: i === 0 ? 10 : 8 });
  const png = await face(['DRIVER LICENSE  (BACK)', 'CLASS D  END NONE  REST NONE'], { bcid: 'pdf417', text: payload }, '#5b6f8f');
  return { file: `licence-${i}-${how}.jpg`, bytes: await capture(r, png, how), truth: { kind: 'licence', symbology: 'PDF417', payload, capture: how, person } };
}

/** A card (or a phone's screen) showing a QR of a digital card's `shc:/` or `shlink:/`, captured `how`. */
export async function digitalCardQr(r: Rng, payload: string, how: Capture): Promise<BarcodeCard> {
  const png = await face(['ACME HEALTH PLAN', 'Scan for the digital card'], { bcid: 'qrcode', text: payload }, '#2d7a4a');
  return { file: `digital-card-${how}.jpg`, bytes: await capture(r, png, how), truth: { kind: 'digital_card', symbology: 'QRCode', payload, capture: how } };
}

export { rngFrom };

export async function generateBarcodeCards(seed = 7): Promise<BarcodeCard[]> {
  const r = rngFrom(seed);
  const cards: BarcodeCard[] = [];
  for (const i of PEOPLE.keys()) for (const how of ['scan', 'desk'] as Capture[]) cards.push(await licenceBack(r, i, how));
  const member = { issuer: '61234', memberId: 'XWP884210377', family: 'MORALES', given: 'TERESA', dob: '1979-03-14' };
  const payerPayload = payerTrackPayload(member);
  const payerFace = await face(['ACME HEALTH PLAN', 'Member: TERESA MORALES', 'ID: XWP884210377', 'Group: 771204'], { bcid: 'pdf417', text: payerPayload }, '#1f5fa8');
  for (const how of ['scan', 'desk', 'glare', 'upside-down'] as Capture[]) {
    cards.push({ file: `payer-pdf417-${how}.jpg`, bytes: await capture(r, payerFace, how), truth: { kind: 'payer', symbology: 'PDF417', payload: payerPayload, capture: how, fields: { member_id: 'XWP884210377', member_name: 'TERESA MORALES' } } });
  }
  for (const [bcid, symbology] of [['qrcode', 'QRCode'], ['datamatrix', 'DataMatrix'], ['azteccode', 'Aztec']] as const) {
    const payload = `MEMBER SERVICES ${symbology} 1-800-555-0199`;
    const png = await face(['ACME HEALTH PLAN', 'Member: TERESA MORALES', 'ID: XWP884210377'], { bcid, text: payload }, '#2d7a4a');
    cards.push({ file: `unknown-${symbology}.jpg`, bytes: await capture(r, png, 'scan'), truth: { kind: 'unknown', symbology, payload, capture: 'scan' } });
  }
  const plain = await face(['ACME HEALTH PLAN', 'Member: TERESA MORALES', 'ID: XWP884210377', 'Group: 771204'], null, '#1f5fa8');
  cards.push({ file: 'no-barcode.jpg', bytes: await capture(r, plain, 'scan'), truth: { kind: 'none', symbology: '', payload: '', capture: 'scan' } });
  return cards;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string' }, seed: { type: 'string', default: '7' } } });
  if (!values.out) {
    console.error('Usage: tsx scripts/generate-barcode-cards.ts --out DIR [--seed 7]');
    process.exit(2);
  }
  const dir = path.resolve(values.out);
  const cards = await generateBarcodeCards(Number(values.seed));
  fs.mkdirSync(dir, { recursive: true });
  for (const card of cards) fs.writeFileSync(path.join(dir, card.file), card.bytes);
  fs.writeFileSync(path.join(dir, 'truth.json'), `${JSON.stringify(cards.map(({ file, truth }) => ({ file, ...truth })), null, 2)}\n`);
  console.log(`Wrote ${cards.length} barcode cards and truth.json to ${dir}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
