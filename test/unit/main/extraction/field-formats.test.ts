import { describe, expect, it } from 'vitest';
import { ambiguousJoin, asMbi, asMbiWithExtraGlyph, blueCardRepaired, closingHookAsJ, FIELD_FORMATS, holdsDate, isDate, lostGlyphs, medigapPlan, repairPrefixedId, romanNumeralRepaired } from '@src/main/extraction/field-formats';

describe('O/0, I/1, S/5 repairs where the format makes the reading clear', () => {
  it('repairs look-alikes after an id prefix, never inside it', () => {
    expect(repairPrefixedId('W12O4S6789').value).toBe('W120456789');
    expect(repairPrefixedId('XGH1234S6789').value).toBe('XGH123456789');
    // A prefix letter right before the digits is a digit misread: U0261… read as UO261….
    expect(repairPrefixedId('UO261352298').value).toBe('U0261352298');
    // Lower-case l is a 1 anywhere: ids are printed in capitals.
    expect(repairPrefixedId('Ul447143377').value).toBe('U1447143377');
    expect(repairPrefixedId('SIB123456').value).toBe('SIB123456');
  });

  it('member ids: alpha prefixes kept, spaces and punctuation dropped, too few digits refused', () => {
    expect(FIELD_FORMATS.member_id('W933 623 211')).toMatchObject({ value: 'W933623211', fit: 1, repairs: 0 });
    expect(FIELD_FORMATS.member_id('XGH12345678O')).toMatchObject({ value: 'XGH123456780', repairs: 1 });
    expect(FIELD_FORMATS.member_id('Services')).toBeNull();
    expect(FIELD_FORMATS.member_id('AB12')).toBeNull();
  });

  it('RxBIN is six digits: every look-alike becomes a digit, anything else is refused', () => {
    expect(FIELD_FORMATS.rx_bin('61O279')).toMatchObject({ value: '610279', repairs: 1 });
    expect(FIELD_FORMATS.rx_bin('01 7010')).toMatchObject({ value: '017010', repairs: 0 });
    expect(FIELD_FORMATS.rx_bin('0I5S81')).toMatchObject({ value: '015581', repairs: 2 });
    expect(FIELD_FORMATS.rx_bin('61027')).toBeNull();
    expect(FIELD_FORMATS.rx_bin('1-800-555-0199')).toBeNull();
  });

  it('RxBIN: a G or a "b" read for a digit is a 6, a "g" a 9, only where six digits result (a repair)', () => {
    // NCPDP: the BIN is six digits. 610602 and 004336 are processors' published BINs.
    expect(FIELD_FORMATS.rx_bin('G10602')).toMatchObject({ value: '610602', repairs: 1 });
    expect(FIELD_FORMATS.rx_bin('0043b6')).toMatchObject({ value: '004366', repairs: 1 });
    expect(FIELD_FORMATS.rx_bin('61050g')).toMatchObject({ value: '610509', repairs: 1 });
    // A capital B is still an 8; too few or too many digits is still no BIN.
    expect(FIELD_FORMATS.rx_bin('B10602')).toMatchObject({ value: '810602', repairs: 1 });
    expect(FIELD_FORMATS.rx_bin('G1060')).toBeNull();
    expect(FIELD_FORMATS.rx_bin('G106022')).toBeNull();
    expect(FIELD_FORMATS.rx_bin('Group')).toBeNull();
  });

  it('RxPCN and RxGRP are repaired only where the code is clearly digits or clearly letters', () => {
    expect(FIELD_FORMATS.rx_pcn('9S99')?.value).toBe('9599');
    expect(FIELD_FORMATS.rx_pcn('MEDDADV')?.value).toBe('MEDDADV');
    expect(FIELD_FORMATS.rx_pcn('CIH1NS')?.value).toBe('CIHINS');
    expect(FIELD_FORMATS.rx_group('MEDD0ADV')?.value).toBe('MEDDOADV');
    expect(FIELD_FORMATS.rx_group('RX2O76')?.value).toBe('RX2076');
    // Mixed codes are left as read: nothing says which characters are which.
    expect(FIELD_FORMATS.rx_pcn('0213ENGT')?.value).toBe('0213ENGT');
  });

  it('a mixed Rx code changed by a repair is a guess, fit under "check this" (NCPDP gives RxGRP no shape)', () => {
    // Printed CDS859: the S before the digits reads as a 5 by the member-id rule, and
    // nothing in the code's format says which it is.
    expect(FIELD_FORMATS.rx_group('CDS859')).toMatchObject({ value: 'CD5859', repairs: 1 });
    expect(FIELD_FORMATS.rx_group('CDS859')!.fit).toBeLessThan(0.8);
    expect(FIELD_FORMATS.rx_group('RX2O76')!.fit).toBeLessThan(0.8);
    // Read as printed, nothing changed: as sure as the OCR.
    expect(FIELD_FORMATS.rx_group('RX6833')!.fit).toBeGreaterThanOrEqual(0.9);
    expect(FIELD_FORMATS.rx_pcn('0213ENGT')!.fit).toBeGreaterThanOrEqual(0.9);
  });

  it("a code's last glyph read as a closing bracket none opened is a J's hook, a guess under \"check this\"", () => {
    // Sans-serif print: "KT31J" read "KT31)" at OCR 90; the bracket dropped as punctuation left "KT31".
    expect(FIELD_FORMATS.rx_group('KT31)')).toMatchObject({ value: 'KT31J', repairs: 1 });
    expect(FIELD_FORMATS.rx_group('KT31)')!.fit).toBeLessThan(0.8);
    expect(FIELD_FORMATS.rx_pcn('ADV)')).toMatchObject({ value: 'ADVJ' });
    expect(FIELD_FORMATS.rx_pcn('ADV)')!.fit).toBeLessThan(0.8);
    // A bracket opened before is punctuation: the code is what is inside.
    expect(FIELD_FORMATS.rx_group('(RX2398)')).toMatchObject({ value: 'RX2398', repairs: 0 });
    expect(FIELD_FORMATS.rx_group('KT31J')!.fit).toBeGreaterThanOrEqual(0.9);
  });

  it('an id or group whose prefix ends in a letter that prints like a digit (B 8, Z 2, G 6) fits less surely', () => {
    // "AB22322" may be A822322: the format cannot tell the prefix's end from the digits.
    expect(FIELD_FORMATS.group_number('AB22322')).toMatchObject({ value: 'AB22322' });
    expect(FIELD_FORMATS.group_number('AB22322')!.fit).toBeLessThan(FIELD_FORMATS.group_number('AH22322')!.fit);
    expect(FIELD_FORMATS.member_id('XZ2123456789')!.fit).toBeLessThan(FIELD_FORMATS.member_id('XYH123456789')!.fit);
    expect(FIELD_FORMATS.member_id('XYH123456789')!.fit).toBe(1);
  });

  it('group numbers keep dashes and letter prefixes', () => {
    expect(FIELD_FORMATS.group_number('705214-OO1')?.value).toBe('705214-001');
    expect(FIELD_FORMATS.group_number('HX2390')?.value).toBe('HX2390');
    // A group of four characters or fewer may be a longer one cut short: never of the full fit.
    expect(FIELD_FORMATS.group_number('F258')).toMatchObject({ value: 'F258' });
    expect(FIELD_FORMATS.group_number('F258')!.fit).toBeLessThan(1);
    expect(FIELD_FORMATS.group_number('F258917')!.fit).toBe(1);
  });

  it('member names come out as FIRST [M] LAST from the ways cards print them', () => {
    expect(FIELD_FORMATS.member_name('SMITH, JOHN A')?.value).toBe('JOHN A SMITH');
    // The comma of "LAST, FIRST" read as a stop or a semicolon: repaired, so never sure.
    expect(FIELD_FORMATS.member_name('GARCIA. JENNIFER')).toMatchObject({ value: 'JENNIFER GARCIA', repairs: 1 });
    expect(FIELD_FORMATS.member_name('GARCIA; JENNIFER M')).toMatchObject({ value: 'JENNIFER M GARCIA', repairs: 1 });
    expect(FIELD_FORMATS.member_name('eee. Nirager')?.value).not.toBe('Nirager eee');
    // A stop after an initial, a title or a suffix is theirs.
    expect(FIELD_FORMATS.member_name('JOHN Q. PUBLIC')?.value).toBe('JOHN Q. PUBLIC');
    expect(FIELD_FORMATS.member_name('MRS. ANN LEE')?.value).not.toBe('ANN LEE MRS');
    // A clinician's name (the PCP's) is never the member's; a surname Do is a name.
    expect(FIELD_FORMATS.member_name('DR. MARIA LOPEZ')).toBeNull();
    expect(FIELD_FORMATS.member_name('MARIA LOPEZ MD')).toBeNull();
    expect(FIELD_FORMATS.member_name('LOPEZ, MARIA M.D.')).toBeNull();
    expect(FIELD_FORMATS.member_name('ANH DO')?.value).toBe('ANH DO');
    // A name caption with a letter misread is still a caption, in either language.
    expect(FIELD_FORMATS.member_name('MEMBFR NAME')).toBeNull();
    expect(FIELD_FORMATS.member_name('Nombre Miembr0')).toBeNull();
    expect(FIELD_FORMATS.member_name('RODRIGUEZ/ROBERT')?.value).toBe('ROBERT RODRIGUEZ');
    expect(FIELD_FORMATS.member_name('Grace Fitzgerald')?.value).toBe('Grace Fitzgerald');
    // Digits in a name are letters misread.
    expect(FIELD_FORMATS.member_name('5USAN CHEN')?.value).toBe('SUSAN CHEN');
    expect(FIELD_FORMATS.member_name('Services 1-800-947-9106')).toBeNull();
    expect(FIELD_FORMATS.member_name('Member Services')).toBeNull();
    expect(FIELD_FORMATS.member_name('CHEN')).toBeNull();
  });

  it('a company name is not a member name (legal and insurers\' designators: Assurance, Mutual, Association…)', () => {
    expect(FIELD_FORMATS.member_name("Businessmen's Assurance")).toBeNull();
    expect(FIELD_FORMATS.member_name('MERIDIAN MUTUAL')).toBeNull();
    expect(FIELD_FORMATS.member_name('Hawaii Management Alliance Association')).toBeNull();
    expect(FIELD_FORMATS.member_name('Diversified Group Administrators')).toBeNull();
    expect(FIELD_FORMATS.member_name('GRACE MUTUA')?.value).toBe('GRACE MUTUA');
  });

  it('a lower-case word before a name printed in capitals is what was left of its caption, not part of it', () => {
    expect(FIELD_FORMATS.member_name('ame DAVID Q DAVIS')).toMatchObject({ value: 'DAVID Q DAVIS', repairs: 1 });
    expect(FIELD_FORMATS.member_name('me Grace Davis')?.value).toBe('Grace Davis');
    // Name particles are part of the name.
    expect(FIELD_FORMATS.member_name('de LA CRUZ MARIA')?.value).toBe('de LA CRUZ MARIA');
  });
});

