/**
 * `npx tsx scripts/generate-cards.ts --out DIR [--count 48] [--seed 7] [--styles held-out | --families tuning|held-out]`:
 * renders a labelled set of synthetic insurance cards (NAME.front.jpg|png) and `truth.json` beside them.
 * `--families` draws cards from the layout families of `card-families.ts` (card i uses family
 * i mod N of the split) and the directory's payers; `--styles` keeps the older sets.
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
import { SEED_CLEARINGHOUSE_ENTITIES } from '../src/main/reference/seed-data';
import type { ClearinghouseEntity } from '../src/shared/contract';
import { facePixels, layCard } from './card-photo';
import { CARD_H, CARD_W, cardData, checkDisplayFonts, familiesOf, FIRST_NAMES, LAST_NAMES, renderFamily, rngFrom, type CardTruth, type Rng, type Split } from './card-families';

/** What the card prints for each field; '' where the card prints no such field. */
export type { CardTruth };

export interface CardStyle {
  font: string;
  layout: Layout;
  labels: 'colon' | 'plain' | 'caps';
  /**
   * scan: flat; photo: rotated on a plain desk; desk: in perspective on a textured desk
   * beside a printed page; frame: small in a video frame with guides and overlay text;
   * pair: front and back side by side in one image. The families' captures add glare (a
   * phone photo in perspective with a lamp's reflection and a hand's shadow), flatbed (a
   * scanner bed with scan lines), screenshot (small on a page in a document viewer), lowres
   * (a small crop) and cmyk (a CMYK JPEG, as print shops and some scanners write).
   */
  capture: 'scan' | 'photo' | 'desk' | 'frame' | 'pair' | 'glare' | 'flatbed' | 'screenshot' | 'lowres' | 'cmyk';
  rotation_deg: number;
  exif_orientation: number | null;
  blur_sigma: number;
  noise: number;
  jpeg_quality: number | null;
  /** The layout family (cards generated with `families` only). */
  family?: string;
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
  /**
   * classic: the styles the extraction was tuned on; held-out: layouts and captures it was
   * not (real-card layouts with ids under their labels, plan names in the footer,
   * dependents, BCBS prefix columns; perspective on textured desks, video frames, front
   * and back side by side), for measuring how it holds up on cards it has never seen.
   */
  styles?: 'classic' | 'held-out';
  /**
   * Cards from the layout families of one split (see card-families.ts), payers drawn from the
   * whole directory; takes precedence over `styles`, and ignores `entities`.
   */
  families?: Split;
}

const LAYOUTS = ['inline', 'stacked', 'table', 'banner'] as const;
const HELD_OUT_LAYOUTS = ['header-footer', 'prefix-columns'] as const;
type Layout = (typeof LAYOUTS)[number] | (typeof HELD_OUT_LAYOUTS)[number];

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

interface HeldOutPrint {
  name: string;
  dependents: string[];
  /** The id's prefix and number as printed in BCBS columns; joined they are the member id. */
  prefix: string;
  suffix: string;
  plan: string;
  payerId: string;
}

/**
 * The held-out layouts, modelled on how real cards print (not on the classic layouts):
 * - header-footer: "Member ID:" and "Group Number:" side by side, "Member:" with the name
 *   on the next line and dependents under it, a "Payer ID" line, an Rx box, the plan's
 *   product name in the footer above an "Administered by" line;
 * - prefix-columns: captions above values, the id in Prefix / Identification # / Suffix
 *   columns, a Rx block of "Rx Group #", "Rx BIN#", the plan in capitals in a side panel.
 */
