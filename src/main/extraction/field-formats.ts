import { labelAt, misreadCaptionOf, type LabelledField } from './field-labels';
import { isCaption, isCaptionWord, isCardWord, isOtherPrint, isSentence, PHONE, plainWord, TOLL_FREE } from './printed-text';

/** A value read for a field, cleaned to its format, and how sure the format makes us. */
export interface FormattedValue {
  value: string;
  /** 1 when the value has the field's usual shape, lower when it only just passes. */
  fit: number;
  /** How many characters were changed by an O/0, I/1, S/5 repair. */
  repairs: number;
}

const TO_DIGIT: Record<string, string> = { O: '0', Q: '0', D: '0', I: '1', L: '1', '|': '1', S: '5', Z: '2', B: '8' };
const TO_LETTER: Record<string, string> = { '0': 'O', '1': 'I', '5': 'S', '8': 'B', '2': 'Z' };
/** Letters OCR reads where a digit was printed; only these are ever repaired to digits. */
const DIGIT_LOOKALIKES = /[OIS]/;

function repair(chars: string[], from: number, to: number, map: Record<string, string>, allowed: RegExp): number {
  let repairs = 0;
  for (let i = from; i < to; i++) {
    const c = chars[i];
    if (map[c] && allowed.test(c)) {
      chars[i] = map[c];
      repairs++;
    }
  }
  return repairs;
}

/**
 * An identifier as cards print them: an optional short letter prefix, then digits
 * (W123456789, XGH123456789, H12345678, 0862434). After the prefix only digits are
 * plausible, so O, I and S there are the digits 0, 1 and 5. A lower-case l is a 1
 * anywhere: identifiers are printed in capitals.
 */
export function repairPrefixedId(raw: string): { value: string; repairs: number; digitShare: number } {
  let repairs = 0;
  const chars = [...raw.replace(/[l|]/g, () => (repairs++, '1')).toUpperCase()];
  // A 0, 1 or 5 followed by a letter at the start is a letter prefix misread: 0XF568.
  for (let i = 0; i < Math.min(3, chars.length - 1) && /[A-Z015]/.test(chars[i]); i++) {
    if (/[015]/.test(chars[i]) && /[A-Z]/.test(chars[i + 1]) && (i === 0 || /[A-Z]/.test(chars[i - 1]))) {
      chars[i] = TO_LETTER[chars[i]];
      repairs++;
    }
  }
  let prefix = 0;
  while (prefix < chars.length && prefix < 4 && /[A-Z]/.test(chars[prefix])) prefix++;
  // A prefix letter that is a digit look-alike right before the digits is more likely a
  // digit: "UO261352298" is U0261352298.
  while (prefix > 1 && DIGIT_LOOKALIKES.test(chars[prefix - 1])) prefix--;
  const tail = chars.slice(prefix);
  const digits = tail.filter((c) => /\d/.test(c)).length;
  const lookalikes = tail.filter((c) => DIGIT_LOOKALIKES.test(c)).length;
  const digitShare = tail.length === 0 ? 0 : (digits + lookalikes) / tail.length;
  if (tail.length >= 3 && digitShare >= 0.75 && digits >= lookalikes) {
    repairs += repair(chars, prefix, chars.length, TO_DIGIT, DIGIT_LOOKALIKES);
  }
  return { value: chars.join(''), repairs, digitShare };
}

/**
 * A letter that prints like a digit (B 8, Z 2, G 6) as the last of a prefix, right before
 * the digits: "AB22322" may be A822322, and the format cannot say which.
 */
const AMBIGUOUS_PREFIX_END = /^[A-Z]{0,3}[BZG]\d/;
/** The fit of an id or group whose prefix may end in a digit misread. */
const AMBIGUOUS_FIT = 0.9;

/**
 * Marks OCR makes of a glyph it could not read ("OBRIE!" for OBRIEN, "H927!257"): never
 * printed in a name or an id, so one touching a letter or digit stands for a character lost.
 * Dropping it silently would hand over a value cut short as if read whole.
 */
const LOST_GLYPH = /(?<=[\p{L}\p{N}])[!?*~^\\]|[!?*~^\\](?=[\p{L}\p{N}])/gu;

export function lostGlyphs(raw: string): number {
  return (raw.match(LOST_GLYPH) ?? []).length;
}

function compact(raw: string, keep = /[A-Za-z0-9|]/): string {
  return [...raw].filter((c) => keep.test(c)).join('');
}