describe('letter prefixes misread as digits', () => {
  it('reads a 0, 1 or 5 among leading letters as O, I or S', () => {
    expect(repairPrefixedId('0XF568').value).toBe('OXF568');
    expect(FIELD_FORMATS.rx_group('0XF568')?.value).toBe('OXF568');
    // Leading digits before digits stay digits.
    expect(repairPrefixedId('0862434').value).toBe('0862434');
    expect(repairPrefixedId('U0261352298').value).toBe('U0261352298');
  });
});

describe('a name caption misread before the name', () => {
  it('drops a title-case word that reads as a name caption with a letter misread, and holds the name as repaired', () => {
    expect(FIELD_FORMATS.member_name('Envollee WILLIAM THOMPSON')).toMatchObject({ value: 'WILLIAM THOMPSON', repairs: 1 });
    expect(FIELD_FORMATS.member_name('Menber MARIA LOPEZ')).toMatchObject({ value: 'MARIA LOPEZ', repairs: 1 });
    // A first name in title case is a name, not a caption.
    expect(FIELD_FORMATS.member_name('Maria LOPEZ GARCIA')).toMatchObject({ value: 'Maria LOPEZ GARCIA', repairs: 0 });
  });
});

describe('Medicare ids, phone numbers and template placeholders', () => {
  it('reads the new Medicare card id (MBI) by its position rules, repairing digits only where digits go', () => {
    expect(FIELD_FORMATS.member_id('1EG4-TE5-MK73')).toMatchObject({ value: '1EG4TE5MK73', fit: 1, repairs: 0 });
    // An O where the rules say digit is a 0; the letters S, L, O, I, B, Z are never used.
    expect(FIELD_FORMATS.member_id('1EG4-TE5-MK7O')).toMatchObject({ value: '1EG4TE5MK70', repairs: 1 });
    expect(asMbi('1EG4TE5MK73')).toEqual({ value: '1EG4TE5MK73', repairs: 0 });
    expect(asMbi('0EG4TE5MK73')).toBeNull();
    expect(asMbi('1SG4TE5MK73')).toBeNull();
  });

  it('reads an MBI whose digits printed like letters, by what CMS allows in each position', () => {
    // CMS's sample 1EG4-TE5-MK73 with the 4 (a digit position) and the 5 (letter or digit,
    // but never S) misread: S, L, O, I, B, Z are never MBI letters, so there they are digits.
    expect(asMbi('1EG4TESMK73')).toEqual({ value: '1EG4TE5MK73', repairs: 1 });
    expect(asMbi('1EGATE5MK73')).toBeNull();
    expect(asMbi('1EG4TO5MK73')).toEqual({ value: '1EG4T05MK73', repairs: 1 });
    // G prints like 6; in a digit position it is the 6 ("1PUSVRGEH82" for 1PU5VR6EH82).
    expect(asMbi('1PUSVRGEH82')).toEqual({ value: '1PU5VR6EH82', repairs: 2 });
    // An allowed letter in a letter-or-digit position stays a letter; a digit where only a letter goes is no MBI.
    expect(asMbi('1EGDTE5MK73')).toEqual({ value: '1EG0TE5MK73', repairs: 1 });
    expect(asMbi('16G4TE5MK73')).toBeNull();
    // A repaired MBI is read, but not as sure as one read as printed.
    const repaired = FIELD_FORMATS.member_id('1PUSVRGEH82');
    expect(repaired).toMatchObject({ value: '1PU5VR6EH82', repairs: 2 });
  });

  it('reads the legacy Medicare claim number (nine digits and a letter) as a whole id', () => {
    expect(FIELD_FORMATS.member_id('000-00-0000-A')).toMatchObject({ value: '000000000A', fit: 1 });
  });

  it('never takes a phone number for an id or a group', () => {
    for (const phone of ['1-888-581-3768', '(877) 842-3210', '800.555.0199']) {
      expect(FIELD_FORMATS.member_id(phone)).toBeNull();
      expect(FIELD_FORMATS.group_number(phone)).toBeNull();
    }
  });

  it('returns nothing for the placeholders a template card prints', () => {
    expect(FIELD_FORMATS.group_number('XXXXXXX')).toBeNull();
    expect(FIELD_FORMATS.plan_name('XXXX')).toBeNull();
    expect(FIELD_FORMATS.member_id('MM/DD/YYYY')).toBeNull();
    expect(FIELD_FORMATS.plan_name('effective date')).toBeNull();
  });

  it('trusts a short id less: it may be the start of a longer one', () => {
    expect(FIELD_FORMATS.member_id('00000')!.fit).toBeLessThan(FIELD_FORMATS.member_id('0000099999')!.fit);
  });
});

