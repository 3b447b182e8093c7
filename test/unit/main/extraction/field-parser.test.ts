import { describe, expect, it } from 'vitest';
import { parseCardFields, readCardFields, UNSURE_AT_MOST } from '@src/main/extraction/field-parser';
import type { OcrLine, OcrPage } from '@src/main/extraction/ocr-worker';
import { SEED_CLEARINGHOUSE_ENTITIES } from '@src/main/reference/seed-data';
import { REVIEW_BELOW } from '@src/shared/review-threshold';
import { directoryEntities } from '@src/shared/payers/payer-directory';

/** A line of OCR words at (x, y): glyphs 0.6 of the text height wide, spaces 0.4. */
function line(x: number, y: number, text: string, h = 24, confidence = 95): OcrLine {
  let cursor = x;
  const words = text.split(' ').map((word) => {
    const w = { text: word, confidence, bbox: { x0: cursor, y0: y, x1: cursor + Math.round(word.length * 0.6 * h), y1: y + h } };
    cursor = w.bbox.x1 + Math.round(0.4 * h);
    return w;
  });
  return { text, confidence, bbox: { x0: x, y0: y, x1: words[words.length - 1].bbox.x1, y1: y + h }, words };
}

function page(...lines: OcrLine[]): OcrPage {
  return { text: lines.map((l) => l.text).join('\n'), lines, width: 1400, height: 900 };
}

const parse = (...lines: OcrLine[]) => parseCardFields([page(...lines)], { entities: SEED_CLEARINGHOUSE_ENTITIES });
const values = (fields: ReturnType<typeof parse>) => Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v!.value]));