function renderHeldOutFace(r: Rng, style: CardStyle, brand: Brand, truth: CardTruth, print: HeldOutPrint): Buffer {
  const canvas = createCanvas(CARD_W, CARD_H);
  const ctx = canvas.getContext('2d');
  const font = style.font;
  ctx.fillStyle = r.pick(['#ffffff', '#f7f9fc', '#fbfbf7']);
  ctx.fillRect(0, 0, CARD_W, CARD_H);
  const text = (value: string, x: number, y: number, size: number, color = '#111111', weight = '') => {
    ctx.font = `${weight}${size}px "${font}"`;
    ctx.fillStyle = color;
    ctx.fillText(value, x, y);
    return ctx.measureText(value).width;
  };
  const rule = (x0: number, x1: number, y: number) => {
    ctx.fillStyle = brand.color;
    ctx.fillRect(x0, y, x1 - x0, 3);
  };
  const mark = r.pick(brand.marks);
  const labelColor = r.pick([brand.color, '#3b4a8c', '#555555']);
  text(mark[0], 40, 70, 50, brand.color, 'bold ');
  if (mark[1]) text(mark[1], 40, 104, 26, brand.color, 'bold ');
  const colon = style.labels === 'colon' ? ':' : '';
  const caps = (s: string) => (style.labels === 'caps' ? s.toUpperCase() : s);

  if (style.layout === 'header-footer') {
    // An issuer line that looks like an id but is not the member's.
    text(caps('Health Plan (80840)'), 40, 150, 24, labelColor);
    text(`${r.digits(3)}-${r.digits(5)}-${r.digits(2)}`, 300, 152, 30);
    const idLabel = `${caps('Member ID')}${colon}`;
    const w = text(idLabel, 40, 210, 26, labelColor);
    text(truth.member_id, 40 + w + 40, 212, 36);
    const groupLabel = `${caps('Group Number')}${colon}`;
    const gw = text(groupLabel, 560, 210, 26, labelColor);
    text(truth.group_number, Math.max(560 + gw + 30, CARD_W - 40 - 18 * truth.group_number.length - 20), 212, 36);
    rule(40, CARD_W - 40, 232);
    text(`${caps('Member')}${colon}`, 40, 272, 24, labelColor);
    text(print.name, 40, 310, 34);
    let y = 310;
    if (print.dependents.length > 0) {
      text(`${caps('Dependents')}${colon}`, 40, y + 34, 24, labelColor);
      y += 34;
      for (const dependent of print.dependents) {
        y += 36;
        text(dependent, 40, y, 32);
      }
    }
    text(`Payer ID ${print.payerId}`, 580, 300, 26, labelColor);
    const rx: [string, string][] = [
      ['RxBin', truth.rx_bin],
      ['RxPCN', truth.rx_pcn],
      ...(truth.rx_group ? ([['RxGrp', truth.rx_group]] as [string, string][]) : []),
    ];
    const boxTop = 345;
    ctx.strokeStyle = brand.color;
    ctx.lineWidth = 4;
    ctx.strokeRect(600, boxTop, 370, 40 + rx.length * 44);
    rx.forEach(([label, value], i) => {
      const lw = text(`${caps(label)}:`, 625, boxTop + 50 + i * 44, 28, labelColor);
      text(value, 625 + lw + 14, boxTop + 50 + i * 44, 30);
    });
    text('Copays', 40, Math.max(y + 60, 470), 22, labelColor);
    text(`Office: $${r.int(1, 6)}5   ER: $${r.int(1, 5)}00`, 40, Math.max(y + 92, 502), 24);
    const planW = (() => {
      ctx.font = `28px "${font}"`;
      return ctx.measureText(print.plan).width;
    })();
    text(print.plan, CARD_W - 40 - planW, 574, 28);
    const admin = `Administered by ${mark.join(' ')} Inc.`;
    ctx.font = `20px "${font}"`;
    text(admin, CARD_W - 40 - ctx.measureText(admin).width, 602, 20, '#333333');
  } else {
    text(r.pick(['Contoso', 'Fabrikam', 'Northwind', 'Tailspin']), 700, 80, 40, '#444444', 'bold ');
    rule(40, 480, 130);
    rule(530, CARD_W - 40, 130);
    text(caps('Member'), 40, 168, 24, labelColor);
    text(print.name, 40, 204, 30, '#111111', 'bold ');
    text(caps('Prefix'), 40, 250, 24, labelColor);
    text(`${caps('Identification')} #`, 150, 250, 24, labelColor);
    text(caps('Suffix'), 380, 250, 24, labelColor);
    text(print.prefix, 40, 290, 30, '#111111', 'bold ');
    text(truth.member_id.slice(print.prefix.length), 150, 290, 30, '#111111', 'bold ');
    text(print.suffix, 380, 290, 30, '#111111', 'bold ');
    rule(40, 480, 318);
    const rows: [string, string][] = [
      ['Group #', truth.group_number],
      ['Rx Group #', truth.rx_group],
      ['Rx BIN#', truth.rx_bin],
      ...(truth.rx_pcn ? ([['Rx PCN#', truth.rx_pcn]] as [string, string][]) : []),
      ['BCBS', r.digits(3)],
    ];
    rows.forEach(([label, value], i) => {
      const lw = text(caps(label), 40, 362 + i * 44, 26, labelColor);
      text(value, 40 + lw + 16, 362 + i * 44, 28, '#111111', 'bold ');
    });
    text(print.plan.toUpperCase(), 545, 180, 28, '#111111', 'bold ');
    text('Shared In and Out of Network', 600, 212, 20, '#333333');
    text('Deductible', 545, 250, 24, '#111111', 'bold ');
    text(`$${r.int(1, 3)},${r.int(0, 9)}00`, 820, 250, 24);
    text('Coinsurance Max', 545, 286, 24, '#111111', 'bold ');
    text(`$${r.int(1, 5)},000`, 820, 286, 24);
    rule(530, CARD_W - 40, 320);
    text(r.pick(['PPO', 'HMO', 'EPO']), 880, 590, 28, '#111111', 'bold ');
  }
  return canvas.toBuffer('image/png');
}