/** Placeholders templates print where a value goes: XXXXXXX, MM/DD/YYYY. */
const PLACEHOLDER = /^[X*#_\s-]{3,}$|MM\/?DD|YYYY/i;

/**
 * The Medicare Beneficiary Identifier: 11 characters, C A AN N A AN N A A N N (C a digit
 * 1-9, A a letter other than S L O I B Z, N a digit, AN either). Where the position says
 * digit, a look-alike letter is the digit (G too: "1PUSVRGEH82" is 1PU5VR6EH82); where it
 * says letter or digit, a letter CMS never uses (S L O I B Z, left out because they print
 * like 5 1 0 1 8 2) can only be that digit; where it says letter, a 0 or 1 cannot be (those
 * letters are never used), so the id is not an MBI.
 */
const MBI_SHAPE = 'CAXNAXNAANN';
const MBI_LETTERS = /^[AC-HJKMNP-RT-Y]$/;
const MBI_TO_DIGIT: Record<string, string> = { ...TO_DIGIT, G: '6' };
export function asMbi(raw: string): { value: string; repairs: number } | null {
  const chars = [...raw.toUpperCase()];
  if (chars.length !== 11) return null;
  let repairs = 0;
  for (let i = 0; i < 11; i++) {
    const kind = MBI_SHAPE[i];
    const c = chars[i];
    if (/\d/.test(c) ? kind !== 'A' : MBI_LETTERS.test(c) && kind !== 'C' && kind !== 'N') continue;
    // A digit where only a letter may stand: not an MBI.
    if (kind === 'A') return null;
    const d = kind === 'X' ? TO_DIGIT[c] : MBI_TO_DIGIT[c];
    if (!d) return null;
    chars[i] = d;
    repairs++;
  }
  if (chars[0] === '0') return null;
  return { value: chars.join(''), repairs };
}

/**
 * An MBI read with one glyph too many (a speck or a split stroke read as a character: 12
 * characters where the 11 CMS prints hold one that, dropped, leaves CMS's shape). Only when
 * the drops agree (or one alone drops a glyph read twice), with at most one look-alike repaired: the dropped glyph
 * counts as a repair, so the id stays under "check this".
 */
export function asMbiWithExtraGlyph(raw: string): { value: string; repairs: number } | null {
  if (raw.length === 11) return asMbi(raw);
  if (raw.length !== 12) return null;
  const found = new Map<string, { repairs: number; doubled: boolean }>();
  for (let i = 0; i < 12; i++) {
    const mbi = asMbi(raw.slice(0, i) + raw.slice(i + 1));
    if (!mbi || mbi.repairs > 1) continue;
    const was = found.get(mbi.value);
    found.set(mbi.value, { repairs: Math.min(was?.repairs ?? Infinity, mbi.repairs), doubled: !!was?.doubled || raw[i] === raw[i - 1] || raw[i] === raw[i + 1] });
  }
  // Where drops give different MBIs, one glyph read twice ("MK773") is the likelier extra one.
  const drops = [...found].filter(([, f]) => found.size === 1 || f.doubled);
  if (drops.length !== 1) return null;
  const [[value, { repairs }]] = drops;
  return { value, repairs: repairs + 1 };
}

/** The legacy Medicare claim number (HICN): nine digits and a letter, maybe a digit after it. */
const HICN = /^\d{9}[A-Z]\d?$/;

/**
 * A Blue plan's id: a three-character prefix (BlueCard's "alpha prefix"), the number (digits,
 * or a letter or two and digits: "ZGP W12345678"), and on many cards a two-digit suffix
 * printed apart that names the person on the contract ("XYZ 123456789 01"). The member id is
 * the prefix and the number; the suffix is not sent.
 */
const BLUE_WITH_SUFFIX = /^\s*([A-Z][A-Z0-9]{2})(\s*-?\s*)([A-Z]{0,2}\d{6,14})\s*[- ]\s*\d{2}\s*$/i;
/**
 * Where a Blue prefix ends is certain when it is printed apart from the number or ends in a
 * letter ("XYZ123456789"); "U12345678" may be the prefix U12 and 345678, or an id U12345678
 * with no prefix at all, and only a person can say which.
 */
function bluePrefixApart(prefix: string, gap: string): boolean {
  return gap !== '' || /[A-Z]$/i.test(prefix);
}

/**
 * An id followed by a person code ("123456789 00", "123456789-01"): the two digits a payer
 * prints beside the subscriber's id to name the person on the contract (X12 271's and NCPDP's
 * person code, sent apart from the id). The id is what comes before; that the two digits are
 * a suffix and not the id's end is the reader's judgement, so a repair.
 */
const PERSON_CODE_SUFFIX = /^\s*([A-Z]{0,4}\d{6,14})\s*[- ]\s*\d{2}\s*$/i;

/** A date as cards print them (03/01/2021, 2021-03-01): a coverage or birth date, never an id or a group. */
const DATE_BODY = String.raw`\d{1,2}[-/.]\d{1,2}[-/.](?:\d{2}|\d{4})|\d{4}[-/.]\d{1,2}[-/.]\d{1,2}`;
const DATE = new RegExp(String.raw`^\s*(?:${DATE_BODY})\s*$`);
/** The same date inside a word ("DOB:07-01-1986", "07/01/1986)"): the word holds a date, so is no id. */
const DATE_INSIDE = new RegExp(DATE_BODY);
/**
 * The same date with one of its two separators lost to the OCR ("0201/2024" of 02/01/2024,
 * "02/012024"): month and day, then a year of this century or the last. No id prints a slash,
 * so a value of this shape is the date it was, not eight digits of an id.
 */
const DATE_SEPARATOR_LOST = /^\s*(\d{2}[-/.]?\d{2}[-/.](19|20)\d{2}|\d{2}[-/.]\d{2}[-/.]?(19|20)\d{2})\s*$/;

/** Whether a word is a printed date, whole or with a separator lost: never an id, a group or a code. */
export function isDate(raw: string): boolean {
  return DATE.test(raw) || DATE_SEPARATOR_LOST.test(raw);
}

/**
 * Whether a word holds a printed date anywhere in it, or is one with a separator lost: a word
 * found by its shape alone (no caption) is never an id when a date is part of it.
 */
export function holdsDate(raw: string): boolean {
  return DATE_INSIDE.test(raw) || DATE_SEPARATOR_LOST.test(raw);
}

/**
 * A hook that closes a word of letters and digits ("M4063745]", "M1902826}", "M1902826)"):
 * what the OCR makes of a final J, whose descender curls like a bracket. No id prints a
 * bracket, and dropping it hands over an id cut short as if read whole; read as the J it
 * most often is, counted as a repair so the id stays under "check this". A bracket that
 * closes one opened in the same word ("(80840)") is a bracket.
 */
const HOOK_END = /^([A-Za-z0-9-]*\d)[\]})]$/;
export function closingHookAsJ(raw: string): { text: string; repairs: number } {
  const word = raw.trim();
  const hooked = HOOK_END.exec(word);
  return hooked ? { text: `${hooked[1]}J`, repairs: 1 } : { text: raw, repairs: 0 };
}

