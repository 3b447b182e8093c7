import { describe, expect, it } from 'vitest';
import { matchPayer, matchPayerLines } from '@src/main/extraction/payer-match';
import { SEED_CLEARINGHOUSE_ENTITIES } from '@src/main/reference/seed-data';
import { directoryEntities } from '@src/shared/payers/payer-directory';
import { REVIEW_BELOW } from '@src/shared/review-threshold';

const payer = (text: string) => matchPayer(text, SEED_CLEARINGHOUSE_ENTITIES)?.entity.name;

describe('payer matched against the known clearinghouse entities', () => {
  it('matches the way payers print their own names', () => {
    expect(payer('aetna\nChoice POS II')).toBe('Aetna');
    expect(payer('BlueCross BlueShield\nof Texas')).toBe('Blue Cross Blue Shield of Texas');
    expect(payer('BLUECROSS BLUESHIELD\nOF TEXAS')).toBe('Blue Cross Blue Shield of Texas');
    expect(payer('United\nHealthcare')).toBe('UnitedHealthcare');
    expect(payer('OXFORD\nHEALTH PLANS')).toBe('Oxford Health Plans');
    expect(payer('MOLINA\nHEALTHCARE')).toBe('Molina Healthcare of California');
    expect(payer('Cigna Healthcare')).toBe('Cigna');
  });

  it('spells out the brand abbreviations cards print: "BCBS" with its state (run in, after a space or on the next line), "UHC"', () => {
    const directory = directoryEntities();
    const lines = (...texts: string[]) => matchPayerLines(texts.map((text, i) => ({ text, confidence: 0.95, header: i < 2 })), directory)?.entity.name;
    // The Blue plans' own short forms (bcbsil.com, "BCBSTX"), and the logo's two lines.
    expect(lines('BCBS', 'Illinois', 'Member Name')).toBe('Blue Cross Blue Shield of Illinois');
    expect(lines('BCBSIL')).toBe('Blue Cross Blue Shield of Illinois');
    expect(lines('BCBS TX')).toBe('Blue Cross Blue Shield of Texas');
    expect(lines('UHC', 'Choice Plus')).toBe('UnitedHealthcare');
    // "BCBS" alone names no one plan: not a guess at one of the thirty-odd.
    expect(lines('BCBS', 'Member Name')).toBeUndefined();
  });

  it("takes a payer's own name in the header over another payer's alternate name read whole from the plan line", () => {
    // The directory keeps products and employer groups as alternate names ("Choice Plus (TRW)"
    // is one of Aetna's): a plan printed as "Choice Plus PPO" does not make the card Aetna's
    // when the header prints its payer's own name, its parenthesised qualifier left out.
    const directory = directoryEntities();
    const card = (header: string) =>
      matchPayerLines(
        [
          { text: header, confidence: 0.95, header: true },
          { text: 'Subscriber: SMITH/MICHAEL', confidence: 0.95, header: true },
          { text: 'Group No.: 6712906', confidence: 0.95, header: false },
          { text: 'Benefit Plan: Choice Plus PPO', confidence: 0.95, header: false },
        ],
        directory,
      );
    expect(card('United Medical Resources')?.entity.name).toBe('United Medical Resources (UMR Onalaska)');
    expect(card('ACEC Health Plans')?.entity.name).toBe('ACEC Health Plans (Salt Lake City)');
    // Not an own name that leaves its state out: the brand's plan of another state is a guess,
    // and the alternate name that names the state ("AmeriHealth Caritas Louisiana") says which.
    const regional = matchPayerLines(
      [
        { text: 'AmeriHealth Caritas', confidence: 0.95, header: true },
        { text: 'Louisiana', confidence: 0.95, header: true },
      ],
      directory,
    );
    expect(regional?.entity.name).toBe('AmeriHealth Caritas Louisiana (LaCare)');
    // Without a payer's own name in the header the alternate name is still only a lead.
    const alone = card('Member Card');
    expect(alone === null || alone.score < REVIEW_BELOW).toBe(true);
  });

  it('allows one misread letter in a long name', () => {
    expect(payer('UnitedHea1thcare')).toBe('UnitedHealthcare');
    expect(payer('Ambeter')).toBe('Ambetter');
  });

  it('needs the brand: a generic "Healthcare" is nobody', () => {
    expect(payer('Healthcare\nMember Services')).toBeUndefined();
    expect(payer('')).toBeUndefined();
  });

  it('takes the entity list as input', () => {
    const entities = [{ id: 'che_x', name: 'Acme Mutual', payer_id: '1' }];
    expect(matchPayer('ACME MUTUAL', entities)?.entity.id).toBe('che_x');
    expect(matchPayer('aetna', entities)).toBeNull();
  });
});