describe('a name has the shape names are printed in (issue 25)', () => {
  it('is FIRST [M] LAST: a one-letter first name before more words is a letter split off, only a lead', () => {
    expect(FIELD_FORMATS.member_name('NGUYEN, J UIS')?.fit).toBeLessThan(1);
    expect(FIELD_FORMATS.member_name('J UIS NGUYEN')?.fit).toBeLessThan(1);
    expect(FIELD_FORMATS.member_name('NGUYEN, LUIS J')).toMatchObject({ value: 'LUIS J NGUYEN', fit: 1 });
    expect(FIELD_FORMATS.member_name('LUIS J NGUYEN')?.fit).toBe(1);
  });
});

describe('a plan name is the plan, not a code or a network (issue 25)', () => {
  it('is a plan type or network words alone only as a lead: "PPO Network", "National Network", "Medical PPO"', () => {
    for (const bare of ['PPO', 'PPO Network', 'National Network', 'Medical PPO', 'HMO Plan']) expect(FIELD_FORMATS.plan_name(bare)?.fit, bare).toBeLessThan(1);
    // A copay table's tier headers are not even a lead.
    for (const tier of ['In-Network', 'In-Network Out-of-Network', 'Out-of-Network', 'Non-Network']) expect(FIELD_FORMATS.plan_name(tier), tier).toBeNull();
    // A plan's own words beside them make a plan: "Choice Plus", "Open Access Plus", "Gold 1500 PPO".
    for (const plan of ['Choice Plus', 'Open Access Plus', 'Gold 1500 PPO', 'Blue Advantage HMO', 'Select HMO', 'Choice Plus PPO', 'Premier PPO']) expect(FIELD_FORMATS.plan_name(plan)?.fit, plan).toBe(1);
  });

  it('is never a line of plan codes, nor what follows another caption that starts with "Plan" ("Plan Code:", "Plan ID:")', () => {
    expect(FIELD_FORMATS.plan_name('BC 370 BS 870')).toBeNull();
    expect(FIELD_FORMATS.plan_name('Code: PPOB 12')).toBeNull();
    expect(FIELD_FORMATS.plan_name('ID: 04 A')).toBeNull();
  });
});

