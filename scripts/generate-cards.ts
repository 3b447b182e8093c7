/**
 * `npx tsx scripts/generate-cards.ts --out DIR [--count 48] [--seed 7]`: renders a labelled
 * set of synthetic insurance cards (NAME.front.jpg|png) and `truth.json` beside them.
 *
 * The same seed gives the same cards on machines with the same fonts. Cards vary in font,
 * label wording, layout and payer style, and in how they were captured: flat scans, and
 * phone photos with framing, rotation, EXIF orientation, blur, noise, uneven light and
 * JPEG artefacts. Tests generate into a temp dir: no image blob is committed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createCanvas, GlobalFonts, loadImage } from '@napi-rs/canvas';
import sharp, { type Sharp } from 'sharp';
import { SEED_CLEARINGHOUSE_ENTITIES } from '../src/main/sandbox/seed-data';
import type { ClearinghouseEntity, ExtractedFieldName } from '../src/shared/contract';

export type CardTruth = Record<ExtractedFieldName, string>;

export interface CardStyle {
  font: string;
  layout: Layout;
  labels: 'colon' | 'plain' | 'caps';
  capture: 'scan' | 'photo';
  rotation_deg: number;
  exif_orientation: number | null;
  blur_sigma: number;
  noise: number;
  jpeg_quality: number | null;
}

export interface GeneratedCard {
  /** The file name, in the hot folder's convention: `card-001.front.jpg`. */
  file: string;
  content_type: 'image/jpeg' | 'image/png';
  bytes: Buffer;
  /** What the card says: the entity's name for the payer, member name as FIRST [M] LAST. */
  truth: CardTruth;
  payer_entity_id: string;
  style: CardStyle;
}

export interface GenerateOptions {
  count?: number;
  seed?: number;
  entities?: readonly ClearinghouseEntity[];
}

const LAYOUTS = ['inline', 'stacked', 'table', 'banner'] as const;
type Layout = (typeof LAYOUTS)[number];

const CARD_W = 1012;
const CARD_H = 638;

/** mulberry32: small, fast and the same everywhere, so a seed names one card set. */
function rngFrom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    range: (lo: number, hi: number) => lo + next() * (hi - lo),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
    digits: (n: number) => Array.from({ length: n }, () => String(Math.floor(next() * 10))).join(''),
    // Letters as the Medicare Beneficiary Identifier draws them: without B, I, L, O, S
    // and Z, which print too like 8, 1, 1, 0, 5 and 2 for anyone (or any OCR) to tell apart.
    letters: (n: number, from = 'ACDEFGHJKMNPQRTUVWXY') => Array.from({ length: n }, () => from[Math.floor(next() * from.length)]).join(''),
  };
}
type Rng = ReturnType<typeof rngFrom>;

const FIRST_NAMES = ['JAMES', 'MARIA', 'ROBERT', 'LINDA', 'MICHAEL', 'PATRICIA', 'DAVID', 'JENNIFER', 'CARLOS', 'ELIZABETH', 'KEVIN', 'SUSAN', 'ANTHONY', 'NGUYEN', 'PRIYA', 'OLIVIA', 'WILLIAM', 'SOFIA', 'DANIEL', 'GRACE', 'TERESA', 'MARCUS', 'HANNAH', 'LUIS'];
const LAST_NAMES = ['SMITH', 'GARCIA', 'JOHNSON', 'MARTINEZ', 'BROWN', 'DAVIS', 'RODRIGUEZ', 'WILSON', 'ANDERSON', 'THOMPSON', 'PATEL', 'NGUYEN', 'KOWALSKI', 'OBRIEN', 'HERNANDEZ', 'WASHINGTON', 'MORALES', 'FITZGERALD', 'CHEN', 'OKAFOR', 'LINDQVIST', 'BECKER'];

interface Brand {
  /** Ways the payer prints its own name (logo text), first line and optional second line. */
  marks: [string, string?][];
  color: string;
  plans: string[];
  memberId(r: Rng): string;
  group(r: Rng): string;
  bins: string[];
  pcns: string[];
  rxGroup(r: Rng): string;
}