function memberId(printed: string): FormattedValue | null {
  if (PHONE.test(printed) || TOLL_FREE.test(printed) || PLACEHOLDER.test(printed.trim()) || isDate(printed)) return null;
  const { text: raw, repairs: hooks } = closingHookAsJ(printed);
  const blue = BLUE_WITH_SUFFIX.exec(raw);
  const suffixed = blue ? null : PERSON_CODE_SUFFIX.exec(raw);
  const compacted = blue ? `${blue[1]}${blue[3]}` : suffixed ? suffixed[1] : compact(raw);
  const judged = (blue && !bluePrefixApart(blue[1], blue[2])) || suffixed ? 1 : 0;
  const mbi = asMbiWithExtraGlyph(compacted);
  if (mbi) return { value: mbi.value, fit: 1, repairs: mbi.repairs + hooks };
  const { value, repairs: repaired } = repairPrefixedId(compacted);
  const repairs = repaired + judged;
  if (!/^[A-Z0-9]{5,20}$/.test(value)) return null;
  const digits = value.replace(/\D/g, '').length;
  if (digits < 4) return null;
  let fit = /^[A-Z]{0,4}\d{5,}$/.test(value) || HICN.test(value) ? 1 : /^[A-Z]{0,4}\d+[A-Z0-9]*$/.test(value) ? 0.85 : 0.7;
  // Few ids are this short; a short one is as likely the start of a longer one cut off.
  if (value.length < 6) fit *= 0.85;
  if (AMBIGUOUS_PREFIX_END.test(value)) fit *= AMBIGUOUS_FIT;
  return { value, fit, repairs: repairs + hooks + lostGlyphs(raw) };
}

function groupNumber(raw: string): FormattedValue | null {
  if (PHONE.test(raw) || TOLL_FREE.test(raw) || PLACEHOLDER.test(raw.trim()) || isDate(raw)) return null;
  const cleaned = compact(raw, /[A-Za-z0-9|-]/).replace(/^-+|-+$/g, '');
  const { value, repairs } = repairPrefixedId(cleaned);
  if (!/^[A-Z0-9-]{3,20}$/.test(value)) return null;
  const fit = (/^[A-Z]{0,4}\d{3,}(-\d+)*$/.test(value) ? 1 : /\d/.test(value) ? 0.8 : 0.6) * (AMBIGUOUS_PREFIX_END.test(value) ? AMBIGUOUS_FIT : 1);
  // As with ids: a group of four characters or fewer is as likely the start of a longer one
  // whose end was lost ("F258" of F258917) as a short group, and nothing in it says which.
  return { value, fit: value.replace(/-/g, '').length <= 4 ? fit * 0.85 : fit, repairs: repairs + lostGlyphs(raw) };
}

