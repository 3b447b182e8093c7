import type { ExtractedFieldName } from '../../shared/contract';
import { isCaptionWord, plainWord } from './printed-text';

export type LabelledField = Exclude<ExtractedFieldName, 'payer_name'>;

/**
 * The wordings real cards print before each field, written without spaces, dots or colons
 * (OCR splits and joins words unpredictably: "Rx BIN", "RxBIN", "RXBIN" are one label).
 */
const LABELS: Record<LabelledField, string[]> = {
  member_id: [
    'MEMBERID', 'MEMBERID#', 'MEMBERIDNO', 'MEMBERIDNUMBER', 'MEMBER#', 'MEMBERNO', 'MEMBERNUMBER', 'MEMBERIDENTIFICATION',
    'SUBSCRIBERID', 'SUBSCRIBERID#', 'SUBSCRIBER#', 'SUBSCRIBERNO', 'SUBSCRIBERNUMBER',
    'IDENTIFICATIONNO', 'IDENTIFICATIONNUMBER', 'IDENTIFICATION#', 'IDENTIFICATION',
    'ID', 'ID#', 'IDNO', 'IDNUMBER', 'ENROLLEEID', 'POLICYNO', 'POLICY#', 'POLICYNUMBER',
    'MBR', 'MBR#', 'MBRID', 'MBRNO', 'MEMBERIDENTIFIER',
    // Medicare: the new card's "Medicare Number" (MBI), the old card's "Claim Number" (HICN).
    'MEDICARENUMBER', 'MEDICARENO', 'MEDICARECLAIMNUMBER', 'CLAIMNUMBER', 'CLAIMNO', 'HICN', 'MBI',
    'CARDHOLDERID', 'CARDHOLDERNUMBER', 'CARDHOLDERID#', 'MEMBERIDENTIFICATIONNUMBER',
    // NCPDP's pharmacy card: the cardholder's id is printed as "RxID" (or "ID") in the Rx block.
    'RXID', 'RXID#', 'RXMEMBERID',
    // Spanish captions, printed alone or after the English one ("Medicare Number/Número de Medicare").
    'NUMERODEMIEMBRO', 'NUMERODEIDENTIFICACION', 'IDENTIFICACIONDELMIEMBRO', 'NUMERODEAFILIADO', 'IDDEMIEMBRO', 'IDDELMIEMBRO',
    'NUMERODEMEDICARE', 'NUMERODEPOLIZA', 'NUMERODESUSCRIPTOR',
  ],
  group_number: [
    'GROUP', 'GROUP#', 'GROUPNO', 'GROUPNUMBER', 'GROUPNUM', 'GROUPID', 'GRP', 'GRP#', 'GRPNO', 'GRPNUMBER', 'GRPID', 'EMPLOYERGROUP',
    'GRUPO', 'NUMERODEGRUPO', 'GRUPONO', 'GRUPO#',
  ],
  // NCPDP's pharmacy ID card captions (RxBIN, RxPCN, RxGrp) and the wordings cards spell them out
  // in: "Rx Group Number", "Rx Group ID", "Processor Control Number".
  rx_bin: ['RXBIN', 'RXBIN#', 'BIN', 'BIN#', 'RXBINNO', 'BINNO', 'RXBINNUMBER', 'BINNUMBER'],
  rx_pcn: ['RXPCN', 'RXPCN#', 'PCN', 'PCN#', 'RXPCNNO', 'PCNNO', 'PROCESSORCONTROLNUMBER', 'PROCESSORCONTROL#'],
  rx_group: ['RXGRP', 'RXGRP#', 'RXGROUP', 'RXGROUP#', 'RXGRPNO', 'RXGROUPNO', 'RXGRPID', 'RXGROUPID', 'RXGROUPNUMBER', 'RXGRPNUMBER', 'PHARMACYGROUP',
    // Spanish, as bilingual cards print it beside or after the English caption.
    'GRUPORX', 'RXGRUPO', 'GRUPODERX', 'GRUPODEFARMACIA'],
  member_name: [
    'MEMBERNAME', 'MEMBER', 'SUBSCRIBERNAME', 'SUBSCRIBER', 'NAME', 'ENROLLEE', 'ENROLLEENAME', 'CARDHOLDER', 'CARDHOLDERNAME', 'INSURED', 'INSUREDNAME', 'PATIENTNAME',
    'NAMEOFBENEFICIARY', 'BENEFICIARY', 'BENEFICIARYNAME', 'MEMBERSNAME',
    'NOMBRE', 'NOMBREDELMIEMBRO', 'NOMBREDELAFILIADO', 'NOMBREDELSUSCRIPTOR', 'NOMBREDELBENEFICIARIO', 'MIEMBRO', 'AFILIADO', 'SUSCRIPTOR',
  ],
  plan_name: ['PLAN', 'PLANNAME', 'PLANTYPE', 'PRODUCT', 'PRODUCTNAME', 'PLANPRODUCT', 'NOMBREDELPLAN', 'TIPODEPLAN', 'BENEFITPLAN', 'NETWORK', 'NETWORKNAME'],
};