/** House styles of the seed's payers, keyed by payer id; unknown entities get a generic one. */
const BRANDS: Record<string, Brand> = {
  '60054': {
    marks: [['aetna'], ['Aetna'], ['AETNA']],
    color: '#7d3f98',
    plans: ['Open Access Aetna Select', 'Choice POS II', 'Aetna Open Access Managed Choice', 'HMO'],
    memberId: (r) => `W${r.digits(9)}`,
    group: (r) => `0${r.digits(6)}`,
    bins: ['610502', '610591'],
    pcns: ['ADV', 'MEDDADV', '9999'],
    rxGroup: (r) => `RX${r.digits(4)}`,
  },
  '62308': {
    marks: [['Cigna'], ['CIGNA'], ['Cigna Healthcare']],
    color: '#00759a',
    plans: ['Open Access Plus', 'OAP IN', 'LocalPlus', 'Connect HMO'],
    memberId: (r) => `U${r.digits(8)}${r.digits(2)}`,
    group: (r) => r.digits(7),
    bins: ['017010'],
    pcns: ['02110000', 'CIHINS', '0213ENGT'],
    rxGroup: (r) => `${r.digits(7)}`,
  },
  '87726': {
    marks: [['UnitedHealthcare'], ['United', 'Healthcare'], ['UNITEDHEALTHCARE']],
    color: '#002677',
    plans: ['Choice Plus', 'Navigate HMO', 'Options PPO', 'Core Essential'],
    memberId: (r) => r.digits(9),
    group: (r) => r.digits(6),
    bins: ['610279'],
    pcns: ['9999'],
    rxGroup: (r) => r.pick(['UHEALTH', 'ACUNET', `UHC${r.digits(4)}`]),
  },
  '61101': {
    marks: [['Humana'], ['HUMANA']],
    color: '#3a7d22',
    plans: ['Gold Plus HMO', 'Choice PPO', 'Medicare Advantage PPO', 'HumanaChoice'],
    memberId: (r) => `H${r.digits(8)}`,
    group: (r) => `${r.letters(1)}${r.digits(6)}`,
    bins: ['610649', '015581'],
    pcns: ['03200000', 'HUMANA', '9999'],
    rxGroup: (r) => r.pick(['HUMANA', `RX${r.digits(4)}`, `${r.letters(2)}${r.digits(4)}`]),
  },
  '84980': {
    marks: [['BlueCross BlueShield', 'of Texas'], ['Blue Cross Blue Shield', 'of Texas'], ['BLUECROSS BLUESHIELD', 'OF TEXAS']],
    color: '#0b5ca8',
    plans: ['Blue Choice PPO', 'Blue Advantage HMO', 'BlueEssentials', 'Blue Premier'],
    memberId: (r) => `${r.letters(3)}${r.digits(9)}`,
    group: (r) => r.digits(6),
    bins: ['011552', '610455'],
    pcns: ['TXBCBS', 'BCTX', '9999'],
    rxGroup: (r) => `TX${r.letters(1)}${r.digits(4)}`,
  },
  '06111': {
    marks: [['OXFORD', 'HEALTH PLANS'], ['Oxford Health Plans'], ['Oxford', 'Health Plans']],
    color: '#1f5fa8',
    plans: ['Freedom Plan', 'Liberty Plan', 'Metro Plan', 'Oxford Freedom Network'],
    memberId: (r) => `${r.digits(8)}${r.digits(2)}`,
    group: (r) => r.digits(6),
    bins: ['610279'],
    pcns: ['9999'],
    rxGroup: (r) => `OXF${r.digits(3)}`,
  },
  '38333': {
    marks: [['MOLINA', 'HEALTHCARE'], ['Molina Healthcare', 'of California'], ['Molina', 'Healthcare']],
    color: '#009ca6',
    plans: ['Medi-Cal', 'Molina Marketplace Silver 70', 'Molina Dual Options', 'Covered California'],
    memberId: (r) => r.digits(r.pick([9, 10, 11])),
    group: (r) => `${r.letters(2)}${r.digits(5)}`,
    bins: ['004336', '610591'],
    pcns: ['ADV', 'MCAIDADV'],
    rxGroup: (r) => `RX${r.digits(4)}`,
  },
  '68069': {
    marks: [['ambetter'], ['Ambetter'], ['AMBETTER']],
    color: '#f58025',
    plans: ['Balanced Care 5', 'Essential Care 2', 'Secure Care 12', 'Ambetter Value'],
    memberId: (r) => `U${r.digits(10)}`,
    group: (r) => `${r.letters(1)}${r.digits(5)}`,
    bins: ['004336'],
    pcns: ['MCAIDADV', 'ADV'],
    rxGroup: (r) => `RX${r.digits(4)}`,
  },
};