/**
 * Letters whose strokes are a digit's, read where NCPDP's BIN can only have digits: a G or a
 * "b" is a 6 (the bowl and the stem), a "g" a 9. Case matters: a capital B is an 8.
 */
const BIN_LOOKALIKES: Record<string, string> = { G: '6', b: '6', g: '9' };

/** RxBIN: always six digits, so every look-alike is a digit. */
function rxBin(raw: string): FormattedValue | null {
  let repairs = 0;
  const value = [...compact(raw)]
    .map((c) => {
      if (/\d/.test(c)) return c;
      const d = BIN_LOOKALIKES[c] ?? TO_DIGIT[c.toUpperCase()];
      if (d) repairs++;
      return d ?? c.toUpperCase();
    })
    .join('');
  if (!/^\d{6}$/.test(value)) return null;
  return { value, fit: 1, repairs };
}

/**
 * Glyphs OCR swaps between a letter and a digit inside a code: S 5, O 0, I 1, B 8 (every
 * mixed code read wrong on the tuning cards swapped one of these: "CD5859", "NDBOH", "KEO3A").
 * Z 2 and G 6 print alike too but were never swapped there; counting them would put most
 * right codes under "check this" (6 of 10 digits would be suspect).
 */
const LOOKALIKE = /[SOIB0158]/;

/**
 * Whether a mixed code has a look-alike glyph where letters and digits meet ("CD5859" may be
 * CDS859, "FTA131" FTAI31): NCPDP lets an RxPCN or RxGRP be any letters and digits, so
 * nothing but the print says which it is, and OCR reads it either way surely.
 */
export function ambiguousJoin(code: string): boolean {
  const kind = (c: string) => (/\d/.test(c) ? 'digit' : /[A-Z]/.test(c) ? 'letter' : 'other');
  return [...code].some((c, i) => LOOKALIKE.test(c) && [code[i - 1], code[i + 1]].some((n) => n !== undefined && kind(n) !== 'other' && kind(n) !== kind(c)));
}

/** The fit of a code changed by a repair its format cannot confirm: under "check this" whatever the OCR says. */
const GUESSED = 0.75;

/**
 * RxPCN and RxGRP: short codes, all digits (9999, 03200000), all letters (ADV, UHEALTH) or
 * a prefix and digits (RX1234). Repairs only where the code is clearly one kind.
 */
function rxCode(raw: string): FormattedValue | null {
  const trimmed = raw.trim();
  if (!HOOK_READ_AS_BRACKET.test(trimmed)) return rxCodeAsRead(raw);
  const repaired = rxCodeAsRead(`${trimmed.slice(0, -1)}J`);
  return repaired && { ...repaired, fit: Math.min(repaired.fit, GUESSED), repairs: repaired.repairs + 1 };
}

/**
 * A code ending in a closing bracket with none opened: a J's hook, which sans-serif print
 * makes the shape of ")" ("KT31J" read "KT31)" at OCR 90, and the bracket then dropped as
 * punctuation: "KT31", sure and wrong). Codes are letters and digits only, so the glyph was
 * a letter; which one is a guess for a person to check.
 */
const HOOK_READ_AS_BRACKET = /^[A-Za-z0-9]{2,}\)$/;