/** The back of a card: service numbers and claims addresses, no member fields. */
function renderBack(r: Rng, style: CardStyle): Buffer {
  const canvas = createCanvas(CARD_W, CARD_H);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, CARD_W, CARD_H);
  ctx.fillStyle = '#222222';
  const lines = [
    'This card does not guarantee coverage. To verify benefits,',
    'view claims or find a provider, visit the website or call.',
    `For Members: 1-888-${r.digits(3)}-${r.digits(4)}`,
    `For Providers: 1-877-${r.digits(3)}-${r.digits(4)}`,
    `Medical Claims: PO Box ${r.digits(5)}, Atlanta GA 30374`,
    `Pharmacy Claims: PO Box ${r.digits(6)}, Dallas TX 75265`,
  ];
  lines.forEach((line, i) => {
    ctx.font = `${i < 2 ? 24 : 28}px "${style.font}"`;
    ctx.fillText(line, 40, 120 + i * 70);
  });
  return canvas.toBuffer('image/png');
}

/** Corners of the card as it lands in a photo: centred at (cx, cy), turned and in perspective. */
function cardQuad(r: Rng, cx: number, cy: number, w: number, h: number, degrees: number, tilt: number) {
  const t = (degrees * Math.PI) / 180;
  const base = [
    [-w / 2, -h / 2],
    [w / 2, -h / 2],
    [w / 2, h / 2],
    [-w / 2, h / 2],
  ];
  // A camera held above one edge: that edge comes out longer than the opposite one.
  const near = r.int(0, 3);
  return base.map(([x, y], i) => {
    const shrink = i === near || i === (near + 1) % 4 ? 1 : 1 - tilt;
    const jx = x * shrink + r.range(-0.02, 0.02) * w;
    const jy = y * (1 - tilt / 3) + r.range(-0.02, 0.02) * h;
    return { x: cx + jx * Math.cos(t) - jy * Math.sin(t), y: cy + jx * Math.sin(t) + jy * Math.cos(t) };
  });
}