function brandFor(entity: ClearinghouseEntity): Brand {
  return (
    BRANDS[entity.payer_id] ?? {
      marks: [[entity.name]],
      color: '#333333',
      plans: ['PPO', 'HMO', 'EPO'],
      memberId: (r) => `${r.letters(2)}${r.digits(8)}`,
      group: (r) => r.digits(6),
      bins: ['610011'],
      pcns: ['9999'],
      rxGroup: (r) => `RX${r.digits(4)}`,
    }
  );
}

/** How cards word each label; each card picks one wording per field. */
const LABELS = {
  member_name: ['Member', 'Name', 'Member Name', 'Subscriber', 'Subscriber Name', 'Enrollee'],
  member_id: ['Member ID', 'ID#', 'ID', 'Subscriber ID', 'Identification No.', 'Member #', 'ID Number'],
  group_number: ['Group No', 'Group #', 'GRP', 'Group', 'Group Number', 'Grp No.'],
  plan_name: ['Plan', 'Plan Name', 'Product', 'Plan Type'],
  rx_bin: ['RxBIN', 'BIN', 'Rx BIN', 'BIN#'],
  rx_pcn: ['RxPCN', 'PCN', 'Rx PCN'],
  rx_group: ['RxGRP', 'RxGrp', 'Rx Group', 'RXGRP', 'Rx Grp'],
} as const;

const FONT_CHOICES = ['Liberation Sans', 'DejaVu Sans', 'Liberation Serif', 'Liberation Sans Narrow', 'DejaVu Serif', 'DejaVu Sans Mono', 'Liberation Mono'];

function availableFonts(): string[] {
  const families = new Set(GlobalFonts.families.map((f) => f.family));
  const usable = FONT_CHOICES.filter((f) => families.has(f));
  if (usable.length === 0) {
    throw new Error(`No usable font for the card generator: install one of ${FONT_CHOICES.join(', ')} (Debian: fonts-liberation, fonts-dejavu-core).`);
  }
  return usable;
}

interface Row {
  field: keyof typeof LABELS;
  label: string;
  value: string;
}

function labelText(label: string, style: CardStyle['labels']): string {
  if (style === 'caps') return label.toUpperCase();
  if (style === 'colon') return `${label}:`;
  return label;
}

function printedName(r: Rng, first: string, middle: string | null, last: string): string {
  const title = (s: string) => s[0] + s.slice(1).toLowerCase();
  const style = r.int(0, 3);
  const mid = middle ? ` ${middle}` : '';
  if (style === 0) return `${first}${mid} ${last}`;
  if (style === 1) return `${title(first)}${mid} ${title(last)}`;
  if (style === 2) return `${last}, ${first}${mid}`;
  return `${last}/${first}`;
}

