/**
 * The card generator's layout families: each one a way real US insurance cards are printed
 * (a Medicare card, a Blue plan's suitcase card, a pharmacy-only PBM card, a bilingual
 * Medicaid card…), with its own rendering recipe. Each family is declared `tuning` (the
 * reader may be tuned on it) or `held-out` (it is only measured on): whole kinds of card are
 * held out, not variants of tuned ones, so the held-out figure says how the reader does on
 * cards it has not seen.
 *
 * Truth is kept honest by construction: a family prints values through `Painter.value`,
 * which records the field as printed; every field not printed is '' in the truth.
 */
import { type Canvas, createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import type { ClearinghouseEntity, ExtractedFieldName } from '../src/shared/contract';
import { directoryEntities } from '../src/shared/payers/payer-directory';

export type CardTruth = Record<ExtractedFieldName, string>;

/** mulberry32: small, fast and the same everywhere, so a seed names one card set. */
export function rngFrom(seed: number) {
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
export type Rng = ReturnType<typeof rngFrom>;

export const CARD_W = 1012;
export const CARD_H = 638;

export const FIRST_NAMES = ['JAMES', 'MARIA', 'ROBERT', 'LINDA', 'MICHAEL', 'PATRICIA', 'DAVID', 'JENNIFER', 'CARLOS', 'ELIZABETH', 'KEVIN', 'SUSAN', 'ANTHONY', 'NGUYEN', 'PRIYA', 'OLIVIA', 'WILLIAM', 'SOFIA', 'DANIEL', 'GRACE', 'TERESA', 'MARCUS', 'HANNAH', 'LUIS'];
export const LAST_NAMES = ['SMITH', 'GARCIA', 'JOHNSON', 'MARTINEZ', 'BROWN', 'DAVIS', 'RODRIGUEZ', 'WILSON', 'ANDERSON', 'THOMPSON', 'PATEL', 'NGUYEN', 'KOWALSKI', 'OBRIEN', 'HERNANDEZ', 'WASHINGTON', 'MORALES', 'FITZGERALD', 'CHEN', 'OKAFOR', 'LINDQVIST', 'BECKER'];

/** The kinds of payer a family draws from the directory. */
export type PayerKind = 'commercial' | 'blue' | 'medicare' | 'advantage' | 'medicaid' | 'dental' | 'vision' | 'pbm';

const STATES: Record<string, string> = {
  Alabama: 'AL', Alaska: 'AK', Arizona: 'AZ', Arkansas: 'AR', California: 'CA', Colorado: 'CO', Connecticut: 'CT', Delaware: 'DE', Florida: 'FL', Georgia: 'GA',
  Hawaii: 'HI', Idaho: 'ID', Illinois: 'IL', Indiana: 'IN', Iowa: 'IA', Kansas: 'KS', Kentucky: 'KY', Louisiana: 'LA', Maine: 'ME', Maryland: 'MD',
  Massachusetts: 'MA', Michigan: 'MI', Minnesota: 'MN', Mississippi: 'MS', Missouri: 'MO', Montana: 'MT', Nebraska: 'NE', Nevada: 'NV', 'New Hampshire': 'NH', 'New Jersey': 'NJ',
  'New Mexico': 'NM', 'New York': 'NY', 'North Carolina': 'NC', 'North Dakota': 'ND', Ohio: 'OH', Oklahoma: 'OK', Oregon: 'OR', Pennsylvania: 'PA', 'Rhode Island': 'RI', 'South Carolina': 'SC',
  'South Dakota': 'SD', Tennessee: 'TN', Texas: 'TX', Utah: 'UT', Vermont: 'VT', Virginia: 'VA', Washington: 'WA', 'West Virginia': 'WV', Wisconsin: 'WI', Wyoming: 'WY',
};
/** Longest first, so "West Virginia" is found before "Virginia". */
const STATE_NAMES = Object.keys(STATES).sort((a, b) => b.length - a.length);

export function stateOf(name: string): string | null {
  return STATE_NAMES.find((s) => new RegExp(`\\b${s}\\b`, 'i').test(name)) ?? null;
}

const IS = {
  medicare: /^Medicare (?!Advantage|Durable|Home|Florida Blue)/,
  advantage: /medicare advantage|medicare blue|dual advantage|senior|\bMA\b/i,
  medicaid: /medicaid|medi-cal|chip\b/i,
  blue: /blue ?cross|blue ?shield|\bbcbs\b/i,
  dental: /dental|delta dental/i,
  vision: /vision|\bvsp\b|eyemed/i,
};

let pools: Record<PayerKind, ClearinghouseEntity[]> | null = null;

/** The directory's payers by kind (pbm is empty: a pharmacy-only card names no medical payer). */
export function payerPools(): Record<PayerKind, ClearinghouseEntity[]> {
  if (pools) return pools;
  const all = directoryEntities();
  const blue = all.filter((e) => IS.blue.test(e.name) && !IS.medicaid.test(e.name) && !IS.dental.test(e.name) && stateOf(e.name) !== null);
  const commercial = all.filter((e) => !Object.values(IS).some((re) => re.test(e.name)) && !/medicare|railroad|workers|comp\b|auto|liability|tricare|champva|va\b/i.test(e.name) && e.name.length <= 48);
  pools = {
    commercial,
    blue,
    medicare: all.filter((e) => IS.medicare.test(e.name)),
    advantage: [...all.filter((e) => IS.advantage.test(e.name) && !IS.medicaid.test(e.name) && e.name.length <= 48), ...commercial.filter((e) => /humana|aetna|united|wellcare|devoted|scan|alignment|clover/i.test(e.name))],
    // CMS itself is no state's programme: a Medicaid card prints the state's or its plan's name.
    medicaid: all.filter((e) => IS.medicaid.test(e.name) && !/medicare/i.test(e.name) && e.name.length <= 52),
    dental: all.filter((e) => IS.dental.test(e.name)),
    vision: all.filter((e) => IS.vision.test(e.name) && !IS.dental.test(e.name)),
    pbm: [],
  };
  return pools;
}

/** Pharmacy benefit managers as their cards print them, with the BINs and PCNs they use. */
const PBMS = [
  { name: 'Express Scripts', bins: ['003858', '610014'], pcns: ['A4', 'MA', 'CG'], web: 'express-scripts.com' },
  { name: 'CVS Caremark', bins: ['004336', '610591', '610415'], pcns: ['ADV', 'MEDDADV', 'PCS'], web: 'caremark.com' },
  { name: 'OptumRx', bins: ['610279', '610494'], pcns: ['9999', '03200000'], web: 'optumrx.com' },
  { name: 'MedImpact', bins: ['003585'], pcns: ['ASPROD1', 'MEDDPRIME'], web: 'medimpact.com' },
  { name: 'Navitus Health Solutions', bins: ['610602'], pcns: ['NVT', 'MCD'], web: 'navitus.com' },
  { name: 'Prime Therapeutics', bins: ['011552', '610455'], pcns: ['BCTX', 'MNBC', 'IRX'], web: 'myprime.com' },
] as const;

const EMPLOYERS = ['Contoso Manufacturing', 'Fabrikam Foods', 'Northwind Traders', 'Tailspin Logistics', 'Woodgrove Schools', 'Litware County', 'Adatum Hospital Group', 'Proseware Inc.'];

/** Notices printed beside a member's name: prior approval, referrals, identification. */
const NOTICES = [
  'Prior approval required for specialist visits.',
  'Referral from your PCP is required before specialist care.',
  'Show this card and a photo ID at every visit.',
  'Notice: preauthorization needed for imaging and surgery.',
];

const SENTENCES = [
  'Prior authorization required for inpatient admissions and advanced imaging.',
  'Present this card at the time of service. Possession does not guarantee eligibility.',
  'Precertification is required for all non-emergency hospital admissions.',
  'In an emergency go to the nearest emergency room or call 911.',
  'Members: see your plan documents for covered services and exclusions.',
  'This card does not prove membership or guarantee coverage.',
  'Providers must obtain prior approval for out-of-network referrals.',
];

export interface Painted {
  font: string;
  /** The payer's own name as the card prints it: one or two logo lines. */
  logo: [string, string?];
  website: string;
  phone: string;
  state: string | null;
  color: string;
}

export interface CardData {
  entity: ClearinghouseEntity | null;
  kind: PayerKind;
  truth: CardTruth;
  /** The member's name as printed (truth holds FIRST [M] LAST). */
  printedName: string;
  first: string;
  last: string;
  /** Blue plans print the id's three-letter prefix apart from the number; '' elsewhere. */
  prefix: string;
  suffix: string;
  pbm: (typeof PBMS)[number];
  employer: string;
  pcp: string;
  effective: string;
  issuer: string;
  payer: Painted;
  plans: string[];
}

const title = (s: string) => s.replace(/[A-Z]+/gi, (w) => w[0].toUpperCase() + w.slice(1).toLowerCase());

function printedName(r: Rng, first: string, middle: string | null, last: string): string {
  const mid = middle ? ` ${middle}` : '';
  const style = r.int(0, 3);
  if (style === 0) return `${first}${mid} ${last}`;
  if (style === 1) return `${title(first)}${mid} ${title(last)}`;
  if (style === 2) return `${last}, ${first}${mid}`;
  return `${last}/${first}`;
}

/** MBI: CMS's character positions (numeric, alpha, alphanumeric…), letters without S L O I B Z. */
export function mbi(r: Rng): string {
  const alpha = () => r.letters(1);
  const an = () => (r.chance(0.5) ? alpha() : r.digits(1));
  return `${r.int(1, 9)}${alpha()}${an()}${r.digits(1)}${alpha()}${an()}${r.digits(1)}${alpha()}${alpha()}${r.digits(2)}`;
}
export const MBI_SHAPE = /^[1-9][AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y0-9][0-9][AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y0-9][0-9][AC-HJKMNP-RT-Y]{2}[0-9]{2}$/;

/** How a payer prints its own name: brand and region on two lines, "BCBS", capitals, a website. */
function paint(r: Rng, entity: ClearinghouseEntity | null, kind: PayerKind, pbm: CardData['pbm'], fonts: string[]): Painted {
  const font = r.pick(fonts);
  const color = r.pick(['#0b5ca8', '#7d3f98', '#00759a', '#002677', '#3a7d22', '#c8102e', '#009ca6', '#f58025', '#1f3864', '#5b2c6f']);
  const phone = `1-${r.pick(['800', '888', '877', '866', '855'])}-${r.digits(3)}-${r.digits(4)}`;
  if (!entity) return { font, logo: [pbm.name], website: pbm.web, phone, state: null, color };
  const state = stateOf(entity.name);
  const name = entity.name.replace(/\s*\(.*\)\s*/g, ' ').replace(/\s+-\s+.*$/, '').trim();
  const words = name.split(/\s+/);
  let logo: [string, string?] = [name];
  let web = `${words.slice(0, 2).join('').toLowerCase().replace(/[^a-z0-9]/g, '')}.com`;
  if (kind === 'blue' && state) {
    const brand = name.slice(0, name.search(new RegExp(`\\s*(of\\s+)?${state}`, 'i'))).trim() || 'Blue Cross Blue Shield';
    const abbr = STATES[state].toLowerCase();
    logo = r.pick<[string, string?]>([
      [brand, `of ${state}`],
      [brand.replace(/Blue ?Cross Blue ?Shield/i, 'BCBS'), state],
      [brand.replace(/Blue Cross Blue Shield/i, 'BlueCross BlueShield'), `of ${state}`],
    ]);
    web = `bcbs${abbr}.com`;
  } else if (state && words.length > 2) {
    const at = name.search(new RegExp(`\\s*(of\\s+)?${state}`, 'i'));
    if (at > 3) logo = [name.slice(0, at).trim(), name.slice(at).trim()];
  } else if (words.length > 3) {
    const cut = Math.ceil(words.length / 2);
    logo = [words.slice(0, cut).join(' '), words.slice(cut).join(' ')];
  }
  if (r.chance(0.25)) logo = logo.map((l) => l?.toUpperCase()) as [string, string?];
  return { font, logo, website: r.chance(0.4) ? `www.${web}` : web, phone, state, color };
}

const PLANS: Record<PayerKind, string[]> = {
  commercial: ['Choice Plus PPO', 'Open Access Plus', 'Select HMO', 'Gold 1500 EPO', 'Bronze HSA 6000', 'POS II', 'Premier PPO', 'Silver 70 HMO'],
  blue: ['Blue Choice PPO', 'BlueEssentials', 'Blue Advantage HMO', 'BlueCard PPO', 'Blue Select', 'Blue Premier'],
  medicare: [],
  advantage: ['Medicare Advantage PPO', 'Gold Plus HMO', 'Dual Complete HMO D-SNP', 'Medicare Value PPO', 'Senior Choice HMO'],
  medicaid: ['Medical Assistance', 'STAR Kids', 'Healthy Families', 'Community Plan', 'Family Care'],
  dental: ['Dental PPO', 'DHMO Plus', 'PPO Plus Premier', 'Dental Select'],
  vision: ['Vision Choice', 'Select Plan', 'EyeCare Plus', 'Vision Plan B'],
  pbm: ['Prescription Drug Plan', 'Rx Plan 3-Tier', 'Pharmacy Benefit'],
};

function memberId(r: Rng, kind: PayerKind): { id: string; prefix: string } {
  if (kind === 'medicare') return { id: mbi(r), prefix: '' };
  if (kind === 'blue') {
    const prefix = r.letters(3, 'ABCDEFGHJKLMNPQRSTUVWXYZ');
    return { id: `${prefix}${r.pick([r.digits(9), `${r.letters(1)}${r.digits(8)}`, r.digits(8)])}`, prefix };
  }
  const shapes: (() => string)[] = [
    () => `W${r.digits(9)}`,
    () => r.digits(9),
    () => `${r.letters(2)}${r.digits(8)}`,
    () => `U${r.digits(10)}`,
    () => `H${r.digits(8)}`,
    () => `${r.digits(8)}${r.digits(2)}`,
    () => `M${r.digits(7)}${r.letters(1)}`,
  ];
  if (kind === 'medicaid') return { id: r.pick([() => r.digits(r.pick([8, 10, 11, 12])), () => `${r.letters(2)}${r.digits(7)}`])(), prefix: '' };
  return { id: r.pick(shapes)(), prefix: '' };
}

/** One card's data: who, which payer, what the card would print in every field. */
export function cardData(r: Rng, kind: PayerKind, fonts: string[]): CardData {
  const pool = payerPools()[kind];
  const entity = kind === 'pbm' ? null : r.pick(pool);
  const first = r.pick(FIRST_NAMES);
  const last = r.pick(LAST_NAMES);
  const middle = r.chance(0.35) ? r.letters(1) : null;
  const name = printedName(r, first, middle, last);
  const pbm = r.pick(PBMS);
  const { id, prefix } = memberId(r, kind);
  const truth: CardTruth = {
    member_name: name.includes('/') ? `${first} ${last}` : `${first}${middle ? ` ${middle}` : ''} ${last}`,
    member_id: id,
    group_number: r.pick([() => r.digits(r.pick([5, 6, 7, 8])), () => `${r.letters(1)}${r.digits(6)}`, () => `${r.digits(6)}-${r.digits(3)}`])(),
    plan_name: r.pick(PLANS[kind].length ? PLANS[kind] : ['']),
    rx_bin: r.pick(pbm.bins),
    rx_pcn: r.pick(pbm.pcns),
    rx_group: r.pick([() => `RX${r.digits(4)}`, () => `${r.letters(3, 'ABCDEFGHKMNPRSTUWX')}${r.digits(3)}`, () => r.digits(7), () => `${r.letters(2)}${r.digits(2)}${r.letters(1)}`])(),
    // Medicare cards name no contractor: any directory "Medicare …" entity is the payer.
    payer_name: kind === 'medicare' ? 'Medicare' : (entity?.name ?? ''),
  };
  const month = r.int(1, 12);
  return {
    entity,
    kind,
    truth,
    printedName: name,
    first,
    last,
    prefix,
    suffix: r.pick(['01', '02', '03', '00']),
    pbm,
    employer: r.pick(EMPLOYERS),
    pcp: `Dr. ${title(r.pick(FIRST_NAMES))} ${title(r.pick(LAST_NAMES))}`,
    effective: `${String(month).padStart(2, '0')}/01/${r.int(2019, 2026)}`,
    issuer: `(80840) ${r.digits(10)}`,
    payer: paint(r, entity, kind, pbm, fonts),
    plans: PLANS[kind],
  };
}

type Field = ExtractedFieldName;

/** A thin layer over the canvas that records which truth fields the card prints. */
export class Painter {
  readonly ctx: SKRSContext2D;
  readonly printed = new Set<Field>();
  /** Every string printed on the card, in order: what a family prints, for its tests. */
  readonly drawn: string[] = [];
  constructor(
    readonly canvas: Canvas,
    readonly font: string,
    readonly d: CardData,
  ) {
    this.ctx = canvas.getContext('2d');
  }
  get w(): number {
    return this.canvas.width;
  }
  get h(): number {
    return this.canvas.height;
  }
  fill(color: string, x = 0, y = 0, w = this.w, h = this.h): void {
    this.ctx.fillStyle = color;
    this.ctx.fillRect(x, y, w, h);
  }
  /** Text at (x, baseline y), shrunk to fit maxW; returns the width drawn. */
  text(s: string, x: number, y: number, size: number, o: { color?: string; bold?: boolean; italic?: boolean; font?: string; maxW?: number; align?: 'left' | 'right' | 'center' } = {}): number {
    if (!s) return 0;
    this.drawn.push(s);
    const ctx = this.ctx;
    const face = o.font ?? this.font;
    const set = (px: number) => (ctx.font = `${o.italic ? 'italic ' : ''}${o.bold ? 'bold ' : ''}${px}px "${face}"`);
    set(size);
    const maxW = o.maxW ?? (o.align === 'right' ? x - 10 : this.w - x - 14);
    let width = ctx.measureText(s).width;
    if (width > maxW) {
      size = Math.max(12, Math.floor((size * maxW) / width));
      set(size);
      width = ctx.measureText(s).width;
    }
    ctx.fillStyle = o.color ?? '#111111';
    const left = o.align === 'right' ? x - width : o.align === 'center' ? x - width / 2 : x;
    ctx.fillText(s, left, y);
    return width;
  }
  /** A field's value: printed and so part of the truth. */
  value(field: Field, s: string, x: number, y: number, size: number, o: Parameters<Painter['text']>[4] = {}): number {
    this.printed.add(field);
    // The plan is whatever words the card prints for it (a "Plan G", a plan in capitals).
    if (field === 'plan_name') this.d.truth.plan_name = s;
    return this.text(s, x, y, size, o);
  }
  mark(field: Field): void {
    this.printed.add(field);
  }
  rule(x0: number, x1: number, y: number, color: string, t = 3): void {
    this.fill(color, x0, y, x1 - x0, t);
  }
  box(x: number, y: number, w: number, h: number, color: string, t = 2): void {
    this.ctx.strokeStyle = color;
    this.ctx.lineWidth = t;
    this.ctx.strokeRect(x, y, w, h);
  }
  /** The payer's logo lines (this is where the payer's name is printed). */
  logo(x: number, y: number, size: number, o: { color?: string; font?: string; italic?: boolean; align?: 'left' | 'right' | 'center'; maxW?: number } = {}): number {
    const [a, b] = this.d.payer.logo;
    this.printed.add('payer_name');
    // A logo keeps to its corner: the other half of the header holds the plan or a mark.
    const maxW = o.maxW ?? Math.round(this.w * 0.56);
    this.text(a, x, y, size, { bold: true, color: o.color ?? this.d.payer.color, font: o.font, italic: o.italic, align: o.align, maxW });
    if (b) this.text(b, x, y + size * 0.8, Math.round(size * 0.55), { bold: true, color: o.color ?? this.d.payer.color, font: o.font, align: o.align, maxW });
    return b ? size * 0.8 + size * 0.55 : size;
  }
  vertical(s: string, x: number, y: number, size: number, color: string, bold = true): void {
    this.ctx.save();
    this.ctx.translate(x, y);
    this.ctx.rotate(-Math.PI / 2);
    this.text(s, 0, 0, size, { color, bold, maxW: this.h - 40 });
    this.ctx.restore();
  }
  /** Caption above value. */
  below(field: Field, caption: string, value: string, x: number, y: number, o: { cap?: number; size?: number; capColor?: string; maxW?: number; bold?: boolean } = {}): void {
    this.text(caption, x, y, o.cap ?? 20, { color: o.capColor ?? '#555555', maxW: o.maxW });
    this.value(field, value, x, y + (o.size ?? 30) + 6, o.size ?? 30, { bold: o.bold, maxW: o.maxW });
  }
  /** Caption then value on one line; returns the next line's y. */
  inline(field: Field, caption: string, value: string, x: number, y: number, o: { cap?: number; size?: number; capColor?: string; valueX?: number; maxW?: number; bold?: boolean } = {}): number {
    const cw = this.text(caption, x, y, o.cap ?? 24, { color: o.capColor ?? '#444444' });
    const vx = o.valueX ?? x + cw + 14;
    this.value(field, value, vx, y, o.size ?? 30, { bold: o.bold, maxW: o.maxW });
    return y + Math.max(o.size ?? 30, o.cap ?? 24) + 18;
  }
  smallPrint(lines: string[], x: number, y: number, size = 17, color = '#555555', step = size + 5): number {
    for (const line of lines) {
      this.text(line, x, y, size, { color });
      y += step;
    }
    return y;
  }
}

/** A name printed as "Name" caption picks: words cards use. */
const CAP = {
  name: ['Member', 'Name', 'Member Name', 'Subscriber', 'Enrollee', 'MEMBER NAME'],
  id: ['Member ID', 'ID#', 'ID', 'Subscriber ID', 'Identification Number', 'Member #', 'ID No.'],
  group: ['Group', 'Group #', 'GRP', 'Group No.', 'Group Number'],
  plan: ['Plan', 'Plan Name', 'Product', 'Plan Type', 'Benefit Plan'],
  bin: ['RxBIN', 'BIN', 'Rx BIN', 'BIN#'],
  pcn: ['RxPCN', 'PCN', 'Rx PCN'],
  grp: ['RxGRP', 'RxGrp', 'Rx Group', 'RXGRP'],
};

function copayLines(r: Rng): [string, string][] {
  return [
    ['PCP', `$${r.pick([10, 15, 20, 25, 30])}`],
    ['Specialist', `$${r.pick([35, 40, 50, 60])}`],
    ['Urgent Care', `$${r.pick([50, 75, 100])}`],
    ['ER', `$${r.pick([150, 250, 350])}`],
  ];
}

function footerLines(r: Rng, d: CardData): string[] {
  return [
    r.pick([`Member Services: ${d.payer.phone}`, `Customer Service ${d.payer.phone} (TTY 711)`, `Questions? Call ${d.payer.phone}`]),
    r.pick([d.payer.website, `Visit ${d.payer.website}`, `Providers: ${d.payer.website}/providers`]),
  ];
}

function rxBlock(p: Painter, r: Rng, x: number, y: number, o: { size?: number; cap?: number; grp?: boolean; pcn?: boolean; step?: number; valueX?: number } = {}): number {
  const d = p.d;
  const step = o.step ?? 40;
  const size = o.size ?? 28;
  const rows: [Field, string, string][] = [['rx_bin', r.pick(CAP.bin), d.truth.rx_bin]];
  if (o.pcn ?? true) rows.push(['rx_pcn', r.pick(CAP.pcn), d.truth.rx_pcn]);
  if (o.grp ?? true) rows.push(['rx_group', r.pick(CAP.grp), d.truth.rx_group]);
  rows.forEach(([f, c, v], i) => p.inline(f, `${c}:`, v, x, y + i * step, { cap: o.cap ?? 22, size, valueX: o.valueX }));
  return y + rows.length * step;
}

export type Split = 'tuning' | 'held-out';

export interface Family {
  name: string;
  split: Split;
  /** What real cards the family models. */
  models: string;
  kind: PayerKind;
  /** Portrait cards are printed taller than wide. */
  portrait?: boolean;
  draw(p: Painter, r: Rng): void;
}

const bg = (r: Rng) => r.pick(['#ffffff', '#f7f9fc', '#fdfbf4', '#f3f7f3', '#fbfbff']);

/** The families, in a fixed order: card i of a split uses family i mod N of that split. */
export const FAMILIES: readonly Family[] = [
  {
    name: 'payer-header-inline',
    split: 'tuning',
    models: 'commercial card: payer logo top left, plan top right, labelled rows, Rx block bottom right',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.logo(40, 76, 48);
      p.value('plan_name', d.truth.plan_name, CARD_W - 40, 64, 28, { bold: true, align: 'right', maxW: 380 });
      let y = 190;
      y = p.inline('member_name', `${r.pick(CAP.name)}:`, d.printedName, 40, y);
      y = p.inline('member_id', `${r.pick(CAP.id)}:`, d.truth.member_id, 40, y);
      p.inline('group_number', `${r.pick(CAP.group)}:`, d.truth.group_number, 40, y);
      rxBlock(p, r, 600, 440);
      p.smallPrint(footerLines(r, d), 40, 590, 18);
    },
  },
  {
    name: 'serif-logo-stacked',
    split: 'tuning',
    models: 'serif wordmark, captions above values in a column, Rx stacked on the right',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.logo(40, 80, 54, { font: r.pick(['C059', 'P052', 'Liberation Serif']) });
      p.rule(40, CARD_W - 40, 140, d.payer.color);
      p.below('member_name', r.pick(CAP.name), d.printedName, 40, 185);
      p.below('member_id', r.pick(CAP.id), d.truth.member_id, 40, 275);
      p.below('group_number', r.pick(CAP.group), d.truth.group_number, 40, 365);
      p.below('plan_name', r.pick(CAP.plan), d.truth.plan_name, 40, 455, { maxW: 500 });
      p.below('rx_bin', r.pick(CAP.bin), d.truth.rx_bin, 620, 185);
      p.below('rx_pcn', r.pick(CAP.pcn), d.truth.rx_pcn, 620, 275);
      p.below('rx_group', r.pick(CAP.grp), d.truth.rx_group, 620, 365);
      p.smallPrint([d.payer.website, `Member Services ${d.payer.phone}`], 620, 560, 18);
    },
  },
  {
    name: 'knockout-band',
    split: 'tuning',
    models: 'logo knocked out white on a colour band, table of values aligned in a column, Rx in a grey strip',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill('#ffffff');
      p.fill(d.payer.color, 0, 0, CARD_W, 124);
      p.logo(40, 62, 46, { color: '#ffffff' });
      const vx = 330;
      let y = 190;
      y = p.inline('member_name', r.pick(CAP.name), d.printedName, 40, y, { valueX: vx });
      y = p.inline('member_id', r.pick(CAP.id), d.truth.member_id, 40, y, { valueX: vx });
      y = p.inline('group_number', r.pick(CAP.group), d.truth.group_number, 40, y, { valueX: vx });
      p.inline('plan_name', r.pick(CAP.plan), d.truth.plan_name, 40, y, { valueX: vx });
      p.fill('#e6e6e6', 0, 500, CARD_W, 64);
      let x = 40;
      for (const [f, c, v] of [['rx_bin', 'BIN', d.truth.rx_bin], ['rx_pcn', 'PCN', d.truth.rx_pcn], ['rx_group', 'GRP', d.truth.rx_group]] as [Field, string, string][]) {
        const cw = p.text(c, x, 543, 22, { color: '#444444', bold: true });
        x += cw + 10 + p.value(f, v, x + cw + 10, 543, 26) + 48;
      }
      p.text(`${d.payer.phone}  ·  ${d.payer.website}`, 40, 610, 18, { color: '#555555' });
    },
  },
  {
    name: 'copay-two-column',
    split: 'tuning',
    models: 'fields left, a two-column copay table right (PCP / Specialist / Urgent Care / ER), no Rx group',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.logo(40, 72, 44);
      let y = 170;
      y = p.inline('member_name', `${r.pick(CAP.name)}:`, d.printedName, 40, y, { size: 28, maxW: 360 });
      y = p.inline('member_id', `${r.pick(CAP.id)}:`, d.truth.member_id, 40, y, { size: 28 });
      y = p.inline('group_number', `${r.pick(CAP.group)}:`, d.truth.group_number, 40, y, { size: 28 });
      p.value('plan_name', d.truth.plan_name, 40, y + 6, 28, { bold: true, maxW: 480 });
      rxBlock(p, r, 40, 430, { grp: false, step: 38 });
      p.box(600, 160, 370, 250, '#888888');
      p.text('Copays', 620, 196, 24, { bold: true, color: d.payer.color });
      copayLines(r).forEach(([k, v], i) => {
        p.text(k, 620, 240 + i * 42, 24);
        p.text(v, 940, 240 + i * 42, 24, { align: 'right' });
      });
      p.smallPrint(footerLines(r, d), 600, 470, 18);
    },
  },
  {
    name: 'blue-suitcase-ppo',
    split: 'tuning',
    models: 'BlueCross BlueShield of <State> card: state in the logo, the suitcase "PPO" mark, prefix+digits id, bcbs<st>.com',
    kind: 'blue',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.logo(40, 70, 44, { color: '#0b5ca8' });
      // The suitcase: a rounded outline with a network word in it.
      p.box(840, 36, 130, 70, '#0b5ca8', 4);
      p.fill('#0b5ca8', 885, 24, 40, 12);
      p.text(r.pick(['PPO', 'PPOB', 'BC']), 905, 86, 36, { bold: true, color: '#0b5ca8', align: 'center' });
      p.below('member_name', r.pick(CAP.name), d.printedName, 40, 170);
      p.below('member_id', r.pick(['Identification Number', 'ID', 'Member ID']), d.truth.member_id, 40, 260, { bold: true });
      p.below('group_number', r.pick(CAP.group), d.truth.group_number, 40, 350);
      p.value('plan_name', d.truth.plan_name, 40, 455, 28, { bold: true, maxW: 500 });
      rxBlock(p, r, 600, 190, { step: 44 });
      p.smallPrint([d.payer.website, `Customer Service: ${d.payer.phone}`], 40, 560, 19);
    },
  },
  {
    name: 'blue-prefix-suffix',
    split: 'tuning',
    models: 'Blue plan id in columns: three-letter prefix, number, and a separate two-digit suffix (not part of the id)',
    kind: 'blue',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.logo(40, 68, 42, { color: '#1f5fa8' });
      p.rule(40, CARD_W - 40, 130, '#1f5fa8');
      p.below('member_name', 'Subscriber', d.printedName, 40, 170, { bold: true });
      p.text('Prefix', 40, 262, 20, { color: '#555555' });
      p.text('Identification #', 150, 262, 20, { color: '#555555' });
      p.text('Suffix', 420, 262, 20, { color: '#555555' });
      p.text(d.prefix, 40, 300, 30, { bold: true });
      p.text(d.truth.member_id.slice(d.prefix.length), 150, 300, 30, { bold: true });
      p.text(d.suffix, 420, 300, 30, { bold: true });
      p.mark('member_id');
      let y = 370;
      y = p.inline('group_number', 'Group #', d.truth.group_number, 40, y, { size: 28 });
      rxBlock(p, r, 40, y, { size: 26, step: 40, valueX: 220 });
      p.value('plan_name', d.truth.plan_name.toUpperCase(), 560, 200, 28, { bold: true, maxW: 410 });
      p.text('Shared In and Out of Network', 560, 236, 18, { color: '#444444' });
      p.smallPrint([d.payer.website, d.payer.phone], 560, 560, 19);
    },
  },
  {
    name: 'medicare-red-white-blue',
    split: 'tuning',
    models: "CMS's red-white-blue MEDICARE HEALTH INSURANCE card: name, 11-character MBI under \"Medicare Number\", Part A/B with dates",
    kind: 'medicare',
    draw(p, r) {
      const d = p.d;
      p.fill('#ffffff');
      p.fill('#c8102e', 0, 0, CARD_W, 26);
      p.fill('#1f3c88', 0, 26, CARD_W, 110);
      p.mark('payer_name');
      p.text('MEDICARE HEALTH INSURANCE', CARD_W / 2, 100, 44, { bold: true, color: '#ffffff', align: 'center' });
      p.text('Name/Nombre', 50, 190, 20, { color: '#333333' });
      p.value('member_name', d.truth.member_name, 50, 232, 34, { bold: true });
      p.text('Medicare Number/Número de Medicare', 50, 290, 20, { color: '#333333' });
      const id = d.truth.member_id;
      p.value('member_id', r.chance(0.6) ? `${id.slice(0, 4)}-${id.slice(4, 7)}-${id.slice(7)}` : id, 50, 332, 34, { bold: true, font: 'DejaVu Sans Mono' });
      p.text('Entitled to/Con derecho a', 50, 390, 20, { color: '#333333' });
      p.text('Coverage starts/Cobertura empieza', 520, 390, 20, { color: '#333333' });
      p.text('HOSPITAL (PART A)', 50, 432, 28, { bold: true });
      p.text(d.effective, 520, 432, 28, { bold: true });
      p.text('MEDICAL (PART B)', 50, 474, 28, { bold: true });
      p.text(d.effective, 520, 474, 28, { bold: true });
      p.fill('#c8102e', 0, CARD_H - 60, CARD_W, 8);
      p.text('Medicare.gov  1-800-MEDICARE (1-800-633-4227)', 50, CARD_H - 18, 20, { color: '#333333' });
    },
  },
  {
    name: 'medicare-advantage-hmo',
    split: 'tuning',
    models: 'Medicare Advantage plan card: payer logo, "Medicare Advantage" plan, CMS contract H-number, Part D Rx block, no group',
    kind: 'advantage',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.logo(40, 70, 44);
      p.text('MEDICARE', CARD_W - 40, 60, 24, { bold: true, color: '#1f3c88', align: 'right' });
      p.value('plan_name', d.truth.plan_name, 40, 170, 32, { bold: true, maxW: 600 });
      let y = 235;
      y = p.inline('member_name', `${r.pick(['Member', 'Name'])}:`, d.printedName, 40, y);
      y = p.inline('member_id', `${r.pick(['Member ID', 'ID'])}:`, d.truth.member_id, 40, y);
      p.text(`H${r.digits(4)}-${r.digits(3)}`, 40, y, 22, { color: '#444444' });
      p.text('PCP:', 40, y + 40, 22, { color: '#444444' });
      p.text(d.pcp, 100, y + 40, 22);
      rxBlock(p, r, 620, 235, { step: 42 });
      p.text('MedicareRx', 620, 200, 24, { bold: true, color: '#444444' });
      p.smallPrint([`Member Services ${d.payer.phone} TTY 711`, d.payer.website], 40, 570, 19);
    },
  },
  {
    name: 'pharmacy-only-pbm',
    split: 'tuning',
    models: 'pharmacy-only card from a PBM (Express Scripts, CVS Caremark, OptumRx…): BIN/PCN/GRP/ID only, no medical payer, no medical group',
    kind: 'pbm',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.text(d.pbm.name, 40, 78, 46, { bold: true, color: d.payer.color });
      p.text(r.pick(['Prescription Benefit', 'Pharmacy Card', 'Rx Member ID Card']), 40, 124, 26, { color: '#444444' });
      let y = 200;
      y = p.inline('member_name', `${r.pick(['Name', 'Member'])}:`, d.printedName, 40, y);
      y = p.inline('member_id', `${r.pick(['ID', 'RxID', 'Member ID'])}:`, d.truth.member_id, 40, y);
      rxBlock(p, r, 40, y + 10, { step: 46, valueX: 200 });
      p.smallPrint([`Pharmacist help desk ${d.payer.phone}`, d.pbm.web], 560, 560, 19);
    },
  },
  {
    name: 'ids-no-label',
    split: 'tuning',
    models: 'name and id printed large with no caption, group labelled, plan as a product line',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.logo(CARD_W - 40, 70, 42, { align: 'right' });
      p.value('member_name', d.printedName, 40, 200, 38, { bold: true, maxW: 560 });
      p.value('member_id', d.truth.member_id, 40, 258, 38, { font: 'DejaVu Sans Mono' });
      p.inline('group_number', `${r.pick(CAP.group)}`, d.truth.group_number, 40, 330, { size: 28 });
      p.value('plan_name', d.truth.plan_name, 40, 400, 28, { color: d.payer.color, bold: true, maxW: 520 });
      rxBlock(p, r, 620, 420, { size: 26 });
      p.smallPrint(footerLines(r, d), 40, 575, 18);
    },
  },
  {
    name: 'values-below-captions',
    split: 'tuning',
    models: 'grid of small capitalised captions with values on the line below, two columns',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.logo(40, 72, 44);
      const cells: [Field, string, string][] = [
        ['member_name', 'MEMBER NAME', d.printedName],
        ['member_id', r.pick(['MEMBER ID', 'ID NUMBER', 'SUBSCRIBER ID']), d.truth.member_id],
        ['group_number', 'GROUP NUMBER', d.truth.group_number],
        ['plan_name', 'PLAN', d.truth.plan_name],
        ['rx_bin', 'RX BIN', d.truth.rx_bin],
        ['rx_pcn', 'RX PCN', d.truth.rx_pcn],
        ['rx_group', 'RX GROUP', d.truth.rx_group],
        ['member_id', 'EFFECTIVE', d.effective],
      ];
      cells.forEach(([f, c, v], i) => {
        const x = i < 4 ? 40 : 560;
        const y = 160 + (i % 4) * 96;
        if (c === 'EFFECTIVE') {
          p.text(c, x, y, 18, { color: '#666666', bold: true });
          p.text(v, x, y + 36, 28);
        } else p.below(f, c, v, x, y, { cap: 18, size: 28, maxW: 440 });
      });
      p.text(`${d.payer.website}   ${d.payer.phone}`, 40, 610, 18, { color: '#555555' });
    },
  },
  {
    name: 'issuer-80840',
    split: 'tuning',
    models: 'WEDI-style card: "(80840)" issuer number line, card issuer, effective date, PCP line, then the member fields',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.logo(40, 66, 40);
      p.text(`Issuer ${d.issuer}`, 40, 150, 22, { color: '#444444' });
      let y = 200;
      y = p.inline('member_name', 'Member:', d.printedName, 40, y, { size: 28 });
      y = p.inline('member_id', 'ID:', d.truth.member_id, 40, y, { size: 28 });
      y = p.inline('group_number', 'Group:', d.truth.group_number, 40, y, { size: 28 });
      p.text(`Effective Date: ${d.effective}`, 40, y, 22, { color: '#444444' });
      p.text(`PCP: ${d.pcp}`, 40, y + 36, 22, { color: '#444444' });
      p.value('plan_name', d.truth.plan_name, CARD_W - 40, 66, 28, { bold: true, align: 'right', maxW: 360 });
      rxBlock(p, r, 620, 200, { step: 44, size: 26 });
      p.smallPrint(footerLines(r, d), 620, 560, 18);
    },
  },
  {
    name: 'script-logo',
    split: 'tuning',
    models: 'payer name only in a script wordmark, website under it, inline rows',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.logo(40, 80, 56, { font: 'Z003' });
      p.text(d.payer.website, 40, 150, 22, { color: '#555555' });
      let y = 220;
      y = p.inline('member_name', `${r.pick(CAP.name)}`, d.printedName, 40, y);
      y = p.inline('member_id', `${r.pick(CAP.id)}`, d.truth.member_id, 40, y);
      y = p.inline('group_number', `${r.pick(CAP.group)}`, d.truth.group_number, 40, y);
      if (r.chance(0.6)) p.inline('plan_name', `${r.pick(CAP.plan)}`, d.truth.plan_name, 40, y, { maxW: 520 });
      rxBlock(p, r, 620, 460, { size: 26 });
      p.text(d.payer.phone, 40, 610, 18, { color: '#555555' });
    },
  },
  {
    name: 'medicaid-state',
    split: 'tuning',
    models: 'state Medicaid programme card: state seal band, "Medicaid ID", date of issue, no group or Rx',
    kind: 'medicaid',
    draw(p, r) {
      const d = p.d;
      p.fill('#fbfbf4');
      p.fill(d.payer.color, 0, 0, CARD_W, 110);
      p.logo(40, 58, 38, { color: '#ffffff' });
      p.text(r.pick(['Medical Assistance Identification Card', 'Medicaid Benefits Card', 'Health Coverage ID']), 40, 160, 26, { bold: true, color: '#333333' });
      let y = 230;
      y = p.inline('member_name', 'Name:', d.printedName, 40, y);
      y = p.inline('member_id', r.pick(['Medicaid ID:', 'Recipient ID:', 'ID No:']), d.truth.member_id, 40, y);
      p.text(`Date of Issue: ${d.effective}`, 40, y, 22, { color: '#444444' });
      if (r.chance(0.5)) p.value('plan_name', d.truth.plan_name, 40, y + 60, 26, { bold: true, maxW: 500 });
      p.smallPrint(['This card is for identification only.', `Provider line ${d.payer.phone}`], 40, 560, 19);
    },
  },
  {
    name: 'prior-auth-notice',
    split: 'tuning',
    models: 'printed sentences above and beside the fields (prior authorization, emergency notice)',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.logo(40, 66, 40);
      const [s1, s2] = [r.pick(SENTENCES), r.pick(SENTENCES)];
      p.text(s1, 40, 140, 20, { color: '#333333', maxW: CARD_W - 80 });
      let y = 200;
      y = p.inline('member_name', `${r.pick(CAP.name)}:`, d.printedName, 40, y);
      y = p.inline('member_id', `${r.pick(CAP.id)}:`, d.truth.member_id, 40, y);
      y = p.inline('group_number', `${r.pick(CAP.group)}:`, d.truth.group_number, 40, y);
      p.value('plan_name', d.truth.plan_name, 40, y + 6, 28, { bold: true, maxW: 520 });
      rxBlock(p, r, 620, 220, { size: 26 });
      p.text(s2, 40, 560, 19, { color: '#333333', maxW: CARD_W - 80 });
      p.text(d.payer.phone, 40, 600, 19, { color: '#555555' });
    },
  },
  {
    name: 'dense-fine-print',
    split: 'tuning',
    models: 'card crowded with fine print: phone numbers, web and mail addresses, a claims address',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.logo(40, 62, 38);
      let y = 150;
      y = p.inline('member_name', 'Member', d.printedName, 40, y, { size: 28 });
      y = p.inline('member_id', 'Member ID', d.truth.member_id, 40, y, { size: 28 });
      y = p.inline('group_number', 'Group', d.truth.group_number, 40, y, { size: 28 });
      p.inline('plan_name', 'Plan', d.truth.plan_name, 40, y, { size: 26, maxW: 480 });
      rxBlock(p, r, 620, 150, { size: 24, step: 36 });
      p.smallPrint(
        [
          `Member Services: ${d.payer.phone}`,
          `Behavioral Health: 1-800-${r.digits(3)}-${r.digits(4)}`,
          `Nurse Line 24/7: 1-877-${r.digits(3)}-${r.digits(4)}`,
          `Send claims to: PO Box ${r.int(1000, 99999)}, ${r.pick(['Atlanta, GA 30348', 'Dallas, TX 75266', 'Salt Lake City, UT 84130'])}`,
          `Email: memberhelp@${d.payer.website.replace(/^www\./, '')}   Web: ${d.payer.website}`,
        ],
        40,
        440,
        18,
      );
    },
  },
  {
    name: 'hmo-pcp',
    split: 'tuning',
    models: 'HMO card: PCP name and phone, copays in one line, plan as "HMO" product',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.logo(40, 70, 44);
      p.value('plan_name', d.truth.plan_name, CARD_W - 40, 70, 30, { bold: true, align: 'right', maxW: 360 });
      let y = 170;
      y = p.inline('member_name', 'Member:', d.printedName, 40, y);
      y = p.inline('member_id', 'ID#', d.truth.member_id, 40, y);
      y = p.inline('group_number', 'Grp#', d.truth.group_number, 40, y);
      p.text(`PCP: ${d.pcp}`, 40, y, 24);
      p.text(`PCP Phone: (${r.digits(3)}) ${r.digits(3)}-${r.digits(4)}`, 40, y + 38, 22, { color: '#444444' });
      p.text(copayLines(r).map(([k, v]) => `${k} ${v}`).join('   '), 40, 520, 20, { color: '#333333', maxW: CARD_W - 80 });
      rxBlock(p, r, 620, 250, { size: 26 });
      p.text(d.payer.website, 40, 600, 18, { color: '#555555' });
    },
  },
  {
    name: 'blue-mono-stacked',
    split: 'tuning',
    models: 'Blue plan printed in one colour, id with prefix and no suffix, Rx and plan in a lower band',
    kind: 'blue',
    draw(p, r) {
      const d = p.d;
      p.fill('#eef4fb');
      p.logo(40, 70, 40, { color: '#0b3d91' });
      p.text(d.payer.website, CARD_W - 40, 60, 20, { color: '#0b3d91', align: 'right' });
      let y = 170;
      y = p.inline('member_name', 'Member Name', d.printedName, 40, y, { size: 28 });
      y = p.inline('member_id', 'Member ID', d.truth.member_id, 40, y, { size: 30, bold: true });
      p.inline('group_number', 'Group No.', d.truth.group_number, 40, y, { size: 28 });
      p.fill('#0b3d91', 0, 400, CARD_W, 4);
      p.value('plan_name', d.truth.plan_name, 40, 450, 28, { bold: true, maxW: 500 });
      rxBlock(p, r, 600, 450, { size: 24, step: 38 });
      p.text(d.payer.phone, 40, 600, 18, { color: '#333333' });
    },
  },
  {
    name: 'rx-strip-bottom',
    split: 'tuning',
    models: 'ids inline under a thin header, Rx values on one line in a strip along the bottom',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.rule(0, CARD_W, 0, d.payer.color, 18);
      p.logo(40, 84, 40);
      let y = 180;
      y = p.inline('member_name', `${r.pick(CAP.name)}:`, d.printedName, 40, y);
      y = p.inline('member_id', `${r.pick(CAP.id)}:`, d.truth.member_id, 40, y);
      y = p.inline('group_number', `${r.pick(CAP.group)}:`, d.truth.group_number, 40, y);
      p.inline('plan_name', `${r.pick(CAP.plan)}:`, d.truth.plan_name, 40, y, { maxW: 560 });
      p.fill('#f0f0f0', 0, 520, CARD_W, 70);
      p.text(`RxBIN ${d.truth.rx_bin}    RxPCN ${d.truth.rx_pcn}    RxGRP ${d.truth.rx_group}`, 40, 566, 26);
      p.mark('rx_bin');
      p.mark('rx_pcn');
      p.mark('rx_group');
      p.text(d.payer.phone, CARD_W - 40, 625, 16, { color: '#555555', align: 'right' });
    },
  },
  {
    name: 'side-panel-plan',
    split: 'tuning',
    models: 'coloured left panel with the plan and network, fields on the right half',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill('#ffffff');
      p.fill(d.payer.color, 0, 0, 330, CARD_H);
      p.logo(24, 80, 34, { color: '#ffffff', maxW: 290 });
      p.value('plan_name', d.truth.plan_name, 24, 260, 26, { bold: true, color: '#ffffff', maxW: 290 });
      p.text(r.pick(['In-Network', 'National Network', 'Open Access']), 24, 300, 20, { color: '#ffffff' });
      let y = 110;
      y = p.inline('member_name', 'Name', d.printedName, 360, y, { size: 28, maxW: 420 });
      y = p.inline('member_id', 'ID', d.truth.member_id, 360, y, { size: 30, bold: true });
      y = p.inline('group_number', 'Group', d.truth.group_number, 360, y, { size: 28 });
      rxBlock(p, r, 360, y + 30, { size: 26, step: 42 });
      p.smallPrint(footerLines(r, d), 360, 580, 18);
    },
  },
  {
    name: 'bilingual-codes-copay',
    split: 'tuning',
    models:
      'kinds the unseen real cards showed (issue 25): captions in Spanish and English over the values ("Nombre / Name"), a prior-approval notice under the name, the payer only in its logo with its website, a line of plan codes under the plan, a copay table beside the Rx block',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      // The website under the logo's last line (a two-line logo: the region under the brand).
      const logoH = p.logo(40, 62, 42, { font: r.pick(['C059', 'Z003', 'URW Gothic']) });
      p.text(d.payer.website, 40, 62 + logoH + (logoH > 42 ? 8 : 22), 18, { color: '#555555' });
      p.below('member_name', r.pick(['Nombre / Name', 'Name / Nombre', 'Nombre del miembro / Member Name']), d.printedName, 40, 176, { size: 28, maxW: 500 });
      p.text(r.pick(NOTICES), 40, 250, 17, { color: '#333333', maxW: 500 });
      p.below('member_id', r.pick(['Número de identificación / ID', 'ID de miembro / Member ID', 'Member ID / ID de miembro']), d.truth.member_id, 40, 296, { size: 28 });
      p.below('group_number', r.pick(['Grupo / Group', 'Group / Grupo']), d.truth.group_number, 40, 380, { size: 28 });
      p.below('plan_name', r.pick(['Plan', 'Plan / Plan', 'Nombre del plan / Plan Name']), d.truth.plan_name, 580, 168, { size: 28, maxW: 400 });
      p.text(`Plan Codes ${r.pick(['BC', 'MED', 'PC'])} ${r.digits(3)} ${r.pick(['BS', 'RX', 'DN'])} ${r.digits(3)}`, 580, 240, 18, { color: '#444444' });
      const end = rxBlock(p, r, 40, 468, { size: 24, step: 38, cap: 20 });
      // The copay table on the Rx block's rows, to its right: "Specialist $40" beside "RxGRP".
      copayLines(r).forEach(([k, v], i) => {
        p.text(k, 580, 468 + i * 38, 22);
        p.text(v, 900, 468 + i * 38, 22, { align: 'right' });
      });
      p.text(d.payer.phone, CARD_W - 40, Math.max(end, 620), 16, { color: '#555555', align: 'right' });
    },
  },
  {
    name: 'paper-form-boxes',
    split: 'tuning',
    models:
      'a card printed on a paper form (an enrolment letter, a fax cover): each field in a ruled box, a tiny caption in the box\'s top-left corner and the value under it, the Rx block as a row of boxes; box borders sit a few pixels from the values',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill('#ffffff');
      p.logo(30, 56, 34, { color: '#222222' });
      p.text(r.pick(['Member Identification Card', 'Proof of Coverage', 'Insurance Card (printed copy)']), CARD_W - 30, 50, 20, { color: '#333333', align: 'right' });
      const line = '#333333';
      // Boxes in a grid: [x, y, w] with a common height; the caption in the corner, the value under it.
      const boxH = 78;
      const cell = (field: Field, caption: string, value: string, x: number, y: number, w: number) => {
        p.box(x, y, w, boxH, line, 2);
        p.text(caption, x + 8, y + 20, 15, { color: '#444444', maxW: w - 16 });
        p.value(field, value, x + 10, y + 60, 27, { maxW: w - 20 });
      };
      cell('member_name', r.pick(['MEMBER NAME', 'Subscriber Name', 'Name of Member']), d.printedName, 30, 96, 600);
      cell('member_id', r.pick(['MEMBER ID', 'ID Number', 'Subscriber ID']), d.truth.member_id, 640, 96, 340);
      cell('group_number', r.pick(['GROUP NUMBER', 'Group No.', 'Group']), d.truth.group_number, 30, 184, 300);
      cell('plan_name', r.pick(['PLAN', 'Plan Name', 'Product']), d.truth.plan_name, 340, 184, 640);
      cell('rx_bin', r.pick(['RxBIN', 'BIN']), d.truth.rx_bin, 30, 272, 220);
      cell('rx_pcn', r.pick(['RxPCN', 'PCN']), d.truth.rx_pcn, 260, 272, 220);
      cell('rx_group', r.pick(['RxGRP', 'Rx Group']), d.truth.rx_group, 490, 272, 240);
      p.box(740, 272, 240, boxH, line, 2);
      p.text('EFFECTIVE DATE', 748, 292, 15, { color: '#444444' });
      p.text(d.effective, 750, 332, 27);
      p.smallPrint([...footerLines(r, d), 'Keep this page with your records. It is not a guarantee of coverage.'], 30, 420, 18, '#333333', 26);
    },
  },
  {
    name: 'portal-temporary-id',
    split: 'tuning',
    models:
      'a temporary ID card printed from a member portal: black on white, the browser\'s date and address along the edges, a plain table of captions and values far apart, the payer named in a text header and the website',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill('#ffffff');
      const site = d.payer.website.replace(/^www\./, '');
      p.text(`${d.effective}, ${r.int(1, 12)}:${String(r.int(0, 59)).padStart(2, '0')} ${r.pick(['AM', 'PM'])}`, 20, 24, 14, { color: '#555555' });
      p.text(`https://member.${site}/id-card/print`, CARD_W - 20, CARD_H - 10, 14, { color: '#555555', align: 'right' });
      p.text('Page 1 of 1', 20, CARD_H - 10, 14, { color: '#555555' });
      p.logo(40, 78, 34, { color: '#000000' });
      p.text(r.pick(['Temporary ID Card', 'TEMPORARY MEMBER ID CARD', 'Temporary Insurance Card']), CARD_W - 40, 70, 24, { bold: true, align: 'right' });
      p.rule(40, CARD_W - 40, 108, '#000000', 2);
      const vx = r.pick([300, 340, 420]);
      const rows: [Field, string, string][] = [
        ['member_name', r.pick(['Member Name', 'Member', 'Subscriber Name']), d.printedName],
        ['member_id', r.pick(['Member ID', 'Member ID #', 'Subscriber ID']), d.truth.member_id],
        ['group_number', r.pick(['Group Number', 'Group #', 'Group']), d.truth.group_number],
        ['plan_name', r.pick(['Plan', 'Plan Name', 'Product Name']), d.truth.plan_name],
        ['rx_bin', 'RxBIN', d.truth.rx_bin],
        ['rx_pcn', 'RxPCN', d.truth.rx_pcn],
        ['rx_group', 'RxGRP', d.truth.rx_group],
      ];
      const colon = r.chance(0.5) ? ':' : '';
      rows.forEach(([f, c, v], i) => {
        const y = 150 + i * 44;
        p.text(`${c}${colon}`, 40, y, 21, { color: '#000000' });
        p.value(f, v, vx, y, 24, { bold: true, maxW: CARD_W - vx - 40 });
      });
      p.text(r.pick(['This temporary card is valid for 30 days from the print date.', 'Use this temporary card until your ID card arrives.']), 40, 480, 18, { color: '#333333' });
      p.smallPrint([`Member Services ${d.payer.phone}`, d.payer.website], 40, 530, 18, '#333333');
    },
  },
  {
    name: 'employer-branded-vertical',
    split: 'tuning',
    models:
      "an employer's self-funded plan card: the employer's name as the big mark, the payer only as \"Administered by\" with its logo small, a faint watermark behind the fields, the network name printed up the right edge",
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      // The watermark: the employer's initials, large and faint, behind everything.
      const initials = d.employer.split(/\s+/).map((w) => w[0]).join('');
      p.text(initials, CARD_W / 2 - 120, 460, 260, { color: '#eeeeee', bold: true });
      p.text(d.employer, 40, 70, 40, { bold: true, color: '#333333', maxW: 620 });
      p.text(r.pick(['Employee Health Plan', 'Employee Benefit Plan', 'Group Health Plan']), 40, 108, 22, { color: '#555555' });
      p.text('Administered by', 40, 560, 16, { color: '#555555' });
      p.logo(40, 598, 26, { maxW: 520 });
      p.vertical(r.pick(['In-Network Plus', 'National Network', 'Open Access']), CARD_W - 30, CARD_H - 40, 22, d.payer.color);
      let y = 180;
      y = p.inline('member_name', `${r.pick(CAP.name)}${r.pick([':', ''])}`, d.printedName, 40, y, { size: 28, maxW: 520 });
      y = p.inline('member_id', `${r.pick(CAP.id)}${r.pick([':', ''])}`, d.truth.member_id, 40, y, { size: 28 });
      y = p.inline('group_number', `${r.pick(CAP.group)}${r.pick([':', ''])}`, d.truth.group_number, 40, y, { size: 28 });
      p.inline('plan_name', `${r.pick(CAP.plan)}:`, d.truth.plan_name, 40, y, { size: 26, maxW: 480 });
      // The Rx block in two columns: BIN and PCN side by side, the group under the BIN.
      const x0 = 600;
      p.inline('rx_bin', 'BIN', d.truth.rx_bin, x0, 190, { cap: 20, size: 24 });
      p.inline('rx_pcn', 'PCN', d.truth.rx_pcn, x0 + 190, 190, { cap: 20, size: 24 });
      p.inline('rx_group', r.pick(['RxGRP', 'GRP']), d.truth.rx_group, x0, 232, { cap: 20, size: 24 });
      p.smallPrint([`Questions: ${d.payer.phone}`, d.payer.website], 600, 470, 18);
    },
  },
  {
    name: 'medigap-policy-card',
    split: 'tuning',
    models: 'a Medicare Supplement (Medigap) card: the insurer\'s logo, "Medicare Supplement" and the plan letter, a policy or certificate number as the id, the Medicare card to be shown too, no Rx block',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.logo(40, 70, 42);
      const plan = `${r.pick(['Medicare Supplement', 'Medicare Supplement Insurance', 'Medigap'])} Plan ${r.pick(['G', 'N', 'F', 'High Deductible G'])}`;
      p.rule(40, CARD_W - 40, 130, d.payer.color);
      let y = 190;
      y = p.inline('member_name', `${r.pick(['Insured', 'Name', 'Member'])}:`, d.printedName, 40, y, { size: 28 });
      y = p.inline('member_id', `${r.pick(['Policy Number', 'Certificate No.', 'Member ID', 'Policy #'])}:`, d.truth.member_id, 40, y, { size: 28 });
      p.value('plan_name', plan, 40, y + 10, 30, { bold: true, maxW: 600 });
      p.text(`Effective Date: ${d.effective}`, 40, y + 60, 22, { color: '#444444' });
      p.text(r.pick(['Show this card and your Medicare card to your provider.', 'Present with your red, white and blue Medicare card.']), 40, 520, 19, { color: '#333333' });
      p.smallPrint([`Customer Service ${d.payer.phone}`, d.payer.website], 40, 570, 18);
    },
  },
  // ---- held-out: whole kinds of card the reader is never tuned on ----
  {
    name: 'bilingual-es',
    split: 'held-out',
    models: 'bilingual Spanish/English captions ("Nombre / Name", "Número de identificación / ID", "Grupo / Group")',
    kind: 'medicaid',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.logo(40, 70, 42);
      p.below('member_name', 'Nombre / Name', d.printedName, 40, 160, { cap: 20 });
      p.below('member_id', r.pick(['Número de identificación / ID', 'No. de miembro / Member ID']), d.truth.member_id, 40, 250, { cap: 20 });
      p.below('group_number', 'Grupo / Group', d.truth.group_number, 40, 340, { cap: 20 });
      p.below('plan_name', 'Plan / Plan', d.truth.plan_name, 40, 430, { cap: 20, maxW: 500 });
      rxBlock(p, r, 600, 200, { size: 26 });
      p.text('Servicios para miembros / Member Services', 600, 520, 18, { color: '#444444' });
      p.text(d.payer.phone, 600, 550, 20);
      p.text(d.payer.website, 40, 600, 18, { color: '#555555' });
    },
  },
  {
    name: 'dental-ppo',
    split: 'held-out',
    models: 'dental card (Delta Dental and others): subscriber id, group, dental plan, no Rx',
    kind: 'dental',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.logo(40, 70, 42);
      p.text(r.pick(['Dental Benefits ID Card', 'DENTAL PLAN', 'Dental Member Card']), CARD_W - 40, 60, 24, { bold: true, color: '#444444', align: 'right' });
      let y = 190;
      y = p.inline('member_name', r.pick(['Enrollee:', 'Subscriber:', 'Member:']), d.printedName, 40, y);
      y = p.inline('member_id', r.pick(['Enrollee ID:', 'Subscriber ID:', 'Member ID:']), d.truth.member_id, 40, y);
      y = p.inline('group_number', r.pick(['Group:', 'Group No:']), d.truth.group_number, 40, y);
      p.value('plan_name', d.truth.plan_name, 40, y + 10, 30, { bold: true, color: d.payer.color });
      p.smallPrint([`Dentists: verify benefits at ${d.payer.website}`, `Customer Service ${d.payer.phone}`, 'Diagnostic & Preventive 100%  Basic 80%  Major 50%'], 40, 520, 19);
    },
  },
  {
    name: 'vision-plan',
    split: 'held-out',
    models: 'vision card: exam copay, frame and lens allowances, member id, no group or Rx printed as such',
    kind: 'vision',
    draw(p, r) {
      const d = p.d;
      p.fill('#ffffff');
      p.fill('#e8f1f8', 0, CARD_H - 150, CARD_W, 150);
      p.logo(40, 72, 44);
      p.value('plan_name', d.truth.plan_name, 40, 140, 28, { color: '#444444', maxW: 600 });
      p.below('member_name', 'Covered Member', d.printedName, 40, 200);
      p.below('member_id', r.pick(['Member ID', 'Unique ID']), d.truth.member_id, 40, 290);
      p.text('Exam copay', 560, 220, 22, { color: '#444444' });
      p.text(`$${r.pick([0, 10, 15])}`, 940, 220, 22, { align: 'right' });
      p.text('Frame allowance', 560, 260, 22, { color: '#444444' });
      p.text(`$${r.pick([130, 150, 200])}`, 940, 260, 22, { align: 'right' });
      p.text('Contact lenses', 560, 300, 22, { color: '#444444' });
      p.text(`$${r.pick([120, 150])}`, 940, 300, 22, { align: 'right' });
      p.smallPrint([`Find an eye doctor: ${d.payer.website}`, `${d.payer.phone}`], 40, CARD_H - 90, 20);
    },
  },
  {
    name: 'employer-branded',
    split: 'held-out',
    models: "employer's name large, the payer small with \"Administered by …\", employer benefit plan name",
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.text(d.employer, 40, 80, 50, { bold: true, color: '#222222', font: r.pick(['C059', 'URW Gothic', 'Liberation Sans']) });
      p.text(`${d.employer.split(' ')[0]} Employee Health Plan`, 40, 124, 24, { color: '#444444' });
      let y = 200;
      y = p.inline('member_name', 'Employee:', d.printedName, 40, y);
      y = p.inline('member_id', 'ID:', d.truth.member_id, 40, y);
      y = p.inline('group_number', 'Group:', d.truth.group_number, 40, y);
      p.inline('plan_name', 'Plan:', d.truth.plan_name, 40, y, { maxW: 500 });
      rxBlock(p, r, 620, 230, { size: 26 });
      p.text('Administered by', 620, 520, 18, { color: '#555555' });
      p.logo(620, 556, 26);
      p.text(d.payer.phone, 40, 600, 18, { color: '#555555' });
    },
  },
  {
    name: 'portrait-card',
    split: 'held-out',
    models: 'portrait (vertical) card: logo and fields stacked top to bottom, vertical text down the edge',
    kind: 'commercial',
    portrait: true,
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.fill(d.payer.color, 0, 0, 54, p.h);
      p.vertical(r.pick(['MEMBER IDENTIFICATION CARD', 'HEALTH ID CARD']), 38, p.h - 40, 24, '#ffffff');
      p.logo(80, 70, 38, { maxW: p.w - 100 });
      let y = 160;
      for (const [f, c, v] of [
        ['member_name', 'Member', d.printedName],
        ['member_id', 'Member ID', d.truth.member_id],
        ['group_number', 'Group', d.truth.group_number],
        ['plan_name', 'Plan', d.truth.plan_name],
      ] as [Field, string, string][]) {
        p.below(f, c, v, 80, y, { maxW: p.w - 100 });
        y += 92;
      }
      rxBlock(p, r, 80, y + 10, { size: 26, step: 42 });
      p.smallPrint([d.payer.phone, d.payer.website], 80, p.h - 70, 18);
    },
  },
  {
    name: 'watermark-logo',
    split: 'held-out',
    models: 'faint diagonal watermark of the payer name behind the fields, fields in a framed table',
    kind: 'commercial',
    draw(p) {
      const d = p.d;
      p.fill('#ffffff');
      p.ctx.save();
      p.ctx.translate(160, 560);
      p.ctx.rotate(-0.45);
      p.text(d.payer.logo[0], 0, 0, 110, { bold: true, color: 'rgba(30,60,140,0.10)', maxW: 1100 });
      p.ctx.restore();
      p.logo(40, 66, 40);
      p.box(30, 120, CARD_W - 60, 330, '#9a9a9a');
      const vx = 320;
      let y = 170;
      y = p.inline('member_name', 'Member', d.printedName, 50, y, { valueX: vx });
      y = p.inline('member_id', 'Identification No.', d.truth.member_id, 50, y, { valueX: vx });
      y = p.inline('group_number', 'Group No.', d.truth.group_number, 50, y, { valueX: vx });
      p.inline('plan_name', 'Coverage', d.truth.plan_name, 50, y, { valueX: vx, maxW: 600 });
      let x = 40;
      for (const [f, c, v] of [['rx_bin', 'BIN', d.truth.rx_bin], ['rx_pcn', 'PCN', d.truth.rx_pcn]] as [Field, string, string][]) {
        const cw = p.text(`${c}:`, x, 510, 22, { color: '#444444' });
        x += cw + 10 + p.value(f, v, x + cw + 10, 510, 26) + 50;
      }
      p.text(`${d.payer.website}   ${d.payer.phone}`, 40, 600, 18, { color: '#555555' });
    },
  },
  {
    name: 'medicaid-managed-care',
    split: 'held-out',
    models: 'Medicaid managed-care plan card: state programme name, plan, PCP with phone, member id, Rx for Medicaid BIN/PCN',
    kind: 'medicaid',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.logo(40, 64, 36);
      const state = d.payer.state ?? 'State';
      p.text(`${state} ${r.pick(['Medicaid Program', 'Health Care Program', 'Medical Assistance'])}`, CARD_W - 40, 60, 22, { align: 'right', color: '#444444', bold: true });
      p.value('plan_name', d.truth.plan_name, CARD_W - 40, 96, 24, { align: 'right', maxW: 400 });
      let y = 180;
      y = p.inline('member_name', 'Member Name', d.printedName, 40, y, { size: 28 });
      y = p.inline('member_id', r.pick(['Medicaid #', 'Member ID #']), d.truth.member_id, 40, y, { size: 30 });
      p.text(`PCP ${d.pcp}`, 40, y, 22);
      p.text(`PCP Phone ${r.digits(3)}-${r.digits(3)}-${r.digits(4)}`, 40, y + 34, 22);
      p.text(`Effective ${d.effective}`, 40, y + 68, 22, { color: '#444444' });
      rxBlock(p, r, 620, 200, { size: 26, grp: r.chance(0.5) });
      p.smallPrint([r.pick(SENTENCES), `${d.payer.phone} · ${d.payer.website}`], 40, 570, 18);
    },
  },
  {
    name: 'medicare-supplement',
    split: 'held-out',
    models: 'Medicare supplement (Medigap) card: "Plan G", policy number as the id, "not a Medicare card" notice, no Rx',
    kind: 'advantage',
    draw(p, r) {
      const d = p.d;
      p.fill('#fffdf6');
      p.logo(40, 70, 42);
      p.text('Medicare Supplement Insurance', 40, 150, 26, { bold: true, color: '#333333' });
      p.value('plan_name', `Plan ${r.pick(['G', 'N', 'F', 'High Deductible G'])}`, 40, 196, 30, { bold: true });
      let y = 270;
      y = p.inline('member_name', 'Insured:', d.printedName, 40, y);
      y = p.inline('member_id', r.pick(['Policy Number:', 'Certificate No.:']), d.truth.member_id, 40, y);
      p.text(`Effective: ${d.effective}`, 40, y, 22, { color: '#444444' });
      p.text('This is not a Medicare card. Show it with your red, white and blue Medicare card.', 40, 560, 18, { color: '#333333', maxW: CARD_W - 80 });
      p.text(d.payer.phone, 40, 600, 18, { color: '#555555' });
    },
  },
  {
    name: 'form-grid-boxes',
    split: 'held-out',
    models: 'every field in its own bordered box with a tiny caption in the corner, like a printed form',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill('#ffffff');
      p.logo(30, 62, 36);
      const cells: [Field, string, string, number, number, number][] = [
        ['member_name', 'SUBSCRIBER NAME', d.printedName, 20, 100, 620],
        ['member_id', 'SUBSCRIBER ID', d.truth.member_id, 650, 100, 342],
        ['group_number', 'GROUP NO', d.truth.group_number, 20, 210, 300],
        ['plan_name', 'PRODUCT', d.truth.plan_name, 330, 210, 662],
        ['rx_bin', 'RXBIN', d.truth.rx_bin, 20, 320, 300],
        ['rx_pcn', 'RXPCN', d.truth.rx_pcn, 330, 320, 300],
        ['rx_group', 'RXGRP', d.truth.rx_group, 640, 320, 352],
      ];
      for (const [f, c, v, x, y, w] of cells) {
        p.box(x, y, w, 100, '#333333', 2);
        p.text(c, x + 8, y + 22, 15, { color: '#555555' });
        p.value(f, v, x + 12, y + 74, 30, { maxW: w - 24 });
      }
      p.smallPrint([r.pick(SENTENCES), `${d.payer.phone}   ${d.payer.website}`], 20, 480, 18);
    },
  },
  {
    name: 'blue-advantage-senior',
    split: 'held-out',
    models: 'Blue plan Medicare Advantage card: state Blue logo with "Medicare Advantage", prefix id, Part D block with PCN, CMS H-number',
    kind: 'blue',
    draw(p, r) {
      const d = p.d;
      p.fill('#ffffff');
      p.fill('#0b5ca8', 0, CARD_H - 90, CARD_W, 90);
      p.logo(40, 66, 38, { color: '#0b5ca8' });
      p.value('plan_name', `Medicare Advantage ${r.pick(['PPO', 'HMO', 'HMO-POS'])}`, CARD_W - 40, 60, 26, { bold: true, align: 'right', maxW: 380 });
      p.text(`H${r.digits(4)} ${r.digits(3)}`, CARD_W - 40, 96, 20, { align: 'right', color: '#444444' });
      p.below('member_name', 'Member', d.printedName, 40, 170);
      p.below('member_id', 'Member ID', d.truth.member_id, 40, 260, { bold: true });
      p.text('MedicareRx', 620, 170, 22, { bold: true, color: '#c8102e' });
      rxBlock(p, r, 620, 215, { size: 26, step: 42 });
      p.text(`${d.payer.website}   ${d.payer.phone}`, 40, CARD_H - 36, 20, { color: '#ffffff' });
    },
  },
  {
    name: 'temporary-printout',
    split: 'held-out',
    models: 'temporary ID printed from a member portal: monospace, "TEMPORARY ID CARD", key: value lines, no colour',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      const mono = r.pick(['DejaVu Sans Mono', 'Liberation Mono', 'Nimbus Mono PS']);
      p.fill('#ffffff');
      p.text('TEMPORARY ID CARD', 40, 56, 26, { bold: true, font: mono });
      p.logo(CARD_W - 40, 56, 26, { font: mono, color: '#111111', align: 'right', maxW: 520 });
      p.rule(40, CARD_W - 40, 76, '#111111', 2);
      const lines: [Field, string, string][] = [
        ['member_name', 'SUBSCRIBER..:', d.printedName.toUpperCase()],
        ['member_id', 'MEMBER ID...:', d.truth.member_id],
        ['group_number', 'GROUP.......:', d.truth.group_number],
        ['plan_name', 'PLAN........:', d.truth.plan_name],
        ['rx_bin', 'RXBIN.......:', d.truth.rx_bin],
        ['rx_pcn', 'RXPCN.......:', d.truth.rx_pcn],
        ['rx_group', 'RXGRP.......:', d.truth.rx_group],
      ];
      lines.forEach(([f, c, v], i) => {
        p.text(c, 40, 130 + i * 52, 26, { font: mono });
        p.value(f, v, 300, 130 + i * 52, 26, { font: mono });
      });
      p.text(`Printed ${d.effective}. Valid 30 days. ${d.payer.phone}`, 40, 610, 18, { font: mono, color: '#333333' });
    },
  },
  {
    name: 'network-logos',
    split: 'held-out',
    models: 'TPA card with rental-network logos (PHCS, MultiPlan, First Health) and plan codes beside the plan name',
    kind: 'commercial',
    draw(p, r) {
      const d = p.d;
      p.fill(bg(r));
      p.logo(40, 66, 38);
      let y = 160;
      y = p.inline('member_name', 'Participant:', d.printedName, 40, y);
      y = p.inline('member_id', 'Participant ID:', d.truth.member_id, 40, y);
      y = p.inline('group_number', 'Group:', d.truth.group_number, 40, y);
      p.inline('plan_name', 'Plan:', d.truth.plan_name, 40, y, { maxW: 480 });
      p.text(`Plan Code ${r.letters(2)}${r.digits(3)}  Div ${r.digits(3)}  Class ${r.letters(1)}`, 40, y + 50, 20, { color: '#444444' });
      p.box(620, 150, 350, 110, '#666666');
      p.text(r.pick(['PHCS', 'MultiPlan', 'First Health']), 795, 200, 40, { bold: true, color: '#8a1538', align: 'center' });
      p.text(r.pick(['Practitioner & Ancillary', 'Network']), 795, 238, 20, { color: '#444444', align: 'center' });
      rxBlock(p, r, 620, 320, { size: 26 });
      p.smallPrint([`Precertification ${d.payer.phone}`, d.payer.website], 40, 570, 18);
    },
  },
];