describe('field parser', () => {
  it('reads "Label value" rows, with the payer from the known entities', () => {
    const fields = parse(
      line(40, 40, 'aetna', 50),
      line(900, 40, 'Choice POS II'),
      line(40, 150, 'Member Name: JOHN A SMITH'),
      line(40, 210, 'ID#: W123456789'),
      line(40, 270, 'Group No: 0862434'),
      line(620, 450, 'RxBIN: 610502'),
      line(620, 500, 'RxPCN: ADV'),
      line(620, 550, 'RxGRP: RX2076'),
      line(40, 600, 'Member Services 1-800-555-0199', 18),
    );
    expect(values(fields)).toEqual({
      member_name: 'JOHN A SMITH',
      member_id: 'W123456789',
      group_number: '0862434',
      plan_name: 'Choice POS II',
      rx_bin: '610502',
      rx_pcn: 'ADV',
      rx_group: 'RX2076',
      payer_name: 'Aetna',
    });
    for (const field of Object.values(fields)) expect(field!.confidence).toBeGreaterThan(0.5);
  });

  it('reads values printed under their labels, two columns side by side', () => {
    // Tesseract may read straight across both columns: one line, two segments.
    const fields = parse(
      line(40, 40, 'Cigna Healthcare', 48),
      { ...line(40, 150, 'MEMBER NAME'), words: [...line(40, 150, 'MEMBER NAME').words, ...line(620, 150, 'RX BIN').words] },
      line(40, 190, 'BROWN/OLIVIA', 30),
      line(620, 190, '017010', 30),
      line(40, 250, 'ID'),
      line(620, 250, 'RX PCN'),
      line(40, 290, 'U7201633294', 30),
      line(620, 290, '0213ENGT', 30),
      line(40, 350, 'GROUP NUMBER'),
      line(620, 350, 'RX GRP'),
      line(40, 390, '7635022', 30),
      line(620, 390, '1722764', 30),
    );
    expect(values(fields)).toMatchObject({
      member_name: 'OLIVIA BROWN',
      member_id: 'U7201633294',
      group_number: '7635022',
      rx_bin: '017010',
      rx_pcn: '0213ENGT',
      rx_group: '1722764',
      payer_name: 'Cigna',
    });
  });

  it('reads a table: labels in one column, values far to their right', () => {
    const fields = parse(
      line(40, 150, 'Identification No.'),
      line(400, 148, 'XGH123456789', 28),
      line(40, 210, 'Group'),
      line(400, 208, '123456', 28),
    );
    expect(values(fields)).toMatchObject({ member_id: 'XGH123456789', group_number: '123456' });
  });

  it('finds a name printed without a label above the member id, not the payer or the plan', () => {
    const fields = parse(
      line(40, 40, 'UnitedHealthcare', 50),
      line(900, 40, 'Choice Plus'),
      line(40, 140, 'Jennifer R Fitzgerald', 34),
      line(40, 200, 'Member ID 245472031'),
    );
    expect(values(fields)).toMatchObject({ member_name: 'Jennifer R Fitzgerald', plan_name: 'Choice Plus', payer_name: 'UnitedHealthcare' });
    // Found without a label: less sure than a labelled value.
    expect(fields.member_name!.confidence).toBeLessThan(fields.member_id!.confidence);
  });

  it('repairs O/0 and S/5 in a BIN and an id, at a small cost in confidence', () => {
    const clean = parse(line(40, 100, 'Member ID W120456789'), line(40, 160, 'BIN 610279'));
    const misread = parse(line(40, 100, 'Member ID W12O4S6789'), line(40, 160, 'BIN 61O279'));
    expect(values(misread)).toMatchObject({ member_id: 'W120456789', rx_bin: '610279' });
    expect(misread.member_id!.confidence).toBeLessThan(clean.member_id!.confidence);
  });

  it('takes a group label inside the Rx block as the Rx group', () => {
    const fields = parse(line(40, 100, 'Group 705214'), line(620, 400, 'BIN 610279'), line(620, 450, 'PCN 9999'), line(620, 500, 'GRP UHEALTH'));
    expect(values(fields)).toMatchObject({ group_number: '705214', rx_group: 'UHEALTH' });
  });

  it('does not take phone numbers or small print for fields', () => {
    const fields = parse(line(40, 600, 'Member Services 1-800-555-0199'), line(40, 640, 'Questions? Call 1-888-625-3351 (TTY 711)'));
    expect(fields).toEqual({});
  });

  it('reads front and back together, keeping the surer reading', () => {
    const fields = parseCardFields(
      [page(line(40, 100, 'Member ID W123456789', 24, 60)), page(line(40, 100, 'Member ID W123456789', 24, 96), line(40, 160, 'RxBIN 610502'))],
      { entities: SEED_CLEARINGHOUSE_ENTITIES },
    );
    expect(fields.member_id).toEqual({ value: 'W123456789', confidence: 0.96 });
    expect(fields.rx_bin?.value).toBe('610502');
  });

  it('reads real card layouts: "Member:" over the name, dependents under it, a payer id, the plan in the footer', () => {
    const fields = parse(
      line(40, 40, 'UnitedHealthcare', 50),
      line(40, 130, 'Health Plan (80840) 911-80708-01'),
      line(40, 190, 'Member ID: 128845682'),
      line(700, 190, 'Group Number: 98755'),
      line(40, 250, 'Member:'),
      line(40, 280, 'EMILY DICKINSON', 30),
      line(40, 318, 'Dependents:'),
      line(40, 348, 'RICHARD DICKINSON', 30),
      line(700, 330, 'Payer ID 87726'),
      line(720, 440, 'RxBin: 610279'),
      line(720, 480, 'RxPCN: 9987'),
      line(40, 470, 'Office: $25   ER: $300'),
      line(700, 560, 'UnitedHealthcare Choice Plus', 28),
      line(700, 600, 'Administered by United Healthcare Inc.', 20),
    );
    expect(values(fields)).toMatchObject({
      member_name: 'EMILY DICKINSON',
      member_id: '128845682',
      group_number: '98755',
      plan_name: 'UnitedHealthcare Choice Plus',
      rx_bin: '610279',
      rx_pcn: '9987',
      payer_name: 'UnitedHealthcare',
    });
    // A plan without a label is the card's look, not a label: a person confirms it.
    expect(fields.plan_name!.confidence).toBeLessThan(REVIEW_BELOW);
  });

  it('never takes a dependent for the member, even when the member name is missing', () => {
    const fields = parse(line(40, 40, 'aetna', 50), line(40, 190, 'Member ID: W123456789'), line(40, 250, 'Dependents:'), line(40, 280, 'RICHARD DICKINSON', 30), line(40, 320, 'ANNA DICKINSON', 30));
    expect(fields.member_name).toBeUndefined();
  });

  it('joins a BCBS id printed in Prefix / Identification # / Suffix columns, prefix and number', () => {
    const fields = parse(
      line(40, 40, 'BlueCross BlueShield', 50),
      line(40, 100, 'of Texas', 30),
      line(40, 170, 'Member'),
      line(40, 200, 'ANGEL BROWN', 28),
      line(40, 250, 'Prefix'),
      line(160, 250, 'Identification #'),
      line(420, 250, 'Suffix'),
      line(40, 285, 'ABC', 28),
      line(160, 285, '123456789', 28),
      line(420, 285, '01', 28),
      line(40, 340, 'Group # 1000000'),
      line(40, 380, 'Rx BIN# 987654'),
    );
    expect(fields.member_id?.value).toBe('ABC123456789');
    expect(fields.member_name?.value).toBe('ANGEL BROWN');
    expect(fields.payer_name?.value).toBe('Blue Cross Blue Shield of Texas');
  });

  it('reads the Medicare card: "Name of Beneficiary" and the claim number under their captions', () => {
    const fields = parse(line(40, 40, 'MEDICARE', 40), line(40, 120, 'NAME OF BENEFICIARY'), line(40, 150, 'JANE DOE', 28), line(40, 210, 'MEDICARE CLAIM NUMBER'), line(40, 240, '000-00-0000-A', 28));
    expect(fields.member_name?.value).toBe('JANE DOE');
    expect(fields.member_id?.value).toBe('000000000A');
  });

  // CMS's own sample of the new Medicare card (cms.gov, "New Medicare Card" materials): every
  // caption in English and Spanish, the name and the MBI under their captions.
  it('reads CMS\'s sample Medicare card: bilingual captions are captions, the MBI is the id', () => {
    const fields = parseCardFields(
      [
        page(
          line(40, 40, 'MEDICARE HEALTH INSURANCE', 40),
          line(40, 120, 'Name/Nombre', 20),
          line(40, 150, 'JOHN L SMITH', 30),
          line(40, 210, 'Medicare Number/Número de Medicare', 20),
          line(40, 240, '1EG4-TE5-MK73', 30),
          line(40, 300, 'Entitled to/Con derecho a', 20),
          line(700, 300, 'Coverage starts/Cobertura empieza', 20),
          line(40, 340, 'HOSPITAL (PART A)', 26),
          line(700, 340, '03-01-2016', 26),
          line(40, 380, 'MEDICAL (PART B)', 26),
          line(700, 380, '03-01-2016', 26),
        ),
      ],
      { entities: directoryEntities() },
    );
    expect(fields.member_id?.value).toBe('1EG4TE5MK73');
    expect(fields.member_id!.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
    expect(fields.member_name?.value).toBe('JOHN L SMITH');
    expect(fields.payer_name?.value).toMatch(/Medicare/);
  });

  it('finds an MBI printed with no caption it knows, and never a run of digits', () => {
    expect(values(parse(line(40, 40, 'MEDICARE', 40), line(40, 200, '1EG4-TE5-MK73', 30)))).toMatchObject({ member_id: '1EG4TE5MK73' });
    // A run of digits is no MBI: at most an unlabelled id for a person to check.
    expect(parse(line(40, 40, 'Claims', 40), line(40, 200, '12345678901', 30)).member_id?.confidence ?? 0).toBeLessThan(REVIEW_BELOW);
  });

  it('never takes a bilingual caption or a printed sentence for the member\'s name', () => {
    const caption = parse(line(40, 40, 'aetna', 50), line(40, 150, 'Nombre / Name', 22), line(40, 300, 'ID W123456789'));
    expect(caption.member_name).toBeUndefined();
    const notice = parse(line(40, 40, 'aetna', 50), line(40, 150, 'Member must obtain prior approval for imaging'), line(40, 200, 'ID W123456789'));
    expect(notice.member_name).toBeUndefined();
    const shouted = parse(line(40, 40, 'aetna', 50), line(40, 150, 'PRIOR APPROVAL REQUIRED FOR IMAGING', 30), line(40, 200, 'ID W123456789'));
    expect(shouted.member_name).toBeUndefined();
    // The name under a bilingual caption is read.
    const named = parse(line(40, 40, 'aetna', 50), line(40, 150, 'Nombre / Name', 22), line(40, 180, 'MARIA DE LA CRUZ', 30), line(40, 300, 'ID W123456789'));
    expect(named.member_name?.value).toBe('MARIA DE LA CRUZ');
  });

  it('reads Spanish captions: "Número de identificación", "Grupo"', () => {
    const fields = parse(line(40, 150, 'Número de identificación: XGH123456789'), line(40, 210, 'Grupo: 123456'));
    expect(values(fields)).toMatchObject({ member_id: 'XGH123456789', group_number: '123456' });
  });

  it('reads a Blue plan\'s id with its three-character prefix, leaving out the two-digit suffix', () => {
    expect(parse(line(40, 150, 'ID XYZ 123456789 01')).member_id?.value).toBe('XYZ123456789');
    expect(parse(line(40, 150, 'Identification Number: XYZ123456789')).member_id?.value).toBe('XYZ123456789');
    expect(parse(line(40, 150, 'Member ID: R4B987654321-02')).member_id?.value).toBe('R4B987654321');
  });

  it("reads a Blue plan's prefix printed apart from a number that starts with a letter, the suffix left out", () => {
    expect(parse(line(40, 150, 'Subscriber ID: ZGP W12345678')).member_id?.value).toBe('ZGPW12345678');
    expect(parse(line(40, 150, 'Subscriber ID: ZGP W12345678 00')).member_id?.value).toBe('ZGPW12345678');
    // Only a three-character prefix joins the word after it: a group code after an id is not more id.
    expect(parse(line(40, 150, 'ID 123456789 GRP12345')).member_id?.value).toBe('123456789');
  });

  it('never takes a date for an id or a group', () => {
    const fields = parse(line(40, 150, 'Member ID'), line(40, 190, '02/01/2024'), line(600, 150, 'Group'), line(600, 190, '2021-03-01'));
    expect(fields.member_id?.value ?? '').not.toBe('02012024');
    expect(fields.group_number).toBeUndefined();
  });


  it('never takes a line of plan codes for the plan, and a bare network word is only a lead', () => {
    expect(parse(line(40, 150, 'Plan: BC 370 BS 870')).plan_name).toBeUndefined();
    const bare = parse(line(40, 150, 'Plan: PPO'));
    expect(bare.plan_name?.value).toBe('PPO');
    expect(bare.plan_name!.confidence).toBeLessThan(REVIEW_BELOW);
  });

  it('never takes a word of a copay line for an Rx code', () => {
    const fields = parse(line(620, 400, 'RxBIN 610279'), line(620, 450, 'RxGRP'), line(900, 450, 'COPAY'), line(40, 500, 'Office Copay $25'));
    expect(fields.rx_group).toBeUndefined();
    expect(fields.rx_bin?.value).toBe('610279');
  });

  it('is less sure of a value that runs to the edge of the photo: it may be cut short', () => {
    const inside = parse(line(700, 400, 'RxPCN MEDDADV'));
    const edge = parseCardFields([{ ...page(line(1200, 400, 'RxPCN MEDDAD')), width: 1370 }], { entities: SEED_CLEARINGHOUSE_ENTITIES });
    expect(edge.rx_pcn?.value).toBe('MEDDAD');
    expect(edge.rx_pcn!.confidence).toBeLessThan(REVIEW_BELOW);
    expect(inside.rx_pcn!.confidence).toBeGreaterThan(edge.rx_pcn!.confidence);
  });

  it('takes "GRP" on one line with the BIN and PCN (NCPDP\'s pharmacy block) as the Rx group, beside a medical group', () => {
    const fields = parse(line(40, 150, 'Group Number'), line(420, 150, '212869', 28), line(40, 500, 'BIN 003585'), line(330, 500, 'PCN ASPROD1'), line(650, 500, 'GRP 0418925'));
    expect(values(fields)).toMatchObject({ group_number: '212869', rx_group: '0418925', rx_bin: '003585', rx_pcn: 'ASPROD1' });
  });

  it('reads a code whose J was read as a closing bracket with the J, under "check this"', () => {
    const fields = parse(line(620, 400, 'BIN#: 003585'), line(620, 450, 'RxGRP: KT31)', 24, 90));
    expect(fields.rx_group).toMatchObject({ value: 'KT31J' });
    expect(fields.rx_group!.confidence).toBeLessThan(REVIEW_BELOW);
  });

  it('is less sure of a two- or three-character code: one misread glyph makes another code', () => {
    const fields = parse(line(620, 450, 'RxPCN: AD'), line(620, 500, 'RxGRP: X7'));
    expect(fields.rx_pcn!.confidence).toBeLessThan(REVIEW_BELOW);
    expect(fields.rx_group!.confidence).toBeLessThan(REVIEW_BELOW);
  });

  it('takes a metal tier or a network word alone only as a lead for the plan', () => {
    expect(parse(line(40, 150, 'Plan: GOLD')).plan_name!.confidence).toBeLessThan(REVIEW_BELOW);
    expect(parse(line(40, 150, 'Plan: Gold 1500 EPO')).plan_name).toMatchObject({ value: 'Gold 1500 EPO' });
  });

  it('offers an id printed with no label as a lead, never a phone number, a date or the issuer number', () => {
    const fields = parse(
      line(40, 40, 'aetna', 50),
      line(40, 120, 'Health Plan (80840) 9140461101'),
      line(40, 180, 'JAMES SMITH', 34),
      line(40, 230, 'W123456789', 34),
      line(40, 600, 'Call 1-800-555-0199', 18),
    );
    expect(fields.member_id).toMatchObject({ value: 'W123456789' });
    expect(fields.member_id!.confidence).toBeLessThan(REVIEW_BELOW);
    expect(parse(line(40, 120, 'Health Plan (80840) 9140461101'), line(40, 600, 'Call 1-800-555-0199', 18), line(40, 300, '07-01-1986', 30)).member_id).toBeUndefined();
  });

  it('offers an unlabelled id ending in a letter as a lead, its final J read from the hook OCR makes of it (issue 25)', () => {
    const id = (text: string) => parse(line(40, 40, 'aetna', 50), line(40, 180, 'TERESA F RODRIGUEZ', 34), line(40, 230, text, 34)).member_id;
    expect(id('M2587400R')).toMatchObject({ value: 'M2587400R' });
    expect(id('M4063745]')).toMatchObject({ value: 'M4063745J' });
    expect(id('M4063745]')!.confidence).toBeLessThan(REVIEW_BELOW);
    // Nor a date with a separator lost, nor a toll-free number read in part.
    expect(id('0201/2024')).toBeUndefined();
    expect(id('(1-800-633 427)')).toBeUndefined();
  });

  it('reads the pharmacy card\'s RxID as the member id', () => {
    expect(parse(line(40, 200, 'RxID: W911574626'), line(40, 260, 'RxBIN: 011552')).member_id?.value).toBe('W911574626');
  });

  it('reads a BIN or PCN label misread by one letter when the value has the label\'s shape (six digits for a BIN)', () => {
    expect(values(parse(line(620, 400, 'ain 610591'), line(620, 450, 'pen: PCS')))).toMatchObject({ rx_bin: '610591', rx_pcn: 'PCS' });
    // Not a BIN without six digits after it, nor mid-sentence.
    expect(parse(line(620, 400, 'ain 61059')).rx_bin).toBeUndefined();
    expect(parse(line(40, 400, 'Call the main 610591 line')).rx_bin).toBeUndefined();
  });

  it('reads values under NCPDP captions misread ("RPCN", "HxGRP") as repairs, under "check this", with the caption as read', () => {
    // NCPDP's block with a PBM's published codes (BIN 004336, PCN ADV).
    const { fields, sources } = readCardFields([page(line(620, 400, 'RBIN 004336'), line(620, 450, 'RPCN ADV'), line(620, 500, 'HxGRP RX1234'))], { entities: [] });
    expect(values(fields)).toMatchObject({ rx_bin: '004336', rx_pcn: 'ADV', rx_group: 'RX1234' });
    for (const field of ['rx_bin', 'rx_pcn', 'rx_group'] as const) expect(fields[field]!.confidence).toBeLessThan(REVIEW_BELOW);
    expect(sources.rx_pcn).toMatchObject({ caption: 'RPCN', captioned: false });
    // Read as printed: its caption recorded, and sure.
    const printed = readCardFields([page(line(620, 400, 'RxBIN 004336'))], { entities: [] });
    expect(printed.sources.rx_bin).toMatchObject({ caption: 'RxBIN', captioned: true });
    expect(printed.fields.rx_bin!.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
  });

  it('passes over a speck between a caption and its value', () => {
    expect(values(parse(line(620, 400, "RxBIN . 004336"), line(620, 450, "RxPCN ' ADV"), line(620, 500, 'RxGRP ` RX1234')))).toMatchObject({ rx_bin: '004336', rx_pcn: 'ADV', rx_group: 'RX1234' });
    // A speck standing alone between the caption and the value beside it.
    expect(parse(line(620, 400, 'RxPCN'), line(760, 400, '.'), line(900, 400, 'ADV')).rx_pcn?.value).toBe('ADV');
    // Passed over, not repaired: a clean read stays sure.
    expect(parse(line(620, 400, 'RxBIN . 004336')).rx_bin!.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
  });

  it('never takes an NCPDP caption, as printed or misread, for a blank code\'s value', () => {
    // The PCN printed blank: what stands beside its caption is the group's caption.
    expect(parse(line(620, 450, 'RxPCN:'), line(760, 450, 'RxGRP'), line(620, 500, 'RxBIN 004336')).rx_pcn).toBeUndefined();
    expect(parse(line(620, 450, 'RxPCN:'), line(760, 450, 'RGRP')).rx_pcn).toBeUndefined();
    expect(parse(line(620, 450, 'RxPCN:'), line(760, 450, 'HxBIN 004336')).rx_pcn).toBeUndefined();
    // A code that merely starts with Rx is a code.
    expect(parse(line(620, 450, 'RxGRP: RX12')).rx_group?.value).toBe('RX12');
  });

  it('places the pharmacy values whose captions OCR lost by NCPDP\'s order (BIN, PCN, GRP), each to be checked', () => {
    // NCPDP's pharmacy ID card guide: RxBIN, RxPCN, RxGRP one under the other, the BIN six digits.
    const lost = parse(line(620, 400, 'Rae 610591', 20), line(620, 430, 'Repex: MEDDADV', 20), line(620, 460, 'Rip: 0677175', 20));
    expect(values(lost)).toMatchObject({ rx_bin: '610591', rx_pcn: 'MEDDADV', rx_group: '0677175' });
    for (const field of ['rx_bin', 'rx_pcn', 'rx_group'] as const) expect(lost[field]!.confidence).toBeLessThan(REVIEW_BELOW);
    // One caption read: the misread ones around it take their places; the read one keeps its own.
    const one = parse(line(620, 400, 'Rea: 610455', 20), line(620, 430, 'Rx PCN: MNBC', 20), line(620, 460, 'Rp: 070205', 20));
    expect(values(one)).toMatchObject({ rx_bin: '610455', rx_pcn: 'MNBC', rx_group: '070205' });
    expect(one.rx_pcn!.confidence).toBeGreaterThan(0.8);
  });

  it('does not place a value by the Rx order outside a block that starts with a six-digit BIN', () => {
    // One line is not a block; a BIN of five digits is not a BIN; caption words are not misread captions.
    expect(parse(line(620, 400, 'Rae 610591', 20)).rx_bin).toBeUndefined();
    expect(parse(line(620, 400, 'Rae 61059', 20), line(620, 430, 'Repex: MEDDADV', 20)).rx_pcn).toBeUndefined();
    expect(parse(line(620, 400, 'Payer 610279', 20), line(620, 430, 'Plan: GOLD', 20)).rx_bin).toBeUndefined();
    // The medical group under it ends the block: it stays the group number.
    const group = parse(line(620, 400, 'Rae 610591', 20), line(620, 430, 'Group: 12345', 20));
    expect(group.rx_bin).toBeUndefined();
    expect(group.group_number?.value).toBe('12345');
    // Lines in another column are not the block's.
    expect(parse(line(620, 400, 'Rae 610591', 20), line(40, 430, 'Repex: MEDDADV', 20)).rx_bin).toBeUndefined();
  });

  it('finds an unlabelled plan with its numbers ("Gold 1500 EPO") or a Blue product name, as a lead', () => {
    const gold = parse(line(40, 40, 'aetna', 50), line(700, 40, 'Gold 1500 EPO', 30), line(40, 200, 'Member ID W123456789'));
    expect(gold.plan_name?.value).toBe('Gold 1500 EPO');
    expect(gold.plan_name!.confidence).toBeLessThan(REVIEW_BELOW);
    const blue = parse(line(40, 40, 'BlueCross BlueShield', 50), line(40, 100, 'of Texas', 30), line(850, 40, 'BlueEssentials', 30), line(40, 200, 'Member ID XYZ123456789'));
    expect(blue.plan_name?.value).toBe('BlueEssentials');
  });
});


describe('honest confidence: sure only on a caption of the standard\'s list and a value of the standard\'s shape (issue 25)', () => {
  it('is sure of a value read as printed after a caption it knows, of the field\'s shape', () => {
    const fields = parse(line(40, 150, 'Member Name: JOHN A SMITH'), line(40, 210, 'Member ID: W123456789'), line(620, 450, 'RxBIN: 610502'), line(620, 500, 'RxGRP: RX4632'));
    for (const field of ['member_name', 'member_id', 'rx_bin', 'rx_group'] as const) expect(fields[field]!.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
  });

  it('puts a value repaired from a look-alike (O→0, S→5, I→1) under "check this", however clearly read', () => {
    const fields = parse(line(40, 210, 'Member ID: W12O456789'), line(620, 450, 'RxBIN: 61O5O2'));
    expect(values(fields)).toMatchObject({ member_id: 'W120456789', rx_bin: '610502' });
    expect(fields.member_id!.confidence).toBeLessThan(REVIEW_BELOW);
    expect(fields.rx_bin!.confidence).toBeLessThan(REVIEW_BELOW);
  });

  it('puts a value after a caption recovered from a misread, or of a loose shape, under "check this"', () => {
    // "Membr ID": one letter from "Member ID", the caption is a reading, not what is printed.
    expect(parse(line(40, 210, 'Membr ID: W123456789')).member_id).toMatchObject({ value: 'W123456789' });
    expect(parse(line(40, 210, 'Membr ID: W123456789')).member_id!.confidence).toBeLessThan(REVIEW_BELOW);
    // Digits and letters mixed past a prefix: no member-id shape the cards print.
    expect(parse(line(40, 210, 'Member ID: 12345A678B')).member_id!.confidence).toBeLessThan(REVIEW_BELOW);
  });

  it('takes a mark OCR made of a glyph it could not read for a character lost, not a character to drop', () => {
    const lost = parse(line(40, 150, 'Member: TERESA X OBRIE!'));
    expect(lost.member_name).toMatchObject({ value: 'TERESA X OBRIE' });
    expect(lost.member_name!.confidence).toBeLessThan(REVIEW_BELOW);
    expect(parse(line(40, 150, 'Member: TERESA X OBRIEN')).member_name!.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
    expect(parse(line(40, 150, "Member: TERESA X O'BRIEN")).member_name!.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
  });

  it('is unsure of a value that starts later than its column\'s other values: its start was lost (a table)', () => {
    const card = (idAt: number) =>
      parse(
        line(40, 150, 'Member'),
        line(400, 150, 'ROBERT G ANDERSON'),
        line(40, 200, 'Member #'),
        line(idAt, 200, '585700'),
        line(40, 250, 'Group #'),
        line(400, 250, '245671-128'),
        line(40, 300, 'Plan'),
        line(400, 300, 'Choice POS II'),
      );
    expect(card(470).member_id).toMatchObject({ value: '585700' });
    expect(card(470).member_id!.confidence).toBeLessThan(REVIEW_BELOW);
    expect(card(400).member_id!.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
  });

  it('is unsure of a value far from its caption where the others follow theirs closely: text between was lost', () => {
    const card = (groupAt: number) =>
      parse(line(40, 150, 'Member Name: OLIVIA Q CHEN'), line(40, 200, 'Subscriber ID: M2613437A'), line(40, 250, 'Group'), line(groupAt, 250, '931938'), line(40, 300, 'Product: Premier PPO'));
    expect(card(300).group_number).toMatchObject({ value: '931938' });
    expect(card(300).group_number!.confidence).toBeLessThan(REVIEW_BELOW);
    expect(card(122).group_number!.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
  });

  it('offers an MBI found by CMS\'s shape alone, without its caption, as a lead', () => {
    const fields = parse(line(40, 40, 'MEDICARE', 40), line(40, 200, '1EG4-TE5-MK73', 30));
    expect(fields.member_id).toMatchObject({ value: '1EG4TE5MK73' });
    expect(fields.member_id!.confidence).toBeLessThan(REVIEW_BELOW);
    const captioned = parse(line(40, 40, 'MEDICARE', 40), line(40, 150, 'Medicare Number'), line(40, 200, '1EG4-TE5-MK73', 30));
    expect(captioned.member_id!.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
  });

  it('is unsure of a mixed Rx code with a look-alike where letters and digits meet (NCPDP gives it no shape)', () => {
    const fields = parse(line(620, 450, 'RxPCN: FTA131'), line(620, 500, 'RxGRP: CD5859'));
    expect(values(fields)).toMatchObject({ rx_pcn: 'FTA131', rx_group: 'CD5859' });
    expect(fields.rx_pcn!.confidence).toBeLessThan(REVIEW_BELOW);
    expect(fields.rx_group!.confidence).toBeLessThan(REVIEW_BELOW);
  });
});

describe('a value in its place is not taken for one that lost its start', () => {
  it('keeps sure a value lined up with two rows below it, under an inline block (name and id, then the Rx table)', () => {
    const fields = parse(
      line(40, 150, 'Name: Luis Wilson'),
      line(40, 200, 'RxID: 1728532574'),
      line(40, 250, 'RxBIN:'),
      line(300, 250, '003585'),
      line(40, 300, 'Rx PCN:'),
      line(300, 300, 'ASPRXD'),
      line(40, 350, 'RXGRP:'),
      line(300, 350, '7711309'),
    );
    expect(values(fields)).toMatchObject({ rx_bin: '003585', rx_pcn: 'ASPRXD', rx_group: '7711309' });
    for (const field of ['rx_bin', 'rx_pcn', 'rx_group'] as const) expect(fields[field]!.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
  });
});

describe('bilingual captions, plan codes and copays on the unseen real cards’ kinds (issue 25)', () => {
  it('reads a caption and its translation with the slash lost ("Grupo Group") as caption, and takes the value under it', () => {
    const fields = parse(line(40, 150, 'Nombre Name', 20), line(40, 180, 'ANDERSON, JENNIFER T'), line(40, 260, 'Grupo Group', 20), line(40, 290, 'M295277'));
    expect(fields.group_number?.value).toBe('M295277');
    expect(fields.member_name?.value).toBe('JENNIFER T ANDERSON');
  });

  it('never takes a line of plan codes after "Plan" for the plan’s name', () => {
    const fields = parse(line(580, 150, 'Plan / Plan', 20), line(580, 180, 'Gold 1500 EPO'), line(580, 240, 'Plan Codes MED 676 RX 455', 18));
    expect(fields.plan_name?.value).toBe('Gold 1500 EPO');
    const codesOnly = parse(line(40, 150, 'Member ID: W123456789'), line(580, 240, 'Plan Codes MED 676 RX 455', 18));
    expect(codesOnly.plan_name).toBeUndefined();
  });
});

describe('tables and names that start with a caption word (issue 25: layouts not tuned on)', () => {
  it('reads a printed table of captions and values whose value column stands far from the captions (a portal’s temporary card)', () => {
    const rows: [string, string][] = [
      ['Member Name', 'JANE Q PUBLIC'],
      ['Member ID', 'W123456789'],
      ['Group Number', '0862434'],
      ['RxBIN', '610014'],
      ['RxPCN', 'A4'],
      ['RxGRP', 'RX2076'],
    ];
    const fields = parse(...rows.flatMap(([caption, value], i) => [line(40, 150 + i * 44, caption, 21), line(760, 150 + i * 44, value, 24)]));
    expect(values(fields)).toMatchObject({ member_name: 'JANE Q PUBLIC', member_id: 'W123456789', group_number: '0862434', rx_bin: '610014', rx_pcn: 'A4', rx_group: 'RX2076' });
  });

  it('takes nothing far to the right of a caption when no column of values is there', () => {
    const fields = parse(line(40, 150, 'Member ID: W123456789'), line(40, 200, 'RxBIN', 21), line(760, 200, '610014', 24));
    expect(fields.rx_bin).toBeUndefined();
  });

  it('reads "Plan de Salud …" or "Plan of …" as a name, not the caption "Plan" and a value', () => {
    const fields = parse(line(40, 40, 'Plan de Salud', 40), line(40, 150, 'Member: JANE Q PUBLIC'), line(40, 200, 'Product: Gold 1500 EPO'));
    expect(fields.plan_name?.value).toBe('Gold 1500 EPO');
    const alone = parse(line(40, 40, 'Plan of Texas', 40), line(40, 150, 'Member: JANE Q PUBLIC'), line(40, 200, 'ID: W123456789'));
    expect(alone.plan_name?.value).not.toBe('of Texas');
    expect(alone.plan_name?.confidence ?? 0).toBeLessThan(REVIEW_BELOW);
  });
});

describe('a name is as sure as its least sure word', () => {
  it('keeps a captioned name under "check this" when the OCR barely read one of its words', () => {
    const name = line(40, 150, 'Member Name: JANE Q PUBLIC');
    const unsure = { ...name, words: name.words.map((w) => (w.text === 'PUBLIC' ? { ...w, confidence: 55 } : { ...w, confidence: 96 })) };
    const fields = parse(unsure, line(40, 200, 'ID: W123456789'));
    expect(fields.member_name?.value).toBe('JANE Q PUBLIC');
    expect(fields.member_name!.confidence).toBeLessThan(REVIEW_BELOW);
    // Read clearly throughout, the same caption and name stay sure.
    expect(parse(name, line(40, 200, 'ID: W123456789')).member_name!.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
  });
});

describe('box borders beside values (a card printed on a form in ruled boxes)', () => {
  it('drops a lone stroke read from a box edge before or after an id, a code or a name, and leaves the value for a person to check', () => {
    const fields = parse(line(40, 150, 'Member ID: I W123456789'), line(40, 200, 'Group: 0862434 l'), line(40, 250, 'Name: I JANE Q PUBLIC'), line(40, 300, 'RxGRP: RX2076 I'));
    expect(values(fields)).toMatchObject({ member_id: 'W123456789', group_number: '0862434', member_name: 'JANE Q PUBLIC', rx_group: 'RX2076' });
    for (const field of ['member_id', 'group_number', 'member_name', 'rx_group'] as const) expect(fields[field]!.confidence, field).toBeLessThan(REVIEW_BELOW);
  });

  it('keeps a name’s last initial printed after a comma', () => {
    expect(parse(line(40, 150, 'Name: PUBLIC, JANE I')).member_name?.value).toBe('JANE I PUBLIC');
  });
});

describe('the payer of an employer’s own plan', () => {
  it('takes a one-word payer name printed small at the foot under "Administered by" as the payer, as if in the header', () => {
    const lines = [line(40, 40, 'Contoso Manufacturing', 44), line(40, 100, 'Employee Health Plan', 22), line(40, 180, 'Member: JANE Q PUBLIC'), line(40, 230, 'ID: W123456789'), line(40, 280, 'Group: 0862434'), line(40, 760, 'Administered by', 16), line(40, 790, 'Aetna', 26)];
    expect(parse(...lines).payer_name?.value).toBe('Aetna');
    // Printed at the foot with no such words, one word is not enough.
    expect(parse(...lines.filter((l) => l.text !== 'Administered by')).payer_name).toBeUndefined();
  });
});

describe('codes with no shape are sure only when read cleanly (NCPDP: RxPCN up to 10 characters, no fixed shape)', () => {
  const read = (...lines: OcrLine[]) => readCardFields([page(...lines)], { entities: SEED_CLEARINGHOUSE_ENTITIES });

  it('holds a PCN with a run of one glyph under "check this" however surely it was read: the reader merges repeats ("03200000" read "032000")', () => {
    const fields = parse(line(620, 450, 'RxBIN: 610494'), line(620, 500, 'RxPCN: 032000'));
    expect(fields.rx_pcn).toMatchObject({ value: '032000' });
    expect(fields.rx_pcn!.confidence).toBeLessThan(REVIEW_BELOW);
    expect(parse(line(620, 500, 'RxPCN: 9999')).rx_pcn!.confidence).toBeLessThan(REVIEW_BELOW);
    // The BIN beside it has NCPDP's six digits to check it by; a PCN without a run stays sure.
    expect(fields.rx_bin!.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
    expect(parse(line(620, 500, 'RxPCN: MEDDPRIME')).rx_pcn!.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
  });

  it('holds a group number read with a glyph in doubt under "check this", and no closer look may lift it', () => {
    // "F258" of F258917, the rest lost to the print, read at 83; "222423" of J222423 read at 32.
    const cut = read(line(40, 270, 'GRP: F258', 24, 83));
    expect(cut.fields.group_number).toMatchObject({ value: 'F258' });
    expect(cut.fields.group_number!.confidence).toBeLessThan(REVIEW_BELOW);
    expect(cut.sources.group_number!.sureAtMost).toBe(UNSURE_AT_MOST);
    const unsure = line(40, 270, 'Group No. 222423');
    const barely = read({ ...unsure, words: unsure.words.map((w) => (w.text === '222423' ? { ...w, confidence: 32 } : w)) });
    expect(barely.sources.group_number).toMatchObject({ sureAtMost: UNSURE_AT_MOST });
    // Caption and value read cleanly: sure, and a closer look may keep it so.
    const clean = read(line(40, 270, 'Group No: 0862434'));
    expect(clean.fields.group_number!.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
    expect(clean.sources.group_number!.sureAtMost).toBe(1);
  });

  it('holds an RxGRP read with a glyph in doubt under "check this"', () => {
    expect(parse(line(620, 550, 'RxGRP: RX2076', 24, 84)).rx_group!.confidence).toBeLessThan(REVIEW_BELOW);
    expect(parse(line(620, 550, 'RxGRP: RX2076', 24, 95)).rx_group!.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
  });

  it('holds a plan name with a number under "check this" however surely it was read: a digit misread is another plan', () => {
    const numbered = parse(line(40, 150, 'Plan: Gold 1560 EPO', 24, 96)).plan_name;
    expect(numbered?.value).toBe('Gold 1560 EPO');
    expect(numbered!.confidence).toBeLessThan(REVIEW_BELOW);
    expect(parse(line(40, 150, 'Plan: Choice Plus PPO', 24, 96)).plan_name!.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
  });
});

describe('NCPDP’s pharmacy stack with the BIN’s caption lost', () => {
  it('takes six digits alone right above the captioned PCN, in its column, as the BIN, under "check this"', () => {
    const fields = parse(line(787, 437, '610014'), line(678, 486, 'RxPCN: CG'), line(678, 530, 'RxGRP: TGA816'));
    expect(fields.rx_bin?.value).toBe('610014');
    expect(fields.rx_bin!.confidence).toBeLessThan(REVIEW_BELOW);
    expect(fields.rx_pcn?.value).toBe('CG');
  });

  it('takes nothing from another column, from below the PCN, or of another shape', () => {
    expect(parse(line(40, 437, '610014'), line(678, 486, 'RxPCN: CG')).rx_bin).toBeUndefined();
    expect(parse(line(678, 486, 'RxPCN: CG'), line(787, 530, '610014')).rx_bin).toBeUndefined();
    expect(parse(line(787, 437, '6100145'), line(678, 486, 'RxPCN: CG')).rx_bin).toBeUndefined();
  });

  it('leaves a BIN read from its caption as it is', () => {
    const fields = parse(line(678, 390, 'RxBIN: 004336'), line(787, 437, '610014'), line(678, 486, 'RxPCN: CG'));
    expect(fields.rx_bin?.value).toBe('004336');
  });
});

describe('a member name printed on two lines', () => {
  it('joins a name its box broke in two, under its caption or after it, and leaves it to a person to check', () => {
    const below = parse(line(40, 100, 'MEMBER NAME', 16), line(40, 130, 'MARIA-ELENA'), line(40, 160, 'RODRIGUEZ'), line(40, 240, 'ID: W123456789'));
    expect(below.member_name?.value).toBe('MARIA-ELENA RODRIGUEZ');
    expect(below.member_name!.confidence).toBeLessThan(REVIEW_BELOW);
    const inline = parse(line(40, 100, 'Name: RODRIGUEZ,'), line(122, 130, 'MARIA'), line(40, 240, 'ID: W123456789'));
    expect(inline.member_name?.value).toBe('MARIA RODRIGUEZ');
    expect(inline.member_name!.confidence).toBeLessThan(REVIEW_BELOW);
  });

  it('joins no caption, no other field and no line of another size', () => {
    expect(parse(line(40, 100, 'MEMBER NAME', 16), line(40, 130, 'SUBSCRIBER'), line(40, 160, 'RODRIGUEZ')).member_name?.value).not.toBe('SUBSCRIBER RODRIGUEZ');
    expect(parse(line(40, 100, 'MEMBER NAME', 16), line(40, 130, 'RODRIGUEZ'), line(40, 160, 'ID: W123456789')).member_name).toBeUndefined();
    expect(parse(line(40, 100, 'MEMBER NAME', 16), line(40, 130, 'RODRIGUEZ', 30), line(40, 168, 'Gold', 16)).member_name).toBeUndefined();
    // A whole name on its line is not made longer by the line under it.
    expect(parse(line(40, 100, 'MEMBER NAME', 16), line(40, 130, 'MARIA RODRIGUEZ'), line(40, 160, 'LOPEZ')).member_name?.value).toBe('MARIA RODRIGUEZ');
  });
});

describe('values that stop where the card prints something else', () => {
  const member = [line(40, 40, 'aetna', 50), line(40, 150, 'Member Name: JOHN SMITH'), line(40, 210, 'ID#: W123456789')];

  it('ends a captioned name at the next caption or the relationship on its line', () => {
    const dob = parse(line(40, 40, 'aetna', 50), line(40, 150, 'Member Name: JOHN SMITH DOB: 01/01/1980'), line(40, 210, 'ID#: W123456789'));
    expect(dob.member_name?.value).toBe('JOHN SMITH');
    const self = parse(line(40, 40, 'aetna', 50), line(40, 150, 'Subscriber: JOHN SMITH (Self)'), line(40, 210, 'ID#: W123456789'));
    expect(self.member_name?.value).toBe('JOHN SMITH');
  });

  it('takes no plan from the start of a copay line, nor an RxGRP from a copay under its caption', () => {
    const copay = parse(...member, line(40, 270, 'Plan: Office Visit $20'));
    expect(copay.plan_name).toBeUndefined();
    const dated = parse(...member, line(40, 270, 'Plan: Choice Plus PPO Effective 01/01/2024'));
    expect(dated.plan_name?.value).toBe('Choice Plus PPO');
    const rx = parse(line(40, 40, 'aetna', 50), line(40, 300, 'RxBIN 610502'), line(40, 340, 'RxGRP'), line(300, 340, 'Copay'), line(40, 380, 'Generic $10'));
    expect(rx.rx_group).toBeUndefined();
  });

  it('keeps "Benefit Plan" out of the plan it captions, and the value a lead for a person', () => {
    const fields = parse(...member, line(40, 270, 'Benefit Plan Select HMO'));
    expect(fields.plan_name?.value).toBe('Select HMO');
    expect(fields.plan_name!.confidence).toBeLessThan(REVIEW_BELOW);
  });

  it('keeps the medical group under "Group" when the Rx group\'s caption is misread ("Ru GRP"), and the Rx group never sure', () => {
    const rxBlock = [line(700, 150, 'BIN 610502'), line(700, 200, 'PCN ADV'), line(700, 250, 'Ru GRP RX2076')];
    const fields = parse(...member, line(40, 270, 'Group 0862434'), ...rxBlock);
    expect(fields.group_number?.value).toBe('0862434');
    expect(fields.rx_group?.value).toBe('RX2076');
    expect(fields.rx_group!.confidence).toBeLessThan(REVIEW_BELOW);
  });
});

describe('a caption cut at the photo\'s left edge', () => {
  // A closer look's crop of the pharmacy block: "RxGRP" with its "Rx" outside the crop, the "«"
  // the glyph it cut.
  const crop = (caption: string) => [line(0, 100, caption), line(300, 100, '2210133'), line(0, 160, 'RxBIN'), line(300, 160, '610455')];

  it('gives no value when the caption left is the end of another field\'s caption ("GRP" of RxGRP)', () => {
    const fields = parse(...crop('«GRP'));
    expect(fields.group_number).toBeUndefined();
    expect(fields.rx_bin?.value).toBe('610455');
  });

  it('keeps the value when what is left of the caption is only its own field\'s ("xBIN", "«PCN")', () => {
    const fields = parse(line(0, 100, '«PCN'), line(300, 100, 'BCTX'), line(0, 160, 'xBIN'), line(300, 160, '011552'));
    expect(fields.rx_pcn?.value).toBe('BCTX');
    expect(fields.rx_bin?.value).toBe('011552');
  });
});

describe('Medicare Supplement cards (issue 25)', () => {
  it('takes the plan\'s CMS letter ("Plan N") over the line naming the kind of insurance', () => {
    const fields = parse(line(40, 40, 'AARP Medicare Supplement Insurance Plan', 30), line(40, 100, 'Plan N', 30), line(40, 180, 'Member Name JOHN SMITH'), line(40, 230, 'Member ID 0123456789'));
    expect(fields.plan_name?.value).toBe('Plan N');
  });

  it('reads the letter printed alone under its "Plan" caption, under "check this"', () => {
    const fields = parse(line(40, 40, 'Humana', 40), line(40, 100, 'Medicare Supplement'), line(40, 160, 'Plan: F'), line(40, 220, 'Name: ANA LOPEZ'));
    expect(fields.plan_name?.value).toBe('Plan F');
    expect(fields.plan_name!.confidence).toBeLessThan(REVIEW_BELOW);
  });
});

describe('a payer\'s name in two lines, its first read in pieces beside a title', () => {
  it('joins the pieces ("SCOTT", "WHITE": the "&" lost) to the line under them, without the title on their row', () => {
    const header = [line(40, 40, 'SCOTT', 30), line(210, 40, 'WHITE', 30), line(800, 42, 'TEMPORARY MEMBER ID CARD', 22), line(40, 76, 'HEALTH PLAN', 30)];
    const member = [line(40, 160, 'Subscriber Name ELIZABETH J CHEN'), line(40, 200, 'Subscriber ID 0760795592')];
    const fields = parseCardFields([page(...header, ...member)], { entities: directoryEntities() });
    expect(fields.payer_name?.value).toBe('Scott & White Health Plan');
    // Not the payer's own words taken for a plan.
    expect(fields.plan_name).toBeUndefined();
  });
});

describe('a payer\'s name whose second line starts with "Plan"', () => {
  it('is the name ("KEYSTONE HEALTH" over "PLAN EAST"), not a plan caption and its value: the plan read under its caption stands', () => {
    const lines = [line(40, 40, 'KEYSTONE HEALTH', 40), line(40, 90, 'PLAN EAST', 30), line(40, 200, 'Member Name'), line(40, 230, 'KEVIN KOWALSKI'), line(40, 300, 'Plan Name', 18), line(40, 325, 'Gold 1500 EPO')];
    const fields = parseCardFields([page(...lines)], { entities: directoryEntities() });
    expect(fields.payer_name?.value).toBe('Keystone Health Plan East');
    expect(fields.plan_name?.value).toBe('Gold 1500 EPO');
    // Without a plan printed elsewhere, no plan at all rather than the name's last word.
    const alone = parseCardFields([page(...lines.slice(0, 4))], { entities: directoryEntities() });
    expect(alone.plan_name).toBeUndefined();
  });
});

describe('a row of NCPDP captions printed close over a row of codes (issue 25)', () => {
  /** One OCR line of cells, each cell's words starting at its x. */
  const row = (y: number, cells: [number, string][], h = 24): OcrLine => {
    const words = cells.flatMap(([x, text]) => line(x, y, text, h).words);
    return { text: words.map((w) => w.text).join(' '), confidence: 95, bbox: { x0: words[0].bbox.x0, y0: y, x1: words.at(-1)!.bbox.x1, y1: y + h }, words };
  };
  const head = [line(40, 40, 'aetna', 50), line(40, 150, 'Member: JOHN SMITH'), line(40, 210, 'ID: W123456789')];

  it('takes each code from its own caption\'s column, whether the layout joined the captions or the codes', () => {
    // Captions read as one segment, codes too: the PCN was "004336ADV", sure.
    const joined = parse(...head, row(500, [[40, 'RxBIN'], [140, 'RxPCN'], [240, 'RxGRP']]), row(540, [[40, '004336'], [140, 'ADV'], [240, 'RX1234']]));
    expect(values(joined)).toMatchObject({ rx_bin: '004336', rx_pcn: 'ADV', rx_group: 'RX1234' });
    // Captions apart, the BIN and the PCN joined: the PCN was not found.
    const codesJoined = parse(...head, row(500, [[40, 'RxBIN'], [160, 'RxPCN'], [280, 'RxGRP']]), row(540, [[40, '004336'], [160, 'ADV'], [280, 'RX1234']]));
    expect(values(codesJoined)).toMatchObject({ rx_bin: '004336', rx_pcn: 'ADV', rx_group: 'RX1234' });
  });

  it('bounds a column by a caption of no field read here too (a paper form\'s "EFFECTIVE DATE" box)', () => {
    const form = parse(...head, row(500, [[40, 'RxBIN'], [240, 'PCN'], [440, 'EFFECTIVE DATE']]), row(540, [[40, '610494'], [240, '03200000'], [440, '02/01/2024']]));
    expect(values(form)).toMatchObject({ rx_bin: '610494', rx_pcn: '03200000' });
    const grouped = parse(...head, row(500, [[40, 'RxBIN'], [240, 'PCN'], [440, 'Rx Group'], [640, 'EFFECTIVE DATE']]), row(540, [[40, '610494'], [240, '03200000'], [440, 'HMH559'], [640, '02/01/2024']]));
    expect(values(grouped)).toMatchObject({ rx_bin: '610494', rx_pcn: '03200000', rx_group: 'HMH559' });
  });

  it('leaves a row where a caption has its value beside it, or one field is captioned twice, to the value beside or under it', () => {
    const pairs = parse(...head, row(500, [[40, 'BIN: 610502'], [400, 'PCN: ADV']]), line(40, 540, 'RxGRP: RX2076'));
    expect(values(pairs)).toMatchObject({ rx_bin: '610502', rx_pcn: 'ADV', rx_group: 'RX2076' });
    const bilingual = parse(...head.slice(0, 1), line(40, 150, 'Nombre / Name', 22), line(40, 180, 'MARIA DE LA CRUZ', 30), line(40, 300, 'ID W123456789'));
    expect(bilingual.member_name?.value).toBe('MARIA DE LA CRUZ');
  });
});

describe('the network printed where the plan goes (issue 25)', () => {
  const card = (...rest: OcrLine[]) => parse(line(40, 40, 'Cigna', 50), line(40, 150, 'Member: JANE DOE'), line(40, 200, 'ID: U12345678'), ...rest);

  it('reads a network caption\'s value as the plan, for a person to check; a tier header is no plan at all', () => {
    const network = card(line(40, 260, 'Network: Open Access Plus'));
    expect(network.plan_name?.value).toBe('Open Access Plus');
    expect(network.plan_name!.confidence).toBeLessThan(REVIEW_BELOW);
    // A plan's own caption wins over the network's.
    const both = card(line(40, 260, 'Plan: Choice Plus PPO'), line(40, 320, 'Network: PHCS'));
    expect(both.plan_name?.value).toBe('Choice Plus PPO');
    const tiers = card(line(40, 260, 'Network In-Network Out-of-Network'));
    expect(tiers.plan_name).toBeUndefined();
  });
});

describe('a plan\'s name, shapeless as a code (issue 25)', () => {
  it('is sure under its caption only when every word of it was read surely', () => {
    const card = (plan: OcrLine) => parse(line(40, 40, 'aetna', 50), line(40, 150, 'Member: JANE DOE'), line(40, 200, 'ID: W12345678'), plan);
    expect(card(line(40, 260, 'Plan: Choice POS II')).plan_name!.confidence).toBeGreaterThanOrEqual(REVIEW_BELOW);
    // "POS IL" for POS II: its last word read at 70, the rest clearly.
    const misread = line(40, 260, 'Plan: Choice POS IL');
    misread.words[3] = { ...misread.words[3], confidence: 70 };
    expect(card(misread).plan_name).toMatchObject({ value: 'Choice POS IL' });
    expect(card(misread).plan_name!.confidence).toBeLessThan(REVIEW_BELOW);
  });
});

describe('NCPDP\'s block printed on one line with plain captions (issue 25)', () => {
  it('reads "BIN … PCN … GRP …" as the three codes, the PCN never running on into the next caption', () => {
    const fields = parse(line(40, 40, 'aetna', 50), line(40, 150, 'Member: JANE DOE'), line(40, 200, 'ID: W123456789'), line(40, 500, 'BIN 610502 PCN ADV GRP RX2076'));
    expect(values(fields)).toMatchObject({ rx_bin: '610502', rx_pcn: 'ADV', rx_group: 'RX2076' });
    expect(fields.group_number).toBeUndefined();
  });

  it('keeps a Blue plan\'s prefix that spells a caption word at the start of an id', () => {
    expect(parse(line(40, 150, 'Member ID: PCP 123456789')).member_id?.value).toBe('PCP123456789');
  });
});

describe('the member\'s name is no evidence of the payer (issue 25)', () => {
  it('never takes a state in a person\'s name for the payer\'s', () => {
    // A card of "Medicaid" alone names no state's programme; the member's surname was taken for one.
    const card = (name: string) => parseCardFields([page(line(40, 40, 'Medicaid', 50), line(40, 110, `Member: ${name}`), line(40, 160, 'ID: 225393937294'))], { entities: directoryEntities() });
    expect(card('ELIZABETH W WASHINGTON').payer_name).toBeUndefined();
    expect(card('ELIZABETH W WASHINGTON').member_name?.value).toBe('ELIZABETH W WASHINGTON');
  });
});