/** The card face, flat and straight, as the printer made it. */
function renderFace(r: Rng, style: CardStyle, brand: Brand, rows: Row[], name: string, plan: string): Buffer {
  const canvas = createCanvas(CARD_W, CARD_H);
  const ctx = canvas.getContext('2d');
  const font = style.font;
  ctx.fillStyle = r.pick(['#ffffff', '#f7f9fc', '#fdfbf4', '#f3f7f3']);
  ctx.fillRect(0, 0, CARD_W, CARD_H);
  const width = (text: string, f: string) => {
    ctx.font = f;
    return ctx.measureText(text).width;
  };

  const mark = r.pick(brand.marks);
  const band = style.layout === 'banner' || r.chance(0.3);
  const markFont = `bold 52px "${font}"`;
  if (band) {
    ctx.fillStyle = brand.color;
    ctx.fillRect(0, 0, CARD_W, 120);
  }
  ctx.fillStyle = band ? '#ffffff' : brand.color;
  ctx.font = markFont;
  ctx.fillText(mark[0], 40, mark[1] ? 58 : 80);
  if (mark[1]) {
    ctx.font = `bold 30px "${font}"`;
    ctx.fillText(mark[1], 40, 96);
  }
  let top = band ? 175 : 160;

  // Some cards print the plan as a product name in a corner instead of a labelled row.
  if (!rows.some((row) => row.field === 'plan_name')) {
    let planFont = `bold 30px "${font}"`;
    let planY = 58;
    if (40 + width(mark[0], markFont) + 40 > CARD_W - 40 - width(plan, planFont)) {
      planFont = `bold 26px "${font}"`;
      planY = band ? 158 : 150;
      top += 40;
    }
    ctx.font = planFont;
    ctx.fillStyle = band && planY < 120 ? '#ffffff' : '#222222';
    ctx.fillText(plan, CARD_W - 40 - ctx.measureText(plan).width, planY);
  }

  const valueFont = `${r.pick([30, 32, 34])}px "${font}"`;
  const labelFont = `${style.labels === 'caps' ? 'bold ' : ''}${r.pick([24, 26, 28])}px "${font}"`;
  const labelColor = r.pick(['#555555', '#333333', brand.color]);
  const nameRow = rows.find((row) => row.field === 'member_name');
  const rx = rows.filter((row) => row.field.startsWith('rx_'));
  const left = rows.filter((row) => !row.field.startsWith('rx_'));
  const rowWidth = (row: Row) => width(labelText(row.label, style.labels), labelFont) + 16 + width(row.value, valueFont);

  const drawLabel = (row: Row, x: number, y: number) => {
    ctx.font = labelFont;
    ctx.fillStyle = labelColor;
    ctx.fillText(labelText(row.label, style.labels), x, y);
  };
  const drawValue = (value: string, x: number, y: number) => {
    ctx.font = valueFont;
    ctx.fillStyle = '#111111';
    ctx.fillText(value, x, y);
  };
  const drawInline = (row: Row, x: number, y: number, valueX?: number) => {
    drawLabel(row, x, y);
    drawValue(row.value, valueX ?? x + width(labelText(row.label, style.labels), labelFont) + 16, y);
  };

  if (!nameRow) {
    // An unlabelled name, large, as many cards print it.
    ctx.font = `bold 36px "${font}"`;
    ctx.fillStyle = '#111111';
    ctx.fillText(name, 40, top);
    top += 62;
  }

  const rxX = 620;
  if (style.layout === 'stacked') {
    left.forEach((row, i) => {
      drawLabel(row, 40, top + i * 88);
      drawValue(row.value, 40, top + i * 88 + 38);
    });
    rx.forEach((row, i) => {
      drawLabel(row, rxX, top + i * 88);
      drawValue(row.value, rxX, top + i * 88 + 38);
    });
  } else if (style.layout === 'table') {
    const valueX = 40 + Math.max(...left.map((row) => width(labelText(row.label, style.labels), labelFont))) + 36;
    left.forEach((row, i) => drawInline(row, 40, top + i * 54, valueX));
    const boxTop = CARD_H - 48 - rx.length * 48;
    ctx.strokeStyle = '#999999';
    ctx.lineWidth = 2;
    ctx.strokeRect(rxX - 20, boxTop, CARD_W - rxX - 10, rx.length * 48 + 22);
    rx.forEach((row, i) => drawInline(row, rxX, boxTop + 40 + i * 48));
  } else {
    left.forEach((row, i) => drawInline(row, 40, top + i * 56));
    const oneLine = rx.reduce((sum, row) => sum + rowWidth(row) + 44, 40) < CARD_W - 20;
    if (style.layout === 'banner' && oneLine) {
      // Rx on one line in a grey strip, as many pharmacy benefit cards print it.
      const y = CARD_H - 52;
      ctx.fillStyle = '#e8e8e8';
      ctx.fillRect(0, y - 40, CARD_W, 58);
      let x = 40;
      for (const row of rx) {
        drawInline(row, x, y);
        x += rowWidth(row) + 44;
      }
    } else {
      rx.forEach((row, i) => drawInline(row, rxX, CARD_H - 48 - (rx.length - 1 - i) * 48 - 10));
    }
  }

  // Small print the parser must not take for fields: phone numbers.
  ctx.font = `20px "${font}"`;
  ctx.fillStyle = '#666666';
  const footer = r.pick([
    `Member Services 1-800-${r.digits(3)}-${r.digits(4)}`,
    `Questions? Call 1-888-${r.digits(3)}-${r.digits(4)} (TTY 711)`,
    `Providers: call 1-877-${r.digits(3)}-${r.digits(4)}`,
  ]);
  ctx.fillText(footer, 40, CARD_H - 10);
  return canvas.toBuffer('image/png');
}