describe('what a format cannot confirm (issue 25: honest confidence)', () => {
  it('NCPDP lets RxPCN and RxGRP be any letters and digits: a look-alike where letters and digits meet is ambiguous', () => {
    // CDS859 and CD5859, FTAI31 and FTA131, RXO188 and RX0188 are all well-formed codes.
    for (const code of ['CD5859', 'FTA131', 'RX0188', 'QR11Y', 'ASPROD1']) expect(ambiguousJoin(code)).toBe(true);
    // No look-alike OCR swaps at the join (X|4, K|4, X|6, E|2), or one kind only: the reading is what was printed.
    for (const code of ['RX4632', 'HNK462', 'RX6833', 'EWE273', '0418925', 'MEDDADV']) expect(ambiguousJoin(code)).toBe(false);
    expect(FIELD_FORMATS.rx_group('CD5859')!.fit).toBeLessThan(1);
    expect(FIELD_FORMATS.rx_group('RX4632')!.fit).toBe(1);
  });

  it('counts a mark OCR makes of an unreadable glyph touching a name or an id as a character lost', () => {
    expect(lostGlyphs('TERESA X OBRIE!')).toBe(1);
    expect(lostGlyphs('H927!257')).toBe(1);
    expect(lostGlyphs("MARY O'BRIEN-SMITH")).toBe(0);
    expect(lostGlyphs('SMITH, JOHN A.')).toBe(0);
    expect(FIELD_FORMATS.member_name('TERESA X OBRIE!')).toMatchObject({ value: 'TERESA X OBRIE', repairs: 1 });
    expect(FIELD_FORMATS.member_id('H927!257')).toMatchObject({ value: 'H927257', repairs: 1 });
  });
});