/**
 * Captions payers print that WEDI's and INCITS 284's lists do not name ("Benefit Plan  Select
 * HMO"): they say where the value is, not that the line is what the standard means by the field,
 * so a value under one is a lead for a person (its quality keeps it under "check this"). Without
 * the caption the whole line, caption and all, was taken for the plan's name.
 */
const OUTSIDE_THE_STANDARDS = new Set(['BENEFITPLAN']);
const OUTSIDE_QUALITY = 0.9;

/**
 * "Network: Open Access Plus": the provider network the plan uses, which cards print beside or
 * instead of the plan's name and which the desk takes for it; a lead, colon or not (a network is
 * not always the plan: "Network: PHCS" on a plan of another name), so always under "check this".
 */
const NETWORK_CAPTIONS = new Set(['NETWORK', 'NETWORKNAME']);
const NETWORK_QUALITY = 0.8;

const BY_FORM = new Map<string, LabelledField>();
for (const [field, forms] of Object.entries(LABELS) as [LabelledField, string[]][]) for (const form of forms) BY_FORM.set(form, field);
const LONGEST = Math.max(...[...BY_FORM.keys()].map((f) => f.length));

/**
 * Labels that may start mid-segment ("RxBIN 610279 RxPCN 9999"). Plain words such as
 * PLAN or NAME are only labels at the start of a segment: "Freedom Plan" is a plan name.
 */
const DISTINCTIVE = new Set<LabelledField>(['rx_bin', 'rx_pcn', 'rx_group']);