/** The face as the desk captured it: a scan, or a phone photo on a desk. */
async function capture(r: Rng, style: CardStyle, face: Buffer): Promise<{ bytes: Buffer; content_type: 'image/jpeg' | 'image/png' }> {
  // Raw pixels into sharp: PNG-encoding a noisy photo was most of the generator's time.
  let pipeline: Sharp;
  if (style.capture === 'scan') {
    pipeline = sharp(face);
  } else {
    const W = 1400;
    const H = 1050;
    const canvas = createCanvas(W, H);
    const ctx = canvas.getContext('2d');
    const desk = r.pick(['#6b5a48', '#8a8f96', '#3d3f44', '#b9a58a', '#d8d4cc']);
    ctx.fillStyle = desk;
    ctx.fillRect(0, 0, W, H);
    const img = await loadImage(face);
    const scale = r.range(1.0, 1.2);
    ctx.save();
    ctx.translate(W / 2 + r.range(-60, 60), H / 2 + r.range(-40, 40));
    ctx.rotate((style.rotation_deg * Math.PI) / 180);
    ctx.shadowColor = 'rgba(0,0,0,0.45)';
    ctx.shadowBlur = 18;
    ctx.shadowOffsetX = 6;
    ctx.shadowOffsetY = 8;
    ctx.drawImage(img, (-CARD_W * scale) / 2, (-CARD_H * scale) / 2, CARD_W * scale, CARD_H * scale);
    ctx.restore();
    // Uneven light from a window or a lamp.
    const light = ctx.createLinearGradient(r.range(0, W), 0, r.range(0, W), H);
    light.addColorStop(0, `rgba(255,255,255,${r.range(0, 0.18).toFixed(2)})`);
    light.addColorStop(1, `rgba(0,0,0,${r.range(0.05, 0.3).toFixed(2)})`);
    ctx.fillStyle = light;
    ctx.fillRect(0, 0, W, H);
    const data = ctx.getImageData(0, 0, W, H);
    if (style.noise > 0) {
      const px = data.data;
      // Sensor noise, roughly Gaussian: a table of sums of three uniforms, indexed by an
      // inline LCG (a call per pixel made this the slowest step of the generator).
      const table = Float32Array.from({ length: 4096 }, () => (r.next() + r.next() + r.next() - 1.5) * style.noise);
      let s = r.int(1, 2 ** 30);
      for (let i = 0; i < px.length; i += 4) {
        s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
        const n = table[s >>> 20];
        px[i] = px[i] + n;
        px[i + 1] = px[i + 1] + n;
        px[i + 2] = px[i + 2] + n;
      }
    }
    pipeline = sharp(Buffer.from(data.data.buffer, data.data.byteOffset, data.data.byteLength), { raw: { width: W, height: H, channels: 4 } }).removeAlpha();
  }

  if (style.blur_sigma >= 0.3) pipeline = pipeline.blur(style.blur_sigma);
  if (style.exif_orientation === 6) pipeline = pipeline.rotate(270).withMetadata({ orientation: 6 });
  else if (style.exif_orientation === 8) pipeline = pipeline.rotate(90).withMetadata({ orientation: 8 });
  else if (style.exif_orientation === 3) pipeline = pipeline.rotate(180).withMetadata({ orientation: 3 });
  if (style.jpeg_quality === null) return { bytes: await pipeline.png().toBuffer(), content_type: 'image/png' };
  return { bytes: await pipeline.jpeg({ quality: style.jpeg_quality }).toBuffer(), content_type: 'image/jpeg' };
}