describe('member names with a generational suffix', () => {
  it('puts the suffix last whichever way the card printed the name (X12 NM1 / NCPDP: first, middle, last, suffix)', () => {
    expect(FIELD_FORMATS.member_name('SMITH, JOHN A JR')?.value).toBe('JOHN A SMITH JR');
    expect(FIELD_FORMATS.member_name('SMITH JR, JOHN A')?.value).toBe('JOHN A SMITH JR');
    expect(FIELD_FORMATS.member_name('PUBLIC/JANE III')?.value).toBe('JANE PUBLIC III');
    expect(FIELD_FORMATS.member_name('JOHN A SMITH JR')?.value).toBe('JOHN A SMITH JR');
  });
});

describe('misreads a field\'s own alphabet rules out (issue 25), held under "check this"', () => {
  it('reads a hook closing an id as the final J it most often is, counted as a repair', () => {
    expect(closingHookAsJ('M4063745]')).toEqual({ text: 'M4063745J', repairs: 1 });
    expect(closingHookAsJ('M1902826}')).toEqual({ text: 'M1902826J', repairs: 1 });
    // A bracket that closes one opened in the same word is a bracket: the health ID card's "(80840)".
    expect(closingHookAsJ('(80840)')).toEqual({ text: '(80840)', repairs: 0 });
    expect(FIELD_FORMATS.member_id('M1902826)')).toMatchObject({ value: 'M1902826J', repairs: 1 });
    expect(FIELD_FORMATS.member_id('W933623211')).toMatchObject({ value: 'W933623211', repairs: 0 });
  });

  it('never takes a date for an id, a separator lost or not (CMS card: "Coverage starts 03-01-2016")', () => {
    expect(isDate('03-01-2016')).toBe(true);
    expect(isDate('0301-2016')).toBe(true);
    expect(isDate('0201/2024')).toBe(true);
    expect(isDate('02/012024')).toBe(true);
    expect(FIELD_FORMATS.member_id('0201/2024')).toBeNull();
    expect(FIELD_FORMATS.group_number('02/012024')).toBeNull();
    // CMS's sample MBI and a plain id are no dates.
    expect(isDate('1EG4-TE5-MK73')).toBe(false);
    expect(FIELD_FORMATS.member_id('1EG4-TE5-MK73')?.value).toBe('1EG4TE5MK73');
  });

  it('finds a date inside a word as the id search needs it, from the one date pattern isDate uses', () => {
    // A whole date and one with a separator lost, as isDate.
    expect(holdsDate('07-01-1986')).toBe(true);
    expect(holdsDate('0201/2024')).toBe(true);
    // A date run into its caption or a bracket is still a date; isDate wants the word whole.
    expect(holdsDate('DOB:07-01-1986')).toBe(true);
    expect(isDate('DOB:07-01-1986')).toBe(false);
    expect(holdsDate('(2021-03-01)')).toBe(true);
    // Ids are no dates.
    expect(holdsDate('1EG4-TE5-MK73')).toBe(false);
    expect(holdsDate('W123456789')).toBe(false);
    expect(holdsDate('911-80708-01')).toBe(false);
  });

  it('never takes a toll-free number for an id, the rest of it misread ("1-800-MEDICARE (1-800-633-4227)")', () => {
    expect(FIELD_FORMATS.member_id('(1-800-633 427)')).toBeNull();
    expect(FIELD_FORMATS.member_id('1-888-63342')).toBeNull();
    // A HICN printed with dashes starts with three digits, not a 1 and a separator.
    expect(FIELD_FORMATS.member_id('123-45-6789A')?.value).toBe('123456789A');
  });

  it('reads a plan\'s last word of mixed upright strokes as its Roman numeral, as a repair', () => {
    expect(romanNumeralRepaired('POS Il')).toEqual({ value: 'POS II', repairs: 1 });
    expect(romanNumeralRepaired('Option lII')).toEqual({ value: 'Option III', repairs: 1 });
    expect(romanNumeralRepaired('POS II')).toEqual({ value: 'POS II', repairs: 0 });
    expect(romanNumeralRepaired('Plan 11')).toEqual({ value: 'Plan 11', repairs: 0 });
    // Ones alone after a network type: no plan's deductible is 11 ("Choice POS II").
    expect(romanNumeralRepaired('Choice POS 11')).toEqual({ value: 'Choice POS II', repairs: 1 });
    expect(romanNumeralRepaired('HMO 111')).toEqual({ value: 'HMO III', repairs: 1 });
    expect(romanNumeralRepaired('Silver 11')).toEqual({ value: 'Silver 11', repairs: 0 });
    expect(FIELD_FORMATS.plan_name('POS Il')).toMatchObject({ value: 'POS II', repairs: 1 });
  });

  it('reads the BCBS Association\'s BlueCard program name with its thin letters misread, as a repair', () => {
    // The card guide's own wording: "BlueCard PPO" beside the suitcase.
    expect(blueCardRepaired('BhieCard PPO')).toEqual({ value: 'BlueCard PPO', repairs: 1 });
    expect(blueCardRepaired('BIueCard EPO')).toEqual({ value: 'BlueCard EPO', repairs: 1 });
    expect(blueCardRepaired('BlueCard PPO')).toEqual({ value: 'BlueCard PPO', repairs: 0 });
    expect(blueCardRepaired('BLUECARD PPO')).toEqual({ value: 'BLUECARD PPO', repairs: 0 });
    // Another word of the same shape is not BlueCard: three letters differ.
    expect(blueCardRepaired('BestCard Dental')).toEqual({ value: 'BestCard Dental', repairs: 0 });
    expect(FIELD_FORMATS.plan_name('BhieCard PPO')).toMatchObject({ value: 'BlueCard PPO', repairs: 1 });
  });

  it('drops a caption misread past recognition before a name in capitals, as a repair', () => {
    expect(FIELD_FORMATS.member_name('Entoliee CARLOS M LINDQVIST')).toMatchObject({ value: 'CARLOS M LINDQVIST', repairs: 1 });
    // A title-case first name before one surname in capitals is not dropped.
    expect(FIELD_FORMATS.member_name('Grace THOMPSON')?.value).toBe('Grace THOMPSON');
    expect(FIELD_FORMATS.member_name('JOHN Q PUBLIC')).toMatchObject({ value: 'JOHN Q PUBLIC', repairs: 0 });
  });
});