/** A label's letters as the parser compares them: OCR digit/letter swaps undone. */
export function labelForm(token: string): string {
  return token
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    // Guillemets and brackets are never a caption's: OCR makes them of a glyph cut or smudged ("«PCN").
    .replace(/[.:;,'"`’_«»‹›()[\]{}]/g, '')
    .replace(/0/g, 'O')
    .replace(/[1|!]/g, 'I')
    .replace(/5/g, 'S')
    .replace(/8/g, 'B');
}

/** Whether two words differ by at most one letter added, dropped or changed. */
export function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

/**
 * Whether a long word is one of a field's captions with up to two letters misread in place
 * ("Entoliee" of ENROLLEE): long enough that two changed letters still leave it that caption
 * and no name (a first name is not seven letters two away from "Enrollee" or "Beneficiary").
 */
export function misreadCaptionOf(word: string, field: LabelledField): boolean {
  const form = labelForm(word);
  if (form.length < 7) return false;
  return LABELS[field].some((known) => known.length === form.length && [...known].filter((c, i) => c !== form[i]).length <= 2);
}

/**
 * NCPDP's pharmacy captions as small print misreads them, its three letters (BIN, PCN, GRP) read
 * whole: the x lost between the R and them ("RPCN", "RBIN", "RGRP"), or the R read as an H of
 * the same strokes ("HxGRP", "HxBIN"). The three letters say which caption it was; what was
 * misread is only the "Rx" before them, so the value beside it is its own, read under a repair.
 */
const NCPDP_MISREAD = /^(?:R|HX)(BIN|PCN|GRP)#?$/;

function ncpdpMisread(form: string): LabelledField | undefined {
  const m = NCPDP_MISREAD.exec(form);
  return m ? BY_FORM.get(`RX${m[1]}${form.endsWith('#') ? '#' : ''}`) : undefined;
}

/** The pharmacy block's fields, whose captions are NCPDP's. */
const RX_CAPTIONED = new Set<LabelledField>(['rx_bin', 'rx_pcn', 'rx_group']);

/**
 * Whether a word is one of NCPDP's pharmacy captions (RxBIN, RxPCN, RxGRP, RxID), as printed or
 * in a misread form the reader knows: never a code's value. A blank code's caption sits beside
 * the next one's ("RxPCN  RxGRP 1234"), and that caption is what a look for the value meets first.
 * Not a caption one letter from them ("RX12" is an Rx group, one edit from RXID).
 */
export function isNcpdpCaption(word: string): boolean {
  const form = labelForm(word).replace(/[:#]+$/, '');
  if (form.length < 3) return false;
  const exact = BY_FORM.get(form);
  if (exact && RX_CAPTIONED.has(exact)) return true;
  if (/^RX(ID|MEMBERID)$/.test(form)) return true;
  const rx = /^[FBPKH]X/.test(form) ? BY_FORM.get(`RX${form.slice(2)}`) : undefined;
  const rLost = /^X(BIN|PCN|GRP)$/.test(form) ? BY_FORM.get(`R${form}`) : undefined;
  const xMisread = /^[RPFBKH][AUKYVH](BIN|PCN)$/.test(form) ? BY_FORM.get(`RX${form.slice(2)}`) : undefined;
  const misread = ncpdpMisread(form);
  return [rx, rLost, xMisread, misread].some((f) => f !== undefined && RX_CAPTIONED.has(f));
}

/**
 * Whether a caption as read keeps NCPDP's three letters whole (RxBIN, "RPCN", "HxGRP"): a misread
 * only of its "Rx", away from the value. A caption whose own end was misread ("RxGRO") stood
 * where the value's start may have been lost with it.
 */
export function keepsNcpdpLetters(caption: string | undefined): boolean {
  if (!caption) return false;
  const form = labelForm(caption.replace(/\s+/g, '')).replace(/[:#]+$/, '');
  return /(BIN|PCN|GRP)$/.test(form) && isNcpdpCaption(form);
}

function lookup(form: string): LabelledField | undefined {
  const exact = BY_FORM.get(form);
  if (exact) return exact;
  // "Rx" misread as "Fx", "Bx", "Px", "Kx" or "Hx" ("Fx BIN#"); a "#" misread as Z or H ("BINZ").
  const rx = /^[FBPKH]X/.test(form) ? BY_FORM.get(`RX${form.slice(2)}`) : undefined;
  if (rx) return rx;
  // Or the R lost at the photo's or the crop's edge ("xBIN", "xPCN"): the x and NCPDP's three
  // letters still say which caption it was.
  const rLost = /^X(BIN|PCN|GRP)#?$/.test(form) ? BY_FORM.get(`R${form}`) : undefined;
  if (rLost) return rLost;
  // Or its x misread as a letter of the same strokes' width ("RAPCN", "KyBIN"): NCPDP's three
  // letters read exactly after an R-like glyph still say which caption it was. Not "Ru GRP":
  // measured, reading it moved the closer look's region off the other captions (tuning seed 303
  // lost an id, a BIN and a PCN for the one RxGRP), and a plain GRP is the medical group's.
  const xMisread = /^[RPFBKH][AUKYVH](BIN|PCN)#?$/.test(form) ? BY_FORM.get(`RX${form.slice(2)}`) : undefined;
  if (xMisread) return xMisread;
  const ncpdp = ncpdpMisread(form);
  if (ncpdp) return ncpdp;
  if (form.length >= 4 && /[ZH]$/.test(form)) {
    const hashed = BY_FORM.get(`${form.slice(0, -1)}#`) ?? (/^[FBPKH]X/.test(form) ? BY_FORM.get(`RX${form.slice(2, -1)}#`) : undefined);
    if (hashed) return hashed;
  }
  // Long labels survive one misread or stray letter ("GRPNOO", "RRXPCN"), and so do
  // short ones ending in "#" ("IP#" for "ID#"): the "#" says a label was meant.
  // So do the Rx labels, their "Rx" saying which ("rx Pc" for "Rx PCN").
  const hashed = form.endsWith('#') && form.length >= 3;
  const rxLabel = form.startsWith('RX') && form.length >= 4;
  for (const [known, field] of BY_FORM) {
    const long = Math.max(known.length, form.length) >= 6 && Math.min(known.length, form.length) >= 5;
    if ((long || (hashed && known.endsWith('#')) || (rxLabel && known.startsWith('RX'))) && withinOneEdit(form, known)) return field;
  }
  return undefined;
}

/** Whether a word is a slash or one of the field's one-word captions, a letter or so misread. */
function translationOf(word: string, field: LabelledField): boolean {
  if (word.endsWith('/')) return true;
  const form = labelForm(word);
  return form.length >= 4 && LABELS[field].some((known) => known.length >= 4 && withinOneEdit(form, known));
}

/** Whether a caption as read is the end of another field's caption ("GRP" of RxGRP, "Name" of Plan Name). */
export function endsAnotherCaption(caption: string, field: LabelledField): boolean {
  const form = labelForm(caption.replace(/\s+/g, ''));
  return form.length > 0 && [...BY_FORM].some(([known, other]) => other !== field && known !== form && known.endsWith(form));
}

export interface LabelMatch {
  field: LabelledField;
  /** Index of the label's first token and one past its last. */
  start: number;
  end: number;
  /** 1 for an exact wording, less for one recovered from a misread. */
  quality: number;
  /** The caption is followed by its translation ("Name/Nombre"). */
  translated?: boolean;
}

const MANGLED_ID = /^[1Il|][DPO0]#?:?$/;

/** A three-letter token one letter from BIN or PCN, followed by a value of that label's shape. */
function mangledRxLabel(tokens: string[], i: number): 'rx_bin' | 'rx_pcn' | undefined {
  const form = labelForm(tokens[i]).replace(/#$/, '');
  const next = tokens[i + 1]?.replace(/[^A-Za-z0-9]/g, '') ?? '';
  if (form.length !== 3 || BY_FORM.has(form) || tokens.length !== i + 2) return undefined;
  if (withinOneEdit(form, 'BIN') && /^\d{6}$/.test(next)) return 'rx_bin';
  if (withinOneEdit(form, 'PCN') && /^[A-Z0-9]{2,10}$/.test(next) && /[A-Z]/.test(next) === /^[A-Z]/.test(next)) return 'rx_pcn';
  return undefined;
}

/** Words that close a caption saying a number follows, in either language. */
const NUMBER_WORD = /^(NUMBER|NUM|NO|NUMERO|#)$/;
/** Fields whose value is words, where "No" or "Number" may be the value's own. */
const FREE_TEXT = new Set<LabelledField>(['member_name', 'plan_name']);

/** Tokens OCR makes of a printed "#" after a label ("Member 4", "Group H"). */
const HASH_LIKE = new Set(['#', '4', 'H', '*', '+', '#:']);

/**
 * The label that starts at token `i`, longest wording first ("Member ID" before "Member").
 * A label may end inside a token: "ID#:H92787257" is the label ID# and the value H92787257.
 */
export function labelAt(tokens: string[], i: number, midSegment: boolean): (LabelMatch & { rest?: string }) | undefined {
  let form = '';
  let best: (LabelMatch & { rest?: string }) | undefined;
  // "ID" is short enough that OCR often mangles it ("Ip", "1D", "lD"): accept those at
  // the start of a segment; the value must then still look like a member id.
  if (MANGLED_ID.test(tokens[i]) && !midSegment) best = { field: 'member_id', start: i, end: i + 1, quality: 0.85 };
  // "BIN" and "PCN" are as short, and printed small: one letter misread ("ain", "pen:") is
  // still the label when what follows has the value's strict shape (NCPDP: a BIN is six digits).
  const mangledRx = mangledRxLabel(tokens, i);
  if (mangledRx && !midSegment) best = { field: mangledRx, start: i, end: i + 1, quality: 0.85 };
  for (let k = i; k < Math.min(tokens.length, i + 4); k++) {
    const token = tokens[k];
    // A caption and its translation after a slash in one word: "Number/Número", "Name/Nombre".
    const slash = token.indexOf('/');
    if (slash > 0) {
      const field = lookup(form + labelForm(token.slice(0, slash)));
      if (field) best = { field, start: i, end: k + 1, quality: 1, translated: true };
      break;
    }
    const glued = /^(.*?[#:])([A-Z0-9].*)$/i.exec(token);
    if (glued && k === i) {
      const field = lookup(form + labelForm(glued[1]));
      if (field) best = { field, start: i, end: k + 1, quality: NETWORK_CAPTIONS.has(form + labelForm(glued[1])) ? NETWORK_QUALITY : 1, rest: glued[2] };
    }
    form += labelForm(token);
    if (form.length > LONGEST + 1) break;
    const field = lookup(form);
    // "Benefit Plan:" ends in the standard's own "Plan:", colon and all: as sure as that caption.
    const outside = OUTSIDE_THE_STANDARDS.has(form) && !token.endsWith(':');
    if (field) best = { field, start: i, end: k + 1, quality: !BY_FORM.has(form) ? 0.85 : outside ? OUTSIDE_QUALITY : NETWORK_CAPTIONS.has(form) ? NETWORK_QUALITY : 1 };
  }
  if (!best) return undefined;
  // The caption's translation after a slash ("Medicare Number/Número de Medicare", "Nombre /
  // Name") is more caption, not the value: the value is beside or under the pair.
  if (best.translated || tokens[best.end]?.startsWith('/') || tokens[best.end - 1]?.endsWith('/')) {
    let end = best.end;
    if (tokens[end] === '/') end++;
    else if (tokens[end]?.startsWith('/') && isCaptionWord(tokens[end].slice(1))) end++;
    while (end < tokens.length && end - best.end < 5 && isCaptionWord(tokens[end])) end++;
    best = { ...best, end, translated: true };
  }
  // Two words make a label clear enough mid-line too: "… GROUP NUMBER 680765". So does the
  // other half of a bilingual caption before it, after a slash or one letter misread with the
  // slash lost ("Grupa Group" of "Grupo / Group").
  if (midSegment && !translationOf(tokens[i - 1] ?? '', best.field) && !DISTINCTIVE.has(best.field) && !/[:#]$/.test(tokens[best.end - 1]) && best.end - best.start < 2) return undefined;
  // A caption's closing "Number" or "No." beyond the wordings above ("Subscriber ID Number",
  // "Policy Number No."): more caption, never the start of a code or an id.
  if (!best.rest && !FREE_TEXT.has(best.field) && best.end < tokens.length - 1 && NUMBER_WORD.test(plainWord(tokens[best.end]))) best = { ...best, end: best.end + 1 };
  // "Member 4 W123..." : the 4 is the label's "#" misread, not part of the value.
  if (!best.rest && best.end < tokens.length - 1 && HASH_LIKE.has(tokens[best.end])) {
    const withHash = lookup(labelForm(tokens.slice(best.start, best.end).join('')) + '#');
    if (withHash) best = { ...best, field: withHash, end: best.end + 1 };
  }
  return best;
}