function rxCodeAsRead(raw: string): FormattedValue | null {
  // An amount is a copay table's ("Generic $10"), never an NCPDP code (letters and digits only).
  if (PLACEHOLDER.test(raw.trim()) || raw.includes('$')) return null;
  // Nor is a date ("01/01/2024" in the box beside the PCN's): its slashes are no code's.
  if (isDate(raw)) return null;
  const text = compact(raw, /[A-Za-z0-9|-]/).toUpperCase().replace(/\|/g, 'I');
  if (!/^[A-Z0-9-]{2,15}$/.test(text)) return null;
  const letters = text.replace(/[^A-Z]/g, '').length;
  const digits = text.replace(/\D/g, '').length;
  // A word of the card's other lines ("COPAY", "OFFICE", "NAME") is not a code, however
  // close it stands to an Rx label.
  if (digits === 0 && (isCardWord(text) || isCaptionWord(text))) return null;
  // NCPDP's codes are single tokens; letters-only codes are short brand-like words.
  // A code of two or three characters has no redundancy: one glyph misread ("AD" for "A4")
  // leaves another well-formed code, so the OCR's word confidence says less about it.
  const short = text.length <= 3 ? 0.8 : 1;
  if (digits === 0 || letters === 0) return { value: text, fit: (digits === 0 && /\s/.test(raw.trim()) ? 0.8 : 1) * short, repairs: 0 };
  const chars = [...text];
  let repairs = 0;
  const lookalikeLetters = [...text].filter((c) => DIGIT_LOOKALIKES.test(c)).length;
  if (digits >= 2 && letters === lookalikeLetters && letters <= 2) {
    // 9S99 is 9599: digits with a look-alike or two.
    repairs = repair(chars, 0, chars.length, TO_DIGIT, DIGIT_LOOKALIKES);
  } else if (letters >= 3 && digits <= 1 && /^[0158]$/.test(text.replace(/[^0-9]/g, '')) && !/\d$/.test(text)) {
    // UHEA1TH is UHEALTH: letters with one look-alike digit inside.
    repairs = repair(chars, 0, chars.length, TO_LETTER, /[0158]/);
  } else {
    // A mixed code has no shape (NCPDP: up to 15 characters, assigned by the processor):
    // a look-alike changed in it ("CDS859" made "CD5859") is a guess for a person to check.
    const id = repairPrefixedId(text);
    return { value: id.value, fit: (id.repairs > 0 ? GUESSED : ambiguousJoin(id.value) ? AMBIGUOUS_FIT : 1) * short, repairs: id.repairs };
  }
  return { value: chars.join(''), fit: short, repairs };
}

/**
 * Words a name never contains: a "Member Services" line is not a member called Services, and a
 * caption read with a letter wrong ("MEMBFR NAME", "Nombre Miembr0") still holds its NAME. Nor the
 * captions and values printed after a name on its line ("DOB", "Relationship Self").
 */
const NOT_NAME = /^(NAMES?|NOMBRES?|APELLIDOS?|SERVICES?|HEALTHCARE|HEALTHPLANS?|PLANS|CALL|PHONE|CARD|PLAN|GROUP|ID|NUMBER|NO|MEMBERS|PROVIDERS?|OF|BENEFICIARY|DEPENDENTS?|SPOUSE|COPAYS?|PREFIX|SUFFIX|PHARMACY|WWW|COM|HEALTH|INSURANCE|BENEFITS?|CUSTOMER|QUESTIONS?|TTY|NETWORK|COPAY|DEDUCTIBLE|EFFECTIVE|DATE|ISSUED?|PCP|RX|BIN|PCN|GRP|DOB|BIRTH|SEX|GENDER|RELATIONSHIP|SELF)$/;

/** Generational suffixes: JR, SR, II, III, IV (the name suffix of X12's NM1 and NCPDP's cardholder name). */
const NAME_SUFFIX = /^(JR|SR|II|III|IV)\.?$/i;

/** Particles of names ("MARIA DE LA CRUZ"), which are also Spanish caption words. */
const NAME_PARTICLE = /^(de|del|la|el|los|las|van|von|der|da|di|du|dos|das)$/i;

/** Titles printed before a name, or a degree after it: MR, MRS, DR, MD … */
const NAME_TITLE = /^(MR|MRS|MS|MISS|DR|ST|STE|MT)$/i;
/**
 * Degrees and titles of a clinician (X12's NM1 prefix "DR", the suffixes MD, DDS, NP …): a card
 * prints them for the primary care physician, never for the member.
 */
const CLINICIAN = /^(DR|MD|DDS|DMD|NP|FNP|APRN|PHD|DPM|DNP|MBBS)$/;

/**
 * "GARCIA. JENNIFER", "GARCIA; JENNIFER": the comma of "LAST, FIRST" misread. A name puts a stop
 * only after an initial, a title or a suffix (J. SMITH, DR. SMITH, SMITH JR.), never after a
 * whole word it continues from; the line is given back with its comma. Names print in capitals
 * or title case: a lower-case first word is what is left of something else.
 */