export function familiesOf(split: Split): Family[] {
  return FAMILIES.filter((f) => f.split === split);
}

/** Draws one card face of a family; the truth is what it printed, '' for the rest. */
export function renderFamily(family: Family, r: Rng, d: CardData): Canvas {
  return paintFamily(family, r, d).canvas;
}

/** `renderFamily`, with the painter: what was printed where. */
export function paintFamily(family: Family, r: Rng, d: CardData): Painter {
  const [w, h] = family.portrait ? [CARD_H, CARD_W] : [CARD_W, CARD_H];
  const p = new Painter(createCanvas(w, h), d.payer.font, d);
  family.draw(p, r);
  for (const field of Object.keys(d.truth) as Field[]) if (!p.printed.has(field)) d.truth[field] = '';
  return p;
}

/** Display fonts the families use by name; missing ones are a clear error, never a silent fallback. */
export const DISPLAY_FONTS = ['C059', 'P052', 'Z003', 'URW Gothic', 'Nimbus Mono PS'];

export function checkDisplayFonts(): void {
  const families = new Set(GlobalFonts.families.map((f) => f.family));
  const missing = DISPLAY_FONTS.filter((f) => !families.has(f));
  if (missing.length > 0) {
    throw new Error(`The card generator's layout families need the fonts ${missing.join(', ')}: install Debian's fonts-urw-base35 (apt-get install fonts-urw-base35; npm test installs it).`);
  }
}