describe('what a card prints after a name on its line is not the name', () => {
  it('refuses a line holding the next caption, a relationship in brackets or the member suffix, so the words before it are tried', () => {
    // X12's NM1 carries the name alone; the card prints the date of birth, the relationship and
    // the member's two-digit suffix (BlueCard's "01") beside it.
    expect(FIELD_FORMATS.member_name('JOHN SMITH DOB: 01/01/1980')).toBeNull();
    expect(FIELD_FORMATS.member_name('JOHN SMITH Sex: M')).toBeNull();
    expect(FIELD_FORMATS.member_name('JOHN SMITH (Self)')).toBeNull();
    expect(FIELD_FORMATS.member_name('JOHN SMITH 01')).toBeNull();
    expect(FIELD_FORMATS.member_name('JOHN SMITH')).toMatchObject({ value: 'JOHN SMITH', fit: 1, repairs: 0 });
    // A digit inside a word is a letter misread, as before.
    expect(FIELD_FORMATS.member_name('J0HN SMITH')).toMatchObject({ value: 'JOHN SMITH', repairs: 1 });
  });

  it('drops the member\'s sequence number after the caption, never reading its digits as letters', () => {
    expect(FIELD_FORMATS.member_name('01: JOHN SMITH')).toMatchObject({ value: 'JOHN SMITH' });
    expect(FIELD_FORMATS.member_name('02 MARY A SMITH')).toMatchObject({ value: 'MARY A SMITH' });
    // A digit inside a word is still a letter misread.
    expect(FIELD_FORMATS.member_name('J0HN SMITH')).toMatchObject({ value: 'JOHN SMITH', repairs: 1 });
  });

  it('drops a caption it does not know before the name, as a repair', () => {
    expect(FIELD_FORMATS.member_name('Primary: JOHN SMITH')).toMatchObject({ value: 'JOHN SMITH', repairs: 1 });
    expect(FIELD_FORMATS.member_name('SMITH, JOHN')).toMatchObject({ value: 'JOHN SMITH', repairs: 0 });
  });
});

