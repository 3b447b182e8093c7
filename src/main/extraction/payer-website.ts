import { US_STATES } from '../../shared/payers/payer-search';

/**
 * The payer a card's printed web address names. Payers print their website on every card
 * (front or back), often where the logo is an image the OCR cannot read, and a regional Blue
 * plan's address names its state ("bcbstx.com", "bluecrossmn.com", "floridablue.com"). The
 * table lists the addresses payers publish for their members; the Blue plans' address rules
 * cover every state without a row each. What is returned is a name to look up in the desk's
 * directory, never a directory entry of its own.
 */

/** Second-level names of payers' member websites → the payer's name as the directory spells it. */
const PAYER_SITES: Readonly<Record<string, string>> = {
  aetna: 'Aetna',
  aetnabetterhealth: 'Aetna Better Health',
  uhc: 'UnitedHealthcare',
  myuhc: 'UnitedHealthcare',
  unitedhealthcare: 'UnitedHealthcare',
  uhcprovider: 'UnitedHealthcare',
  uhccommunityplan: 'UnitedHealthcare Community Plan',
  aarpmedicareplans: 'UnitedHealthcare',
  cigna: 'Cigna',
  mycigna: 'Cigna',
  cignahealthcare: 'Cigna',
  humana: 'Humana',
  anthem: 'Anthem',
  premera: 'Premera Blue Cross',
  regence: 'Regence BlueShield',
  kp: 'Kaiser Permanente',
  kaiserpermanente: 'Kaiser Permanente',
  molinahealthcare: 'Molina Healthcare',
  ambetterhealth: 'Ambetter',
  wellcare: 'WellCare',
  healthnet: 'Health Net',
  emblemhealth: 'EmblemHealth',
  hioscar: 'Oscar Health',
  oscarhealth: 'Oscar Health',
  highmark: 'Highmark',
  highmarkbcbs: 'Highmark Blue Cross Blue Shield',
  ibx: 'Independence Blue Cross',
  horizonblue: 'Horizon Blue Cross Blue Shield of New Jersey',
  excellusbcbs: 'Excellus Blue Cross Blue Shield',
  caresource: 'CareSource',
  floridablue: 'Florida Blue',
  bluecrossmn: 'Blue Cross Blue Shield of Minnesota',
  bluecrossnc: 'Blue Cross Blue Shield of North Carolina',
  bcbsm: 'Blue Cross Blue Shield of Michigan',
  bcbst: 'Blue Cross Blue Shield of Tennessee',
  azblue: 'Blue Cross Blue Shield of Arizona',
  bluekc: 'Blue Cross Blue Shield of Kansas City',
  bluecrossma: 'Blue Cross Blue Shield of Massachusetts',
  carefirst: 'CareFirst Blue Cross Blue Shield',
  capbluecross: 'Capital Blue Cross',
  wellmark: 'Wellmark Blue Cross Blue Shield',
  bcidaho: 'Blue Cross of Idaho',
  nebraskablue: 'Blue Cross Blue Shield of Nebraska',
  fepblue: 'Federal Employee Program',
  geisinger: 'Geisinger Health Plan',
  priorityhealth: 'Priority Health',
  harvardpilgrim: 'Harvard Pilgrim Health Care',
  tuftshealthplan: 'Tufts Health Plan',
  amerigroup: 'Amerigroup',
  wellpoint: 'Wellpoint',
  umr: 'UMR',
  meritain: 'Meritain Health',
  meritainhealth: 'Meritain Health',
  medicare: 'Medicare',
  tricare: 'TRICARE',
  centene: 'Centene',
  selecthealth: 'SelectHealth',
  healthpartners: 'HealthPartners',
  medica: 'Medica',
  ghc: 'Group Health Cooperative',
  quartzbenefits: 'Quartz',
  deancare: 'Dean Health Plan',
  bcbs: 'Blue Cross Blue Shield',
};

/** "bcbs" + a state's postal code is that state's Blue plan (bcbstx, bcbsil, bcbsok, bcbsaz…). */
const BLUE_STATE_SITE = /^bcbs([a-z]{2})$/;
/** "bluecross" / "bcbsof" + a state's name, or the state's name + "blue". */
const BLUE_STATE_NAME = /^(?:bluecross|bluecrossblueshield|bcbsof)([a-z]+)$|^([a-z]+)blue$/;

const STATE_BY_JOINED = new Map(Object.values(US_STATES).map((name) => [name.replace(/ /g, ''), name]));

export interface PayerWebsite {
  /** The address as printed, without scheme or path: "bcbstx.com". */
  domain: string;
  /** The payer's name to look up in the directory. */
  name: string;
  /** The state the address names, for a regional plan. */
  state?: string;
}

const ADDRESS = /\b(?:https?:\/\/)?(?:www\.)?((?:[a-z0-9-]+\.)*([a-z0-9-]+)\.(?:com|org|net|gov|mil|us|health))\b/gi;

/** Lower case and words run together: "BCBSTX .COM" read apart is one address. */
function addressesIn(text: string): { domain: string; label: string }[] {
  const out: { domain: string; label: string }[] = [];
  for (const m of text.replace(/\s*\.\s*(com|org|net|gov|mil|us|health)\b/gi, '.$1').matchAll(ADDRESS)) {
    out.push({ domain: m[1].toLowerCase(), label: m[2].toLowerCase() });
  }
  return out;
}

/** The payer named by a web address on the card, if the address is one payers are known by. */
export function payerWebsite(lines: readonly string[]): PayerWebsite | null {
  for (const { domain, label } of lines.flatMap(addressesIn)) {
    const known = PAYER_SITES[label];
    if (known && label !== 'bcbs') return { domain, name: known };
    const code = BLUE_STATE_SITE.exec(label)?.[1];
    if (code && US_STATES[code]) return { domain, name: `Blue Cross Blue Shield of ${title(US_STATES[code])}`, state: US_STATES[code] };
    const named = BLUE_STATE_NAME.exec(label);
    const state = named && STATE_BY_JOINED.get(named[1] ?? named[2]);
    if (state) return { domain, name: `Blue Cross Blue Shield of ${title(state)}`, state };
    if (known) return { domain, name: known };
  }
  return null;
}

function title(words: string): string {
  return words.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}