export async function generateCards(options: GenerateOptions = {}): Promise<GeneratedCard[]> {
  const count = options.count ?? 48;
  const entities = options.entities ?? SEED_CLEARINGHOUSE_ENTITIES;
  const fonts = availableFonts();
  const cards: GeneratedCard[] = [];
  for (let i = 0; i < count; i++) {
    // One stream per card: changing one card's recipe never reshuffles the others.
    const r = rngFrom((options.seed ?? 7) * 100_003 + i * 7919);
    const entity = entities[i % entities.length];
    const brand = brandFor(entity);
    const first = r.pick(FIRST_NAMES);
    const last = r.pick(LAST_NAMES);
    const middle = r.chance(0.4) ? r.letters(1) : null;
    const name = printedName(r, first, middle, last);
    const truth: CardTruth = {
      member_name: `${first}${middle ? ` ${middle}` : ''} ${last}`,
      member_id: brand.memberId(r),
      group_number: brand.group(r),
      plan_name: r.pick(brand.plans),
      rx_bin: r.pick(brand.bins),
      rx_pcn: r.pick(brand.pcns),
      rx_group: brand.rxGroup(r),
      payer_name: entity.name,
    };
    if (name.includes('/')) truth.member_name = `${first} ${last}`;
    const photo = r.chance(0.7);
    const style: CardStyle = {
      font: fonts[i % fonts.length],
      layout: LAYOUTS[Math.floor(i / entities.length) % LAYOUTS.length],
      labels: r.pick(['colon', 'plain', 'caps'] as const),
      capture: photo ? 'photo' : 'scan',
      rotation_deg: photo ? Math.round(r.range(-7, 7) * 10) / 10 : 0,
      exif_orientation: photo && r.chance(0.2) ? r.pick([6, 8, 3]) : null,
      blur_sigma: photo ? Math.round(r.range(0, 1.4) * 10) / 10 : 0,
      noise: photo ? Math.round(r.range(0, 30)) : 0,
      jpeg_quality: photo ? r.int(35, 85) : r.chance(0.5) ? null : r.int(60, 90),
    };
    const rows: Row[] = [];
    if (r.chance(0.75)) rows.push({ field: 'member_name', label: r.pick(LABELS.member_name), value: name });
    rows.push({ field: 'member_id', label: r.pick(LABELS.member_id), value: truth.member_id });
    rows.push({ field: 'group_number', label: r.pick(LABELS.group_number), value: truth.group_number });
    if (r.chance(0.5)) rows.push({ field: 'plan_name', label: r.pick(LABELS.plan_name), value: truth.plan_name });
    rows.push({ field: 'rx_bin', label: r.pick(LABELS.rx_bin), value: truth.rx_bin });
    rows.push({ field: 'rx_pcn', label: r.pick(LABELS.rx_pcn), value: truth.rx_pcn });
    rows.push({ field: 'rx_group', label: r.pick(LABELS.rx_group), value: truth.rx_group });

    const face = renderFace(r, style, brand, rows, name, truth.plan_name);
    const { bytes, content_type } = await capture(r, style, face);
    const file = `card-${String(i + 1).padStart(3, '0')}.front.${content_type === 'image/png' ? 'png' : 'jpg'}`;
    cards.push({ file, content_type, bytes, truth, payer_entity_id: entity.id, style });
  }
  return cards;
}

/** Writes the images and `truth.json` (file → truth, payer entity id and style). */
export async function writeCardSet(dir: string, options: GenerateOptions = {}): Promise<GeneratedCard[]> {
  const cards = await generateCards(options);
  fs.mkdirSync(dir, { recursive: true });
  for (const card of cards) fs.writeFileSync(path.join(dir, card.file), card.bytes);
  const truth = cards.map(({ file, content_type, truth: fields, payer_entity_id, style }) => ({ file, content_type, truth: fields, payer_entity_id, style }));
  fs.writeFileSync(path.join(dir, 'truth.json'), `${JSON.stringify(truth, null, 2)}\n`);
  return cards;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      count: { type: 'string', default: '48' },
      seed: { type: 'string', default: '7' },
    },
  });
  if (!values.out) {
    console.error('Usage: tsx scripts/generate-cards.ts --out DIR [--count 48] [--seed 7]');
    process.exit(2);
  }
  const count = Number(values.count);
  const seed = Number(values.seed);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed)) {
    console.error('--count must be a positive whole number and --seed a whole number.');
    process.exit(2);
  }
  const cards = await writeCardSet(path.resolve(values.out), { count, seed });
  console.log(`Wrote ${cards.length} cards and truth.json to ${path.resolve(values.out)}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