describe('an amount is never an NCPDP code', () => {
  it('refuses a copay line read under an RxGRP or RxPCN caption', () => {
    expect(FIELD_FORMATS.rx_group('Generic $10')).toBeNull();
    expect(FIELD_FORMATS.rx_pcn('$25')).toBeNull();
    expect(FIELD_FORMATS.rx_group('RX2076')).toMatchObject({ value: 'RX2076', repairs: 0 });
  });
});

describe('a caption is never an NCPDP code', () => {
  it('refuses the next line\'s caption read in a code\'s place, spaced or run together', () => {
    expect(FIELD_FORMATS.rx_pcn('Rx Group:')).toBeNull();
    expect(FIELD_FORMATS.rx_pcn('RXGROUP')).toBeNull();
    expect(FIELD_FORMATS.rx_group('RxBIN')).toBeNull();
    expect(FIELD_FORMATS.rx_pcn('CG')).toMatchObject({ value: 'CG' });
  });
});

describe('the words printed beside a name', () => {
  it('are no part of it, with or without their colon', () => {
    expect(FIELD_FORMATS.member_name('JOHN SMITH Relationship Self')).toBeNull();
    expect(FIELD_FORMATS.member_name('JOHN SMITH DOB 01/01/1980')).toBeNull();
  });
});

