/**
 * Text a card prints that is never a field's value: captions (in English and Spanish, the
 * languages US cards print, often side by side as "Name / Nombre"), sentences, phone
 * numbers, web and mail addresses, copay lines. Each test is a rule about how cards are
 * printed (INCITS 284 / WEDI's health ID card guide, CMS's Medicare card), not about one card.
 */

/** Upper case without accents: "Número" and "NUMERO" are one word. */
export function plainWord(word: string): string {
  return word
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z0-9#]/g, '');
}

/**
 * Words of field captions, both languages: what stands before or above a value. A caption
 * translated after a slash ("Medicare Number/Número de Medicare") is made of these.
 */
const CAPTION_WORDS = new Set([
  // English (INCITS 284 / WEDI and the common variants)
  'MEMBER', 'MEMBERS', 'NAME', 'ID', 'IDENTIFICATION', 'IDENTIFIER', 'NUMBER', 'NO', 'NUM', 'SUBSCRIBER', 'ENROLLEE', 'CARDHOLDER',
  'BENEFICIARY', 'INSURED', 'PATIENT', 'POLICY', 'GROUP', 'GRP', 'PLAN', 'PRODUCT', 'TYPE', 'CODE', 'CODES', 'ISSUER', 'EFFECTIVE', 'DATE',
  'ISSUED', 'ISSUE', 'DOB', 'BIRTH', 'PCP', 'PHYSICIAN', 'PRIMARY', 'CARE', 'PROVIDER', 'NETWORK', 'MEDICARE', 'MEDICAID', 'CLAIM',
  'PREFIX', 'SUFFIX', 'COVERAGE', 'DEPENDENTS', 'DEPENDENT', 'SPOUSE', 'OF', 'THE', 'RX', 'BIN', 'PCN', 'RXBIN', 'RXPCN', 'RXGRP', 'RXGROUP', 'RXID',
  'PAYER', 'PAYOR', 'ENTITLED', 'TO', 'HOSPITAL', 'MEDICAL', 'PART', 'A', 'B',
  // Spanish
  'NOMBRE', 'NUMERO', 'DE', 'DEL', 'LA', 'EL', 'MIEMBRO', 'AFILIADO', 'AFILIADA', 'IDENTIFICACION', 'GRUPO', 'FECHA', 'VIGENCIA',
  'EFECTIVA', 'NACIMIENTO', 'SUSCRIPTOR', 'TITULAR', 'ASEGURADO', 'BENEFICIARIO', 'DEPENDIENTES', 'CON', 'DERECHO', 'PARTE',
  'MEDICO', 'PROVEEDOR', 'PLAN', 'TIPO', 'CODIGO', 'RED', 'EMISOR', 'POLIZA',
]);

/** Whether every word of `text` is a caption word: "Nombre / Name", "Número de Medicare". */
export function isCaption(text: string): boolean {
  const words = text.split(/[\s/|]+/).map(plainWord).filter((w) => w !== '');
  return words.length > 0 && words.every((w) => CAPTION_WORDS.has(w));
}

export function isCaptionWord(word: string): boolean {
  return CAPTION_WORDS.has(plainWord(word));
}

/**
 * Words of sentences: function words (English and Spanish) and the verbs and nouns of the
 * notices cards print ("Prior approval required for …", "Call before you visit").
 */
const SENTENCE_WORDS = new Set([
  'THE', 'AND', 'FOR', 'WITH', 'FROM', 'YOUR', 'YOU', 'THIS', 'THAT', 'ARE', 'IS', 'BE', 'BY', 'OR', 'NOT', 'ONLY', 'ALL', 'ANY',
  'MUST', 'CAN', 'SHOULD', 'IF', 'AT', 'ON', 'TO', 'AN', 'AS', 'PLEASE', 'BEFORE', 'AFTER', 'VISIT', 'CALL', 'SEE', 'USE', 'SHOW',
  'PRESENT', 'CONTACT', 'PARA', 'POR', 'LOS', 'LAS', 'SU', 'ESTA', 'ESTE', 'LLAME', 'PRIOR', 'APPROVAL', 'AUTHORIZATION',
  'AUTHORISATION', 'REQUIRED', 'REQUIRES', 'NOTICE', 'OBTAIN', 'GUARANTEE', 'VERIFY', 'SUBMIT', 'SEND', 'DOES', 'WHEN', 'WHERE',
]);

/**
 * Everyday words of cards (besides the sentence words): the back's small print, copay tables,
 * what notices speak of. A line holding one is not a person's name, and a code spelled as one
 * is not an Rx code. Words that are also common names (MAY, WILL, GRANT, HOPE) are left out
 * on purpose.
 */