/** The held-out captures, all drawn on a canvas: desk, video frame, or both sides side by side. */
async function captureHeldOut(r: Rng, style: CardStyle, face: Buffer, back: Buffer): Promise<Buffer> {
  const front = await facePixels(face);
  // Families print portrait cards too: the face's own size, never the landscape default.
  const [FW, FH] = [front.width, front.height];
  if (style.capture === 'pair') {
    const W = 2 * CARD_W + 120;
    const H = CARD_H + 80;
    const canvas = createCanvas(W, H);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, W, H);
    ctx.shadowColor = 'rgba(0,0,0,0.35)';
    ctx.shadowBlur = 12;
    ctx.drawImage(await loadImage(face), 40, 40);
    ctx.drawImage(await loadImage(back), CARD_W + 80, 40);
    return canvas.toBuffer('image/png');
  }
  if (style.capture === 'frame') {
    const [W, H] = r.pick([
      [1920, 1080],
      [2560, 1440],
    ] as const);
    const canvas = createCanvas(W, H);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = r.pick(['#b4b4b4', '#9a9a9a', '#c8c8c8']);
    ctx.fillRect(0, 0, W, H);
    ctx.strokeStyle = '#ffffff';
    ctx.lineWidth = 4;
    ctx.strokeRect(W * 0.2, H * 0.18, W * 0.6, H * 0.64);
    ctx.font = `28px "${style.font}"`;
    ctx.fillStyle = '#ffffff';
    ctx.fillText(`Video: ${W}x${H}px`, W - 300, 50);
    ctx.fillText(`Card: ${Math.round(W * 0.34)}px`, W - 300, 90);
    const cardW = W * r.range(0.3, 0.4);
    layCard(ctx, front, cardQuad(r, W / 2, H / 2, cardW, (cardW * FH) / FW, r.range(-2, 2), r.range(0, 0.04)));
    return canvas.toBuffer('image/png');
  }
  // desk: wood grain or a speckled desk, a printed page under one corner, the card in perspective.
  const W = 1600;
  const H = 1200;
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  const wood = r.chance(0.5);
  const base = r.pick(wood ? ['#8b5a2b', '#a0703c', '#6e4a2a'] : ['#4a4d55', '#5d6b5a', '#2f3036']);
  ctx.fillStyle = base;
  ctx.fillRect(0, 0, W, H);
  for (let i = 0; i < 240; i++) {
    ctx.fillStyle = `rgba(${r.chance(0.5) ? '0,0,0' : '255,255,255'},${r.range(0.03, 0.12).toFixed(2)})`;
    if (wood) ctx.fillRect(0, r.range(0, H), W, r.range(2, 14));
    else ctx.fillRect(r.range(0, W), r.range(0, H), r.range(3, 12), r.range(3, 12));
  }
  ctx.save();
  // Beside the card, not under it: a card half covered by a page is another problem.
  ctx.translate(r.pick([-360, W - 250]), r.range(-100, 700));
  ctx.rotate(r.range(-0.12, 0.12));
  ctx.fillStyle = '#f4f4f0';
  ctx.fillRect(0, 0, 600, 800);
  ctx.fillStyle = '#333333';
  ctx.font = `22px "${style.font}"`;
  for (let i = 0; i < 18; i++) ctx.fillText(r.pick(['Patient intake form', 'Date of visit ____', 'Reason for visit', 'Phone 555-0100', 'Signature ________']), 30, 50 + i * 40);
  ctx.restore();
  const cardW = W * r.range(0.48, 0.58) * (FW < FH ? 0.62 : 1);
  const [cx, cy] = [W / 2 + r.range(-80, 80), H / 2 + r.range(-60, 60)];
  layCard(ctx, front, cardQuad(r, cx, cy, cardW, (cardW * FH) / FW, style.rotation_deg, r.range(0.03, 0.1)));
  // Uneven light, as in classic photos.
  const light = ctx.createLinearGradient(r.range(0, W), 0, r.range(0, W), H);
  light.addColorStop(0, `rgba(255,255,255,${r.range(0, 0.12).toFixed(2)})`);
  light.addColorStop(1, `rgba(0,0,0,${r.range(0.05, 0.25).toFixed(2)})`);
  ctx.fillStyle = light;
  ctx.fillRect(0, 0, W, H);
  if (style.capture === 'glare') {
    // A lamp's reflection on the laminate: a bright ellipse somewhere on the card, washing out
    // what is under its core, and the soft shadow of the phone or a hand over one side.
    const gx = cx + r.range(-0.3, 0.3) * cardW;
    const gy = cy + r.range(-0.2, 0.2) * cardW * 0.6;
    const rad = cardW * r.range(0.08, 0.16);
    ctx.save();
    ctx.translate(gx, gy);
    ctx.scale(1.8, 1);
    const glare = ctx.createRadialGradient(0, 0, rad * 0.15, 0, 0, rad);
    glare.addColorStop(0, `rgba(255,255,255,${r.range(0.7, 0.92).toFixed(2)})`);
    glare.addColorStop(0.5, 'rgba(255,255,255,0.35)');
    glare.addColorStop(1, 'rgba(255,255,255,0)');
    ctx.fillStyle = glare;
    ctx.fillRect(-rad, -rad, rad * 2, rad * 2);
    ctx.restore();
    const fromLeft = r.chance(0.5);
    const shade = ctx.createLinearGradient(fromLeft ? 0 : W, 0, fromLeft ? W * 0.45 : W * 0.55, 0);
    shade.addColorStop(0, `rgba(0,0,0,${r.range(0.3, 0.5).toFixed(2)})`);
    shade.addColorStop(1, 'rgba(0,0,0,0)');
    ctx.fillStyle = shade;
    ctx.fillRect(0, 0, W, H);
  }
  return canvas.toBuffer('image/png');
}