describe('payer matched against the payer directory (~1,250 payers, aliases and alternate names)', () => {
  const directory = directoryEntities();
  const match = (text: string) => matchPayer(text, directory);

  it('finds a payer by its name, an alternate name or its brand printed run together', () => {
    expect(match('BlueCross BlueShield\nof Texas')?.entity.payer_id).toBe('84980');
    expect(match('Cigna Health and Life Insurance Co.')?.entity.name).toBe('Cigna');
    expect(match('HUMANA\nGOLD PLUS (HMO)')?.entity.name).toBe('Humana');
    expect(match('Molina Healthcare\nof California')?.entity.payer_id).toBe('38333');
  });

  it('identifies the payer by a printed payer id, primary or alias', () => {
    const byId = match('Payer ID 87726');
    expect(byId).toMatchObject({ via: 'payer_id', entity: { payer_id: '87726' } });
    expect(match('Payor ID: 61101')?.entity.name).toBe('Humana');
    // An alias id the directory knows (TXBCBS is one of Blue Cross Blue Shield of Texas's).
    expect(match('Payer ID TXBCBS')?.entity.payer_id).toBe('84980');
  });

  it('names nobody from common words, scattered words or another state', () => {
    expect(match('HEALTH SAVINGS PLAN\nShared In and Out of Network')).toBeNull();
    expect(match('Group Health Cooperative\nof South Central Wisconsin')).toBeNull();
    expect(match('Member Services\nHealth Network')).toBeNull();
    // A name run together must span whole printed words: "MEDICARE NAME" holds "caren".
    expect(match('1-800-MEDICARE\nNAME OF BENEFICIARY')).toBeNull();
    expect(match('UNITEDHEALTHCARE')?.entity.name).toBe('UnitedHealthcare');
    // A word many names hold is that word, not two run together: "Medical" is not "Medi-Cal".
    expect(match('CARESOURCE MEDICAID\nMedical Assistance Identification Card')?.entity.name).toBe('CareSource Medicaid Ohio');
    expect(match('Medicaid\nMedical Assistance Identification Card')?.entity.name).not.toBe('Medicaid California Medi-Cal');
    // "CMS" alone turns up on Medicare Advantage cards: the brand printed beside it wins.
    expect(match('CMS H5415 071\nHUMANA')?.entity.name).toBe('Humana');
    // A product name that is also another payer's alternate name does not outrank the brand.
    expect(match('HUMANA    Contoso\nMEMBER    MEDICARE ADVANTAGE PPO')).toMatchObject({ entity: { name: 'Humana' }, score: 1 });
    expect(match('MEDICARE ADVANTAGE PPO')?.score ?? 0).toBeLessThan(REVIEW_BELOW);
  });

  it("reads Original Medicare's card as the national Medicare payer (the directory's MEDICARE alias)", () => {
    const national = directory.find((e) => e.payer_id === 'CMS');
    expect(national).toBeDefined();
    // The legacy red, white and blue card and the new one (Medicare Number, an MBI).
    const legacy = match('MEDICARE    HEALTH INSURANCE\n1-800-MEDICARE\nNAME OF BENEFICIARY\nJANE DOE\nMEDICARE CLAIM NUMBER');
    expect(legacy).toMatchObject({ entity: { payer_id: 'CMS' } });
    expect(legacy!.score).toBeGreaterThanOrEqual(REVIEW_BELOW);
    expect(match('Medicare Health Insurance\nName/Nombre\nJOHN L SMITH\nMedicare Number/Número de Medicare\n1EG4-TE5-MK73')?.entity.payer_id).toBe('CMS');
    // One sign alone is a lead to check; "Medicare" in a plan's name is no sign at all.
    expect(match('Medicare Number 1EG4-TE5-MK73')!.score).toBeLessThan(REVIEW_BELOW);
    expect(match('MEDICARE ADVANTAGE PPO')?.entity.payer_id).not.toBe('CMS');
    // A Medicare Advantage card names its plan's payer, which wins.
    expect(match('HUMANA\nMedicare Health Insurance\nMEDICARE CLAIM NUMBER')?.entity.name).toBe('Humana');
    // Without the national entry among the desk's payers, nobody.
    expect(matchPayer('MEDICARE    HEALTH INSURANCE', SEED_CLEARINGHOUSE_ENTITIES)).toBeNull();
  });

  it('says when the card fits two payers about as well (regional plans of one brand)', () => {
    const premera = match('PREMERA\nBLUE CROSS');
    expect(premera?.entity.name).toMatch(/^Premera Blue Cross/);
    expect(premera!.score).toBeLessThan(REVIEW_BELOW);
  });

  it('stays fast on a directory of 3,500 payers', () => {
    const big = [...directory, ...directory.map((e) => ({ ...e, id: `${e.id}_b`, payer_id: `${e.payer_id}B`, name: `${e.name} Region B` })), ...directory.map((e) => ({ ...e, id: `${e.id}_c`, payer_id: `${e.payer_id}C`, name: `${e.name} Region C` }))];
    expect(big.length).toBeGreaterThanOrEqual(3500);
    matchPayer('warm', big);
    const card = 'UnitedHealthcare\nHealth Plan (80840) 911-80708-01\nMember ID: 128845682    Group Number: 98755\nMember:\nEMILY DICKINSON\nPayer ID 87726\nRxBin: 610279\nUnitedHealthcare Choice Plus';
    const started = performance.now();
    const found = matchPayer(card, big);
    expect(found?.entity.payer_id).toBe('87726');
    // Measured in bench/ for the figure; here only a guard against a quadratic scan.
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('reads the payer from its website where the logo could not be read, and a Blue plan\'s state from it', () => {
    // "bcbs" + a state's postal code is that state's Blue plan.
    expect(match('Member ID XYZ123456789\nwww.bcbsil.com')).toMatchObject({ via: 'website', entity: { payer_id: 'G00621' } });
    expect(match('Visit bcbstx.com or call 1-800-521-2227')?.entity.payer_id).toBe('84980');
    expect(match('Questions? uhc.com')?.entity.name).toBe('UnitedHealthcare');
    // The name leaves the region out; the website says which Blue plan.
    const blue = match('BlueCross BlueShield\nMember ID XYZ123456789\nwww.bcbsil.com');
    expect(blue?.entity.payer_id).toBe('G00621');
    expect(blue?.evidence).toMatch(/bcbsil\.com/);
    // A pharmacy benefit manager's website names nobody: BIN/PCN and the PBM are not the medical payer.
    expect(match('Pharmacy: www.caremark.com\nRxBIN 004336')).toBeNull();
  });

  it('takes a short brand its website names ("umr.com": UMR), which alone would be too short to trust, as a lead where two payers carry it', () => {
    const found = match('UMR\nEnrollee\numr.com');
    expect(found).toMatchObject({ via: 'website', entity: { payer_id: '39026' } });
    // UMR's other payer id ("United Medical Resources (UMR Onalaska)") shares the brand: a lead, not sure.
    expect(found!.score).toBeLessThan(REVIEW_BELOW);
    // The three letters alone, without the address, may be any word's: nobody.
    expect(match('UMR\nEnrollee')).toBeNull();
  });

  it('is not sure of a name read whole inside a line that prints another payer\'s name but for one word', () => {
    // "Blue Cross Blue Shield Arizona" whole; "Health Choice BCBS of Arizona ACA" but its product word.
    const found = match('Health Choice BCBS\nof Arizona');
    expect(found).not.toBeNull();
    expect(found!.score).toBeLessThan(REVIEW_BELOW);
    // Nor does the Blue plan's website make it sure: it names the brand both share.
    expect(match('Health Choice BCBS\nArizona\nbcbsaz.com')!.score).toBeLessThan(REVIEW_BELOW);
    // The Blue plan's name alone is sure: nothing else is printed there.
    expect(match('BCBS of Arizona')!.score).toBeGreaterThanOrEqual(REVIEW_BELOW);
    expect(match('BCBS of Arizona\nbcbsaz.com')!.score).toBeGreaterThanOrEqual(REVIEW_BELOW);
  });

  it("is not sure of a name read in order inside a line that prints a longer payer's name whole, out of order", () => {
    // A logo's two lines merged the wrong way round: "Health Plan of Upper" over "Ohio Valley".
    const found = match('Ohio valley    Health Plan of Upper    TEMPORARY MEMBER ID CARD');
    expect(found!.score).toBeLessThan(REVIEW_BELOW);
    // Each name printed alone, in order, is sure.
    expect(match('Health Plan of Upper Ohio Valley')?.entity.name).toBe('Health Plan of Upper Ohio Valley');
    expect(match('Health Plan of Upper Ohio Valley')!.score).toBeGreaterThanOrEqual(REVIEW_BELOW);
    expect(match('Valley Health Plan')!.score).toBeGreaterThanOrEqual(REVIEW_BELOW);
  });

  it('reads a name across two lines only where it runs on from the end of the first into the start of the second', () => {
    // A plan line over the help line's web address: "Premier" ends a word short of the first
    // line's end and "health" is the middle of the second's; no logo prints a name so.
    const spread = match('Plan Type: Premier PPO\nQuestions: highmarkhealth.com');
    expect(spread?.entity.name).not.toBe('Premier Health');
    // A name broken where the logo breaks it is read, and surely.
    expect(match('Plan Type: PPO\nPremier\nHealth')?.entity.name).toBe('Premier Health');
    expect(match('Plan Type: PPO\nPremier\nHealth')!.score).toBeGreaterThanOrEqual(REVIEW_BELOW);
    expect(match('BlueCross BlueShield\nof Texas')?.entity.name).toBe('Blue Cross Blue Shield of Texas');
  });

  it('reads a logo stacked in three lines of the header, the name running on from line to line', () => {
    const michigan = match('Blue Cross\nBlue Shield\nof Michigan');
    expect(michigan?.entity.name).toBe('Blue Cross Blue Shield of Michigan');
    expect(michigan!.score).toBeGreaterThanOrEqual(REVIEW_BELOW);
    // Below the header, three lines are not one name.
    const lines = (header: boolean[]) => ['Blue Cross', 'Blue Shield', 'of Michigan'].map((text, i) => ({ text, confidence: 1, header: header[i] }));
    expect(matchPayerLines(lines([true, true, false]), directory)?.entity.name).not.toBe('Blue Cross Blue Shield of Michigan');
    // Other words between the name's parts break it.
    expect(match('Premier\nPlan Type: PPO\nHealth')?.entity.name).not.toBe('Premier Health');
  });

  it('never names a payer from one everyday word of payers\' names, even in the header', () => {
    // "Benefit Inc." and "Benefits, Inc." (an alternate name of a Delta Dental) are one-word names.
    expect(match('Express Scripts\nPrescription Benefit')).toBeNull();
    expect(match('MEDI-CAL\nBenefits Identification Card')).toBeNull();
  });

  it('never names a payer from one common word of the small print', () => {
    const card = [{ text: 'Member ID W123456789', confidence: 1, header: true }, { text: 'This card does not guarantee benefits', confidence: 1, header: false }, { text: 'BENEFIT INFORMATION', confidence: 1, header: false }];
    expect(matchPayerLines(card, directory)).toBeNull();
  });

  it('says what each match rests on', () => {
    expect(match('Payer ID 87726')?.evidence).toBe('payer id 87726 printed on the card');
    expect(match('UnitedHealthcare\nChoice Plus')?.evidence).toMatch(/the name “UnitedHealthcare.*” on the card/);
    expect(match('UnitedHealthcare\nwww.uhc.com')?.evidence).toMatch(/and the website uhc\.com/);
  });
});


describe('a name printed without what the directory adds in parentheses', () => {
  const entities = directoryEntities();
  const lines = (...texts: string[]) => texts.map((text) => ({ text, confidence: 0.9, header: true }));

  it('separates the words inside parentheses (an acronym, the administrator, a city) from the name', async () => {
    const { nameParts } = await import('@src/main/extraction/payer-match');
    expect(nameParts('Public Employees Health Plan (PEHP)')).toEqual({ words: ['public', 'employees', 'health', 'pehp'], qualifier: new Set(['pehp']), parenthesised: new Set(['pehp']) });
    expect(nameParts('Cigna')).toEqual({ words: ['cigna'], qualifier: new Set(), parenthesised: new Set() });
    // One word outside is too little alone: matched whole (its parentheses' words kept apart
    // for a name the desk's own table gives, as a website's).
    const icare = nameParts('iCare (Independent Care Health Plan)');
    expect(icare.qualifier).toEqual(new Set());
    expect(icare.parenthesised.has('independent')).toBe(true);
  });

  it('matches the name the card prints, and a name several payers share stays a lead to check', () => {
    const pehp = matchPayerLines(lines('Public Employees Health Plan'), entities);
    expect(pehp?.entity.name).toBe('Public Employees Health Plan (PEHP)');
    // Five payers are "United Medical Resources" something: the one matched is a guess.
    const umr = matchPayerLines(lines('United Medical Resources'), entities);
    expect(umr?.entity.name).toMatch(/United Medical Resources/);
    expect(umr!.score).toBeLessThan(REVIEW_BELOW);
    // The name without its qualifier, stacked on two lines.
    expect(matchPayerLines(lines('North American', 'Insurance Company'), entities)?.entity.name).toBe('North American Insurance Company (Oxford Life)');
    // A payer printed by its own name is not mistaken for the same name with a qualifier.
    expect(matchPayerLines(lines('Cigna'), entities)?.entity.name).toBe('Cigna');
  });
});

describe('payers whose names differ only in the word for their kind (issue 25)', () => {
  const directory = directoryEntities();
  const lines = (...texts: string[]) => matchPayerLines(texts.map((text, i) => ({ text, confidence: 0.95, header: i < 2 })), directory);

  it('takes the one whose kind word ("Insurance", "Plan") the card prints', () => {
    // The directory holds "WPS Health Plan" and "WPS Health Insurance": Plan and Insurance
    // are filler to the matcher, so the names read alike without them.
    expect(lines('WPS HEALTH INSURANCE', 'Member MARIA OKAFOR')?.entity.name).toBe('WPS Health Insurance');
    expect(lines('WPS HEALTH PLAN', 'Member MARIA OKAFOR')?.entity.name).toBe('WPS Health Plan');
    // On the name's own line: a "Plan" caption lower on the card says nothing of the name.
    expect(lines('WPS HEALTH INSURANCE', 'Member MARIA OKAFOR', 'Plan Silver 70 HMO')?.entity.name).toBe('WPS Health Insurance');
  });

  it('takes the name without a kind word when the card prints none ("Aetna Senior Supplemental", not "…Supplemental Insurance")', () => {
    const match = lines('Aetna Senior Supplemental', 'Member DAVID FITZGERALD');
    expect(match?.entity.name).toBe('Aetna Senior Supplemental');
    expect(match!.score).toBeGreaterThanOrEqual(REVIEW_BELOW);
  });

  it('is unsure when the card prints neither kind word', () => {
    const match = lines('WPS HEALTH', 'Member MARIA OKAFOR');
    expect(match?.score ?? 0).toBeLessThan(REVIEW_BELOW);
  });
});

describe('a payer is sure only on evidence that holds on any card (issue 25)', () => {
  // A made-up directory, so that no rule can lean on a real payer's name: twenty brands each
  // with a "Community Health" plan and a "Choice" plan make those words common, as "Health",
  // "Care" and "Choice" are in the real directory.
  const brands = ['Alder', 'Birchwood', 'Cedarline', 'Dogwood', 'Elmstead', 'Fernhill', 'Glenmark', 'Hawthorn', 'Ironwood', 'Juniper', 'Kestrel', 'Larchmont', 'Maplecrest', 'Northgate', 'Oakhurst', 'Pinecrest', 'Quarrystone', 'Redfern', 'Sprucefield', 'Thornbury'];
  const made = (name: string, i: number) => ({ id: `ent_test_${i}`, name, payer_id: `QZ${String(i).padStart(3, '0')}` });
  // and twenty plans "of New York" make that state's words common too.
  const names = [...brands.flatMap((b) => [`${b} Community Health`, `${b} Choice`, `${b} Care of New York`]), 'Community Health Choice', 'Bluebell Health of Ohio', 'Ohio Community Health Choice', 'Community Health Choice of New York'];
  const directory = names.map(made);
  const read = (...texts: string[]) => matchPayerLines(texts.map((text, i) => ({ text, confidence: 0.95, header: i < 2 })), directory);

  it('is never sure of a name read only through common words (a sentence of the fine print)', () => {
    const match = read('LARKSPUR MEDICAL GROUP', 'Member JANE Q SAMPLE', 'ID 123456789', 'Ask about your community health choice network benefits');
    expect(match?.entity.name).toBe('Community Health Choice');
    expect(match!.score).toBeLessThan(REVIEW_BELOW);
  });

  it('is sure of common words with the state they name printed with them (a state’s own programme)', () => {
    const match = read('OHIO COMMUNITY HEALTH CHOICE', 'Member JANE Q SAMPLE');
    expect(match?.entity.name).toBe('Ohio Community Health Choice');
    expect(match!.score).toBeGreaterThanOrEqual(REVIEW_BELOW);
    // A state of two words, both printed.
    const two = read('COMMUNITY HEALTH CHOICE OF NEW YORK', 'Member JANE Q SAMPLE');
    expect(two?.entity.name).toBe('Community Health Choice of New York');
    expect(two!.score).toBeGreaterThanOrEqual(REVIEW_BELOW);
  });

  it('is sure of a name with a word of its own (a brand), printed in full', () => {
    const match = read('Juniper Community Health', 'Member JANE Q SAMPLE');
    expect(match?.entity.name).toBe('Juniper Community Health');
    expect(match!.score).toBeGreaterThanOrEqual(REVIEW_BELOW);
  });

  it('is never sure of a regional payer when the card prints another state (a Blue plan’s state in its logo)', () => {
    // The logo: the brand on one line, the state lower in the header; the directory knows
    // the brand only in another state.
    const other = read('BLUEBELL HEALTH', 'TEXAS', 'Member JANE Q SAMPLE');
    expect(other?.score ?? 0).toBeLessThan(REVIEW_BELOW);
    const own = read('BLUEBELL HEALTH', 'OHIO', 'Member JANE Q SAMPLE');
    expect(own?.entity.name).toBe('Bluebell Health of Ohio');
    expect(own!.score).toBeGreaterThanOrEqual(REVIEW_BELOW);
  });
});

describe('what a card leaves out of a directory name (issue 25)', () => {
  const entities = directoryEntities();
  const lines = (...texts: string[]) => texts.map((text) => ({ text, confidence: 0.9, header: true }));

  it('a possessive "s" is no word of the name: "BUSINESSMEN\'S ASSURANCE" names Businessmen\'s Assurance', async () => {
    const { nameParts } = await import('@src/main/extraction/payer-match');
    expect(nameParts("Businessmen's Assurance (Nebraska)").words).toEqual(['businessmen', 'assurance', 'nebraska']);
    expect(matchPayerLines(lines("BUSINESSMEN'S ASSURANCE"), entities)?.entity.name).toBe("Businessmen's Assurance (Nebraska)");
  });

  it('a state code after the region\'s name is region too: "of Washington" may leave out the DC of "Washington DC"', () => {
    const dc = matchPayerLines(lines('BlueCross BlueShield', 'of Washington'), entities);
    expect(dc?.entity.name).toBe('Blue Cross Blue Shield of Washington DC');
    // Several Blue plans name Washington: which one is a lead to check.
    expect(dc!.score).toBeLessThan(REVIEW_BELOW);
    // A Blue plan printed by its own brand and state is still that plan, surely.
    const regence = matchPayerLines(lines('Regence BlueShield', 'of Washington'), entities);
    expect(regence?.entity.name).toBe('Regence BlueShield of Washington');
    expect(regence!.score).toBeGreaterThanOrEqual(REVIEW_BELOW);
  });
});