function commaMisread(raw: string): string {
  if (raw.includes(',')) return raw;
  const m = /^\s*(\p{Lu}[\p{L}'-]{2,})\s*[.;]\s+(?=\p{L})/u.exec(raw);
  if (!m || NAME_SUFFIX.test(m[1]) || NAME_TITLE.test(m[1]) || CLINICIAN.test(m[1].toUpperCase())) return raw;
  return `${m[1]}, ${raw.slice(m[0].length)}`;
}

/**
 * A member name as the desk would type it: "FIRST [M] LAST". Cards also print
 * "LAST, FIRST M" and "LAST/FIRST"; digits inside a name are letters misread.
 */
function memberName(raw: string): FormattedValue | null {
  // What a card prints after the name on its line is never the name: the next caption ("DOB:",
  // "Sex:"), the relationship in brackets ("(Self)"), the member's suffix number ("01"). The
  // caller then tries the words before it. A word glued into the name (J0HN) is another matter.
  const after = raw.trim().split(/\s+/).slice(1);
  if (after.some((w) => /\p{L}:$/u.test(w) || /^\d+$/.test(w)) || /[()]/.test(raw)) return null;
  let repairs = lostGlyphs(raw);
  // A word and a colon before the name is a caption, known or not ("Primary: JOHN SMITH"): an
  // unknown one is the reader's guess, so a repair (a known one never reaches here).
  // So is the member's sequence number after the caption ("Member 01: JOHN SMITH"): digits
  // alone are never a word of a name, and repaired as one they were ("OI JOHN SMITH").
  const caption = /^\s*(?:\p{L}[\p{L}'.]*:|\d{1,3}[:.)-]?)\s+(?=\S+\s+\S)/u.exec(raw);
  if (caption) {
    raw = raw.slice(caption[0].length);
    repairs++;
  }
  const withComma = commaMisread(raw);
  if (withComma !== raw) repairs++;
  let text = withComma.replace(/[^\p{L}\p{N}\s,/.'-]/gu, ' ').replace(/\s+/g, ' ').trim();
  text = text.replace(/[0158]/g, (d) => (repairs++, TO_LETTER[d]));
  // Names are printed in capitals or title case: a lower-case word before them is what the
  // reading kept of a caption ("ame" of "Name"), not part of the name.
  // Its stop or colon too ("ame. JOHN SMITH", "ame: JOHN SMITH").
  const leading = /^(\p{Ll}+)[.:]? (?=\p{Lu})/u.exec(text);
  if (leading && !NAME_PARTICLE.test(leading[1])) {
    text = text.slice(leading[0].length);
    repairs++;
  }
  // So is a title-case word before a name in capitals that reads as a name caption with a
  // letter misread ("Envollee WILLIAM THOMPSON"): captions are title case, names capitals.
  const titled = /^(\p{Lu}\p{Ll}{3,}) (?=\p{Lu})/u.exec(text);
  const capitals = titled ? text.slice(titled[0].length) : '';
  // So is one misread past a caption's one-letter tolerance ("Entoliee" of Enrollee), when
  // long enough that it is no first name ("Maria LOPEZ GARCIA" keeps Maria).
  if (titled && !/\p{Ll}/u.test(capitals) && (labelAt([titled[1]], 0, false)?.field === 'member_name' || misreadCaptionOf(titled[1], 'member_name'))) {
    text = capitals;
    repairs++;
  }
  let parts: string[];
  const slash = /^([^,/]+)\/([^,/]+)$/.exec(text);
  const comma = /^([^,/]+),\s*([^,/]+)$/.exec(text);
  // "Name/Nombre" is a caption and its translation, not "LAST/FIRST", whatever the OCR made of one side.
  if (slash && (isCaptionWord(slash[1].trim()) || isCaptionWord(slash[2].trim()))) return null;
  if (slash) parts = [...slash[2].trim().split(' '), ...slash[1].trim().split(' ')];
  else if (comma) parts = [...comma[2].trim().split(' '), ...comma[1].trim().split(' ')];
  else parts = text.split(' ');
  // A generational suffix ends the name whichever way it was printed: "SMITH, JOHN A JR" is
  // JOHN A SMITH JR (the suffix is the last name's, as X12's and NCPDP's name suffix field has it).
  if (slash || comma) parts = [...parts.filter((p) => !NAME_SUFFIX.test(p)), ...parts.filter((p) => NAME_SUFFIX.test(p))];
  parts = parts.map((p) => p.replace(/^[.'-]+|[,-]+$/g, '')).filter((p) => p !== '');
  if (parts.length < 2 || parts.length > 5) return null;
  if (!parts.every((p) => /^\p{L}[\p{L}.'-]*$/u.test(p))) return null;
  if (parts.some((p) => NOT_NAME.test(p.toUpperCase()) || CLINICIAN.test(p.replace(/\./g, '').toUpperCase()))) return null;
  // Captions in either language ("Nombre / Name"), sentences ("Prior approval required"),
  // and lines holding a card's everyday words are never a person's name.
  if (isCaption(parts.join(' ')) || isSentence(raw.replace(/[,/]/g, ' ')) || isOtherPrint(raw)) return null;
  // A placeholder name on an insurer's specimen card may hold one caption word ("JOHN Q
  // MEMBER", "SUBSCRIBER SMITH"); a line mostly of captions is a caption.
  const captions = parts.filter((p) => p.length >= 3 && isCaptionWord(p) && !NAME_PARTICLE.test(p)).length;
  if (captions * 2 > parts.length || parts.some((p) => p.length >= 2 && isCardWord(p) && !isCaptionWord(p))) return null;
  if (parts.join('').replace(/[.'-]/g, '').length < 4) return null;
  // FIRST [M] LAST: an initial stands in the middle. A first name of one letter before more
  // words ("J UIS NGUYEN" of "NGUYEN, LUIS") is likelier a letter split off by the OCR than
  // a person who goes by an initial: a lead to check.
  const initialFirst = parts.length >= 3 && /^\p{L}$/u.test(parts[0]);
  const fit = parts.length <= 4 && !initialFirst && parts.filter((p) => p.replace(/\./g, '').length > 1).length >= 2 ? 1 : 0.7;
  return { value: parts.join(' '), fit, repairs };
}

/** Words of a card's other lines that a plan name never holds. */
const NOT_PLAN = /\b(effective|date|issued|copays?|deductible|coinsurance|administered|underwritten|call|visit|www|com|yes)\b|\$/i;

/** Plan types and network words: alone they name a kind of plan or network, not the plan. */
const BARE_PLAN = /^(PPO|HMO|POS|EPO|HDHP|HSA|PLAN|NETWORK|IN-?NETWORK|OUT-?OF-?NETWORK|OAP|MEDICAL|DENTAL|VISION|PHARMACY|COMMERCIAL|GOLD|SILVER|BRONZE|PLATINUM|BASIC|STANDARD|PREMIUM|PREMIER|CHOICE|PLUS|SELECT|CORE|VALUE|HIGH|LOW|INCORPORATED|INC)$/i;

/** Words saying what kind of plan or network it is: a name made of these alone names no plan. */
const PLAN_KIND = /^(PPO|HMO|POS|EPO|HDHP|HSA|NETWORK|IN-?NETWORK|OUT-?OF-?NETWORK|OAP)$/i;
/** A copay table's column: in or out of the network. */
const NETWORK_TIER = /^(IN|OUT-?OF|NON)-?NETWORK$/i;
/** Caption words saying a code or a number follows, in either language. */
const CODE_CAPTION = /^(CODES?|CODIGOS?|ID|NUMBER|NUMERO|NO|NUM|#)$/;
/**
 * What may stand beside a kind word in a bare network name ("National Network", "In Network",
 * "Medical PPO", "PPO Plan"); a product's own word ("Select HMO", "Choice Plus PPO") makes a plan.
 */
const BARE_BESIDE = /^(NATIONAL|IN|OUT|OF|PLAN|MEDICAL|DENTAL|VISION|PHARMACY|COMMERCIAL)$/i;

function planName(raw: string): FormattedValue | null {
  // Before the words a plan never holds: CMS's "High Deductible Plan G" is one.
  const medigap = medigapPlan(raw.replace(/\s+/g, ' ').replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').trim());
  if (medigap) return medigap;
  if (NOT_PLAN.test(raw) || PHONE.test(raw) || isSentence(raw)) return null;
  // A caption of its own after the plan's ("Plan Code: PPOB 12", "Plan ID: 04"), or words
  // saying a code or number follows ("Plan Codes MED 676 RX 455"): a code, not the plan's name.
  if (/^\s*\p{L}+\s*:/u.test(raw) || CODE_CAPTION.test(plainWord(raw.trim().split(/\s+/)[0] ?? ''))) return null;
  const read = raw.replace(/\s+/g, ' ').replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N})+]+$/gu, '').trim();
  const roman = romanNumeralRepaired(read);
  const blue = blueCardRepaired(roman.value);
  const value = blue.value;
  const repairs = roman.repairs + blue.repairs;
  if (PLACEHOLDER.test(value) || /^X+$/i.test(value.replace(/[^A-Za-z]/g, ''))) return null;
  const letters = value.replace(/[^\p{L}]/gu, '').length;
  if (value.length < 2 || value.length > 80 || letters < 2) return null;
  // Mostly letters; a plan is not a phone number or an id.
  if (letters / value.replace(/\s/g, '').length < 0.5) return null;
  const words = value.split(/\s+/);
  // A line of codes ("Plan Codes BC 370 BS 870"): a plan's name has a word of its own, not
  // only captions, short capitals and numbers.
  if (!words.some((w) => /^\p{L}{3,}$/u.test(w.replace(/[^\p{L}]/gu, '')) && !isCaptionWord(w) && /^[\p{L}'&.+-]+$/u.test(w)) || isCaption(value)) return null;
  if (words.filter((w) => /\d/.test(w)).length >= 2) return null;
  // A copay table's tier headers ("In-Network  Out-of-Network") name no plan, not even as a lead.
  if (words.every((w) => NETWORK_TIER.test(w.replace(/[^\p{L}-]/gu, '')))) return null;
  // "PPO" or "Network" alone names the kind of plan, not the plan: a lead for a person.
  // So do kind and network words together ("PPO Network", "National Network", "Medical PPO").
  const bare =
    (words.length === 1 && BARE_PLAN.test(plainWord(value))) ||
    (words.some((w) => PLAN_KIND.test(w.replace(/[^\p{L}-]/gu, ''))) && words.every((w) => PLAN_KIND.test(w.replace(/[^\p{L}-]/gu, '')) || BARE_BESIDE.test(plainWord(w))));
  return { value, fit: bare ? 0.6 : 1, repairs };
}

/**
 * Medicare Supplement (Medigap) plans are standardised by CMS and named by letter: A, B, C, D,
 * F, G, K, L, M and N (E, H, I and J were withdrawn; F and G also come as high-deductible
 * plans). A card prints "Plan G", "Medicare Supplement Plan N", or the letter alone under a
 * "Plan" caption. The letter alone is read as the plan "Plan G"; a single glyph is easily
 * misread (C for G, both plans), so it stays under "check this".
 */
const MEDIGAP_LETTER = /^[A-DFGK-N]$/;
const MEDIGAP_PLAN = /^(?:(?:Medicare\s+)?(?:Supplement(?:al)?|Medigap)(?:\s+Insurance)?\s+)?(?:High[- ]Deductible\s+)?Plan\s+[A-DFGK-N]$/i;
export function medigapPlan(read: string): FormattedValue | null {
  if (MEDIGAP_LETTER.test(read)) return { value: `Plan ${read}`, fit: 0.75, repairs: 0 };
  if (MEDIGAP_PLAN.test(read)) return { value: read, fit: 1, repairs: 0 };
  return null;
}

/**
 * A plan's last word of two or three upright strokes where one is an I ("POS Il", "Option lII"):
 * the Roman numeral of a plan's generation or tier (II, III), whose I OCR reads as l, 1 or |.
 * No word of a plan's name is written with those strokes mixed, so it can only be the numeral;
 * counted as a repair, the name stays under "check this". Ones alone ("POS 11") are the numeral
 * only after a network type (POS, HMO, PPO, EPO: "Choice POS II"), where a plan prints a
 * deductible if any number, never 11 or 111; after another word ("Plan 11") they may be a number.
 */
const ROMAN_STROKES = /(?<=\p{L}\S* )([Il1|]{2,3})$/u;
const AFTER_NETWORK_TYPE = /\b(POS|HMO|PPO|EPO) 1{2,3}$/i;
export function romanNumeralRepaired(name: string): { value: string; repairs: number } {
  const strokes = ROMAN_STROKES.exec(name)?.[1];
  if (!strokes || /^I+$/.test(strokes) || (!strokes.includes('I') && !AFTER_NETWORK_TYPE.test(name))) return { value: name, repairs: 0 };
  return { value: name.slice(0, name.length - strokes.length) + 'I'.repeat(strokes.length), repairs: 1 };
}

/**
 * BlueCard, the Blue Cross Blue Shield Association's program for care away from home, is printed
 * by name on Blue plans' cards ("BlueCard PPO", beside the suitcase its card guide requires). Its
 * thin middle letters are the ones OCR misreads ("BhieCard"): an eight-letter word that keeps
 * BlueCard's B and CARD and differs in at most two of the letters between is that name. A repair,
 * so the plan stays under "check this".
 */
const BLUECARD = 'BLUECARD';
export function blueCardRepaired(name: string): { value: string; repairs: number } {
  let repairs = 0;
  const value = name
    .split(' ')
    .map((word) => {
      const upper = word.toUpperCase();
      if (upper === BLUECARD || !/^B\p{L}{3}CARD$/iu.test(word)) return word;
      const differ = [...upper].filter((ch, i) => ch !== BLUECARD[i]).length;
      if (differ > 2) return word;
      repairs++;
      return 'BlueCard';
    })
    .join(' ');
  return { value, repairs };
}

export const FIELD_FORMATS: Record<LabelledField, (raw: string) => FormattedValue | null> = {
  member_name: memberName,
  member_id: memberId,
  group_number: groupNumber,
  plan_name: planName,
  rx_bin: rxBin,
  rx_pcn: rxCode,
  rx_group: rxCode,
};