/** A flatbed scan (the card crooked on the bed, scan lines) or a screenshot of a document viewer. */
async function captureCanvas(r: Rng, style: CardStyle, face: Buffer): Promise<Buffer> {
  const img = await loadImage(face);
  if (style.capture === 'flatbed') {
    const [W, H] = [img.width + 260, img.height + 220];
    const canvas = createCanvas(W, H);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = r.pick(['#f2f2f0', '#e9e9e9', '#fafafa']);
    ctx.fillRect(0, 0, W, H);
    ctx.save();
    ctx.translate(W / 2 + r.range(-40, 40), H / 2 + r.range(-30, 30));
    ctx.rotate((style.rotation_deg * Math.PI) / 180);
    ctx.shadowColor = 'rgba(0,0,0,0.25)';
    ctx.shadowBlur = 6;
    ctx.drawImage(img, -img.width / 2, -img.height / 2);
    ctx.restore();
    // The scanner's lines: rows a little lighter or darker, and a streak from dust on the glass.
    for (let y = 0; y < H; y += r.int(2, 7)) {
      ctx.fillStyle = `rgba(${r.chance(0.5) ? '0,0,0' : '255,255,255'},${r.range(0.02, 0.09).toFixed(3)})`;
      ctx.fillRect(0, y, W, r.int(1, 2));
    }
    ctx.fillStyle = 'rgba(0,0,0,0.12)';
    ctx.fillRect(r.range(0, W), 0, r.int(1, 3), H);
    return canvas.toBuffer('image/png');
  }
  // screenshot: a viewer window with a toolbar and page thumbnails, the card small on a page.
  const [W, H] = r.pick([
    [1600, 1000],
    [1440, 900],
    [1920, 1080],
  ] as const);
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#525659';
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = '#323639';
  ctx.fillRect(0, 0, W, 56);
  ctx.font = `20px "${style.font}"`;
  ctx.fillStyle = '#f1f1f1';
  ctx.fillText(`scan_${r.digits(4)}.pdf`, 24, 36);
  ctx.fillText(`1 / ${r.int(1, 4)}    ${r.pick(['100%', '75%', '125%'])}`, W / 2 - 60, 36);
  ctx.fillStyle = '#3c4043';
  ctx.fillRect(0, 56, 200, H - 56);
  for (let i = 0; i < 3; i++) {
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(50, 90 + i * 200, 100, 130);
  }
  const pageW = Math.min(W - 360, (H - 90) * 0.77);
  const pageX = 200 + (W - 200 - pageW) / 2;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(pageX, 76, pageW, H - 76);
  ctx.fillStyle = '#444444';
  ctx.font = `16px "${style.font}"`;
  for (let i = 0; i < 6; i++) ctx.fillText(r.pick(['Insurance card copy', 'Patient: see attached', 'Front of card', 'Scanned for records']), pageX + 40, 120 + i * 26);
  const cardW = pageW * r.range(0.68, 0.88) * (img.width < img.height ? 0.6 : 1);
  ctx.drawImage(img, pageX + 40, 290, cardW, (cardW * img.height) / img.width);
  return canvas.toBuffer('image/png');
}