describe('member-id shapes from the standards, read with a glyph too many or a suffix beside them (issue 25)', () => {
  it('repairs an MBI read with one extra glyph to the MBI CMS printed, as a repair', () => {
    // CMS's sample MBI 1EG4-TE5-MK73 with a speck read as a character.
    expect(asMbiWithExtraGlyph('1EG4TE5MK73')).toEqual({ value: '1EG4TE5MK73', repairs: 0 });
    expect(asMbiWithExtraGlyph('1EG4TE5MK773')).toEqual({ value: '1EG4TE5MK73', repairs: 1 });
    expect(asMbiWithExtraGlyph('11EG4TE5MK73')).toEqual({ value: '1EG4TE5MK73', repairs: 1 });
    expect(asMbiWithExtraGlyph('1EG4TTE5MK73')).toEqual({ value: '1EG4TE5MK73', repairs: 1 });
    // A glyph after the last digit leaves two MBIs (1EG4TE5MK73 or 1EG4TE5MK31): no repair can choose.
    expect(asMbiWithExtraGlyph('1EG4TE5MK731')).toBeNull();
    expect(FIELD_FORMATS.member_id('1EG4-TE5-MK773')).toMatchObject({ value: '1EG4TE5MK73', repairs: 1 });
    // Twelve characters no drop makes CMS's shape, and a run of digits, are no MBI.
    expect(asMbiWithExtraGlyph('123456789012')).toBeNull();
    expect(asMbiWithExtraGlyph('XGH123456789')).toBeNull();
    expect(FIELD_FORMATS.member_id('XGH123456789')).toMatchObject({ value: 'XGH123456789', repairs: 0 });
    expect(asMbiWithExtraGlyph('1EG4TE5MK7')).toBeNull();
  });

  it('reads an id without the person code printed beside it, as a repair', () => {
    expect(FIELD_FORMATS.member_id('123456789 00')).toMatchObject({ value: '123456789', repairs: 1 });
    expect(FIELD_FORMATS.member_id('123456789-01')).toMatchObject({ value: '123456789', repairs: 1 });
    // An id read whole keeps all its digits.
    expect(FIELD_FORMATS.member_id('12345678900')).toMatchObject({ value: '12345678900', repairs: 0 });
  });

  it('is sure of a Blue plan prefix only when printed apart from the number or ending in a letter', () => {
    // BlueCard: a three-character prefix, the number, a two-digit suffix that is not sent.
    expect(FIELD_FORMATS.member_id('ABC 123456789 01')).toMatchObject({ value: 'ABC123456789', fit: 1, repairs: 0 });
    expect(FIELD_FORMATS.member_id('ABC123456789 01')).toMatchObject({ value: 'ABC123456789', fit: 1, repairs: 0 });
    expect(FIELD_FORMATS.member_id('ZGP W12345678 02')).toMatchObject({ value: 'ZGPW12345678', repairs: 0 });
    // "U12345678 01": prefix U12 or an id U12345678 with no prefix; the print does not say.
    expect(FIELD_FORMATS.member_id('U12345678 01')).toMatchObject({ value: 'U12345678', repairs: 1 });
  });

  it('drops what the reading kept of a name caption ("ame." or "ame:" of Name:)', () => {
    expect(FIELD_FORMATS.member_name('ame. JOHN SMITH')).toMatchObject({ value: 'JOHN SMITH', repairs: 1 });
    expect(FIELD_FORMATS.member_name('ame: JOHN SMITH')).toMatchObject({ value: 'JOHN SMITH', repairs: 1 });
    expect(FIELD_FORMATS.member_name('ame SMITH, JOHN')).toMatchObject({ value: 'JOHN SMITH', repairs: 1 });
    // A name particle stays: it is part of the name.
    expect(FIELD_FORMATS.member_name('de LA CRUZ MARIA')?.value).toContain('de');
  });
});

describe('a date is never an NCPDP code', () => {
  it('takes no date for an RxPCN or RxGRP: a form\'s boxed row prints the effective date beside them', () => {
    expect(FIELD_FORMATS.rx_pcn('01/01/2024')).toBeNull();
    expect(FIELD_FORMATS.rx_group('2024-01-01')).toBeNull();
    // A code of eight digits is a code (OptumRx's PCN), slashes are what make a date.
    expect(FIELD_FORMATS.rx_pcn('03200000')?.value).toBe('03200000');
  });
});

describe('Medicare Supplement plans by their CMS letters (issue 25)', () => {
  it('reads "Plan G", "Medicare Supplement Plan N" and "High Deductible Plan G" as plans, the letters CMS standardised only', () => {
    expect(FIELD_FORMATS.plan_name('Plan G')).toEqual({ value: 'Plan G', fit: 1, repairs: 0 });
    expect(FIELD_FORMATS.plan_name('Medicare Supplement Plan N')?.value).toBe('Medicare Supplement Plan N');
    expect(FIELD_FORMATS.plan_name('Medigap Plan K')?.value).toBe('Medigap Plan K');
    expect(FIELD_FORMATS.plan_name('High-Deductible Plan G')?.fit).toBe(1);
    // E, H, I and J were withdrawn; "Plan J" is not a Medigap plan now, nor is "Plan Z" one at all.
    for (const other of ['Plan E', 'Plan J', 'Plan Z']) expect(medigapPlan(other), other).toBeNull();
  });

  it('reads the letter alone under a "Plan" caption as that plan, under "check this": one glyph is easily misread (C for G)', () => {
    const letter = FIELD_FORMATS.plan_name('F');
    expect(letter?.value).toBe('Plan F');
    expect(letter!.fit).toBeLessThan(0.8);
    expect(FIELD_FORMATS.plan_name('E')).toBeNull();
    expect(FIELD_FORMATS.plan_name('7')).toBeNull();
  });
});