const CARD_VOCABULARY = new Set([
  ...SENTENCE_WORDS,
  'SERVICES', 'SERVICE', 'COVERAGE', 'COVERED', 'BENEFITS', 'BENEFIT', 'ELIGIBILITY', 'CLAIMS', 'CLAIM', 'MAIL', 'ADDRESS',
  'WEBSITE', 'ONLINE', 'PHONE', 'TTY', 'HOURS', 'DAYS', 'MONDAY', 'FRIDAY', 'EMERGENCY', 'EMERGENCIES', 'URGENT', 'ROOM', 'HOSPITAL',
  'ADMISSION', 'ADMISSIONS', 'INPATIENT', 'OUTPATIENT', 'PRECERTIFICATION', 'PREAUTHORIZATION', 'REFERRAL', 'REFERRALS', 'NURSE', 'LINE',
  'MENTAL', 'BEHAVIORAL', 'HEALTH', 'PHARMACY', 'PHARMACIST', 'PHARMACISTS', 'PRESCRIPTION', 'PRESCRIPTIONS', 'DRUG', 'DRUGS',
  'PROVIDERS', 'PROVIDER', 'MEMBERS', 'CUSTOMER', 'QUESTIONS', 'INFORMATION', 'IMPORTANT', 'ADMINISTERED', 'UNDERWRITTEN', 'INSURED',
  'INSURANCE', 'COMPANY', 'INC', 'LLC', 'CORP', 'CARD', 'CARDS', 'ISSUED', 'VALID', 'PLAN', 'PLANS', 'NETWORK', 'NATIONAL', 'IN', 'OUT',
  'COPAY', 'COPAYS', 'COPAYMENT', 'COPAYMENTS', 'COINSURANCE', 'DEDUCTIBLE', 'DEDUCTIBLES', 'OFFICE', 'SPECIALIST', 'SPECIALISTS',
  'PCP', 'ER', 'UC', 'GENERIC', 'BRAND', 'PREFERRED', 'NONPREFERRED', 'SPECIALTY', 'TIER', 'RETAIL', 'ORDER',
  'INNETWORK', 'OUTOFNETWORK', 'INDIVIDUAL', 'FAMILY', 'MAXIMUM', 'MAX', 'OOP', 'MET', 'WAIVED', 'CHIROPRACTIC', 'VISION', 'DENTAL',
  'TELEHEALTH', 'VIRTUAL', 'LAB', 'XRAY', 'AMBULANCE', 'PREVENTIVE', 'WELLNESS',
  // what company names end with (an insurer's or an employer's name is not a person's)
  'ASSURANCE', 'MUTUAL', 'CORPORATION', 'INCORPORATED', 'ASSOCIATION', 'ALLIANCE', 'ADMINISTRATORS', 'LTD', 'HEALTHCARE',
  // the abbreviations copay tables print
  'DED', 'IND', 'FAM', 'INDFAM', 'COINS', 'SPEC', 'OV', 'UCC', 'EMER', 'RX', 'MH', 'SA',
]);

export function isCardWord(word: string): boolean {
  return CARD_VOCABULARY.has(plainWord(word));
}

/** A phone number as cards print them (1-800-555-0100, (877) 842-3210, 800.555.0100). */
export const PHONE = /(^|\D)(1[-. ]?)?\(?\d{3}\)?[-. ]?\d{3}[-. ]\d{4}(\D|$)/;

/**
 * The start of a toll-free number (NANP's 800, 888, 877, 866, 855, 844, 833 after the 1):
 * "1-800-MEDICARE (1-800-633-4227)" read as "1-800-633 427" is still a phone number, not an
 * id, however the rest of it was read.
 */
export const TOLL_FREE = /(^|\D)1[-. ]\(?8(00|88|77|66|55|44|33)\)?[-. ]/;

/** A web or mail address: www.aetna.com, bcbstx.com/members, help@plan.org. */
export const WEB_ADDRESS = /\b(?:https?:\/\/|www\.)\S+|\b[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:com|org|net|gov|us|mil|info|health)\b|\S+@\S+\.\S+/i;

/** A money amount or a percentage: "$25", "20%": a copay or coinsurance, never an id or a name. */
export const MONEY = /\$\s?\d|\d\s?%/;

/**
 * Whether a line reads as a sentence rather than a value: three or more words with a
 * function word or a notice's word among them ("Prior approval required for …"), or words
 * starting lower case after the first (names and codes are printed in capitals or title case;
 * name particles such as "de", "van" aside).
 */
export function isSentence(text: string): boolean {
  const words = text.split(/\s+/).filter((w) => /\p{L}/u.test(w));
  if (words.length < 2) return false;
  const particles = /^(de|del|la|le|van|von|der|da|di|du|dos|das|y|e|st)$/i;
  const lower = words.slice(1).filter((w) => /^\p{Ll}/u.test(w) && !particles.test(w.replace(/[^\p{L}]/gu, ''))).length;
  if (lower > 0) return true;
  return words.length >= 3 && words.some((w) => SENTENCE_WORDS.has(plainWord(w)));
}

/** Whether a line is small print of another kind: a phone, an address, an amount. */
export function isOtherPrint(text: string): boolean {
  return PHONE.test(text) || WEB_ADDRESS.test(text) || MONEY.test(text);
}