/** The face as the desk captured it: a scan, or a phone photo on a desk. */
async function capture(r: Rng, style: CardStyle, face: Buffer): Promise<{ bytes: Buffer; content_type: 'image/jpeg' | 'image/png' }> {
  // Raw pixels into sharp: PNG-encoding a noisy photo was most of the generator's time.
  let pipeline: Sharp;
  if (style.capture === 'desk' || style.capture === 'frame' || style.capture === 'pair' || style.capture === 'glare') {
    pipeline = sharp(await captureHeldOut(r, style, face, renderBack(r, style))).removeAlpha();
  } else if (style.capture === 'flatbed' || style.capture === 'screenshot') {
    pipeline = sharp(await captureCanvas(r, style, face)).removeAlpha();
  } else if (style.capture === 'scan' || style.capture === 'cmyk') {
    pipeline = sharp(face);
  } else if (style.capture === 'lowres') {
    // A small crop: a few pixels cut from the edges, the card some 450 to 560 pixels wide.
    const meta = await sharp(face).metadata();
    const cut = r.int(0, 8);
    pipeline = sharp(face)
      .extract({ left: cut, top: cut, width: meta.width! - 2 * cut, height: meta.height! - 2 * cut })
      .resize({ width: Math.round((meta.width! / Math.max(meta.width!, meta.height!)) * r.int(450, 560)) });
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
    ctx.drawImage(img, (-img.width * scale) / 2, (-img.height * scale) / 2, img.width * scale, img.height * scale);
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
  if (style.capture === 'cmyk') return { bytes: await pipeline.toColourspace('cmyk').jpeg({ quality: style.jpeg_quality }).toBuffer(), content_type: 'image/jpeg' };
  return { bytes: await pipeline.jpeg({ quality: style.jpeg_quality }).toBuffer(), content_type: 'image/jpeg' };
}

/** One card in a held-out layout and capture (see `GenerateOptions.styles`). */
async function heldOutCard(r: Rng, i: number, fonts: string[], entity: ClearinghouseEntity, brand: Brand, truth: CardTruth, first: string, middle: string | null, last: string): Promise<GeneratedCard> {
  const layout = HELD_OUT_LAYOUTS[i % HELD_OUT_LAYOUTS.length];
  const how = (['desk', 'frame', 'pair', 'desk', 'scan'] as const)[Math.floor(i / HELD_OUT_LAYOUTS.length) % 5];
  const style: CardStyle = {
    font: fonts[i % fonts.length],
    layout,
    labels: r.pick(['colon', 'plain', 'caps'] as const),
    capture: how,
    rotation_deg: how === 'desk' ? Math.round(r.range(-8, 8) * 10) / 10 : 0,
    exif_orientation: null,
    blur_sigma: how === 'desk' ? Math.round(r.range(0, 0.8) * 10) / 10 : 0,
    noise: 0,
    jpeg_quality: how === 'scan' ? null : r.int(60, 90),
  };
  // Real cards print the name as the member reads it, first name first.
  const name = r.chance(0.5) ? truth.member_name : truth.member_name.split(' ').map((p) => p[0] + p.slice(1).toLowerCase()).join(' ');
  const dependents = Array.from({ length: layout === 'header-footer' ? r.int(0, 3) : 0 }, () => `${r.pick(FIRST_NAMES.filter((f) => f !== first))} ${last}`);
  const prefix = r.letters(3);
  const brandName = brand.marks[0].join(' ');
  const branded = truth.plan_name.toLowerCase().includes(brandName.split(' ')[0].toLowerCase());
  const plan = layout === 'header-footer' ? (branded ? truth.plan_name : `${brandName} ${truth.plan_name}`) : r.pick(['Health Savings Plan', truth.plan_name]);
  if (layout === 'prefix-columns') {
    truth.member_id = `${prefix}${r.digits(9)}`;
    if (r.chance(0.5)) truth.rx_pcn = '';
  } else if (r.chance(0.5)) truth.rx_group = '';
  truth.plan_name = layout === 'header-footer' ? plan : plan.toUpperCase();
  const print: HeldOutPrint = { name, dependents, prefix, suffix: r.pick(['01', '02', '00']), plan, payerId: entity.payer_id };
  const face = renderHeldOutFace(r, style, brand, truth, print);
  if (middle === null) truth.member_name = `${first} ${last}`;
  const { bytes, content_type } = await capture(r, style, face);
  const file = `held-${String(i + 1).padStart(3, '0')}.front.${content_type === 'image/png' ? 'png' : 'jpg'}`;
  return { file, content_type, bytes, truth, payer_entity_id: entity.id, style };
}

/** Captures each family is seen through, in turn (see `CardStyle.capture`). */
const FAMILY_CAPTURES = ['scan', 'photo', 'glare', 'flatbed', 'desk', 'screenshot', 'lowres', 'cmyk', 'frame'] as const;

/** Card i of a split: family i mod N, a capture that turns with both i and the family. */
async function familyCard(split: Split, i: number, seed: number, fonts: string[]): Promise<GeneratedCard> {
  const families = familiesOf(split);
  const index = i % families.length;
  const family = families[index];
  // One stream per card and split: the tuning and held-out sets of a seed share no card.
  const r = rngFrom(seed * 100_003 + i * 7919 + (split === 'held-out' ? 55_529 : 0));
  const d = cardData(r, family.kind, fonts);
  const face = renderFamily(family, r, d).toBuffer('image/png');
  const how = FAMILY_CAPTURES[(Math.floor(i / families.length) + index) % FAMILY_CAPTURES.length];
  const tilted = how === 'photo' || how === 'glare' || how === 'desk';
  const style: CardStyle = {
    font: d.payer.font,
    layout: 'inline',
    labels: 'plain',
    capture: how,
    rotation_deg: tilted ? Math.round(r.range(-9, 9) * 10) / 10 : how === 'flatbed' ? Math.round(r.range(-2, 2) * 10) / 10 : 0,
    exif_orientation: how === 'photo' && r.chance(0.25) ? r.pick([6, 8, 3]) : null,
    blur_sigma: tilted || how === 'lowres' ? Math.round(r.range(0, 1.1) * 10) / 10 : 0,
    noise: how === 'photo' ? Math.round(r.range(0, 24)) : 0,
    jpeg_quality: how === 'scan' || how === 'screenshot' ? (r.chance(0.5) ? null : r.int(70, 92)) : r.int(45, 88),
    family: family.name,
  };
  const { bytes, content_type } = await capture(r, style, face);
  const file = `${split === 'held-out' ? 'ho' : 'tu'}-${String(i + 1).padStart(3, '0')}-${family.name}.front.${content_type === 'image/png' ? 'png' : 'jpg'}`;
  return { file, content_type, bytes, truth: d.truth, payer_entity_id: d.entity?.id ?? '', style };
}

export async function generateCards(options: GenerateOptions = {}): Promise<GeneratedCard[]> {
  const count = options.count ?? 48;
  if (options.families) {
    const fonts = availableFonts();
    checkDisplayFonts();
    const out: GeneratedCard[] = [];
    for (let i = 0; i < count; i++) out.push(await familyCard(options.families, i, options.seed ?? 7, fonts));
    return out;
  }
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
    if (options.styles === 'held-out') {
      cards.push(await heldOutCard(r, i, fonts, entity, brand, truth, first, middle, last));
      continue;
    }
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

/** Writes the images and `truth.json` (file, layout family where there is one, truth, payer entity id and style). */
export async function writeCardSet(dir: string, options: GenerateOptions = {}): Promise<GeneratedCard[]> {
  const cards = await generateCards(options);
  fs.mkdirSync(dir, { recursive: true });
  for (const card of cards) fs.writeFileSync(path.join(dir, card.file), card.bytes);
  const truth = cards.map(({ file, content_type, truth: fields, payer_entity_id, style }) => ({ file, content_type, ...(style.family ? { family: style.family } : {}), truth: fields, payer_entity_id, style }));
  fs.writeFileSync(path.join(dir, 'truth.json'), `${JSON.stringify(truth, null, 2)}\n`);
  return cards;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      count: { type: 'string', default: '48' },
      seed: { type: 'string', default: '7' },
      styles: { type: 'string', default: 'classic' },
      families: { type: 'string' },
    },
  });
  if (!values.out) {
    console.error('Usage: tsx scripts/generate-cards.ts --out DIR [--count 48] [--seed 7] [--styles classic|held-out | --families tuning|held-out]');
    process.exit(2);
  }
  const count = Number(values.count);
  const seed = Number(values.seed);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed)) {
    console.error('--count must be a positive whole number and --seed a whole number.');
    process.exit(2);
  }
  if (values.styles !== 'classic' && values.styles !== 'held-out') {
    console.error('--styles must be classic or held-out.');
    process.exit(2);
  }
  if (values.families !== undefined && values.families !== 'tuning' && values.families !== 'held-out') {
    console.error('--families must be tuning or held-out.');
    process.exit(2);
  }
  const cards = await writeCardSet(path.resolve(values.out), { count, seed, styles: values.styles, families: values.families });
  console.log(`Wrote ${cards.length} cards and truth.json to ${path.resolve(values.out)}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
