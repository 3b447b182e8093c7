import { describe, expect, it } from 'vitest';
import { endsAnotherCaption, isNcpdpCaption, keepsNcpdpLetters, labelAt, misreadCaptionOf } from '@src/main/extraction/field-labels';

const label = (text: string, mid = false) => {
  const m = labelAt(text.split(' '), 0, mid);
  return m && { field: m.field, words: m.end - m.start, rest: m.rest };
};

describe('label variants real cards use', () => {
  it.each([
    ['Member ID W123', 'member_id', 2],
    ['ID# W123', 'member_id', 1],
    ['ID W123', 'member_id', 1],
    ['Subscriber ID W123', 'member_id', 2],
    ['Identification No. W123', 'member_id', 2],
    ['IDENTIFICATION NO. W123', 'member_id', 2],
    ['Member # W123', 'member_id', 2],
    ['Group No 123', 'group_number', 2],
    ['Group # 123', 'group_number', 2],
    ['GRP 123', 'group_number', 1],
    ['Grp No. 123', 'group_number', 2],
    ['RxBIN 610279', 'rx_bin', 1],
    ['Rx BIN 610279', 'rx_bin', 2],
    ['BIN: 610279', 'rx_bin', 1],
    ['RxPCN 9999', 'rx_pcn', 1],
    ['PCN 9999', 'rx_pcn', 1],
    ['RxGrp RX1234', 'rx_group', 1],
    ['Rx Group RX1234', 'rx_group', 2],
    ['RXGRP RX1234', 'rx_group', 1],
    ['Grupo Rx RX1234', 'rx_group', 2],
    ['Rx Grupo RX1234', 'rx_group', 2],
    ['Grupo de Farmacia RX1234', 'rx_group', 3],
    ['Member Name JOHN SMITH', 'member_name', 2],
    ['Subscriber JOHN SMITH', 'member_name', 1],
    ['Plan Name Choice Plus', 'plan_name', 2],
  ])('%s → %s', (text, field, words) => {
    expect(label(text)).toMatchObject({ field, words });
  });

  it('takes the longest wording: Member ID is an id label, Member a name label', () => {
    expect(label('Member ID W1')?.field).toBe('member_id');
    expect(label('Member JOHN SMITH')?.field).toBe('member_name');
  });

  it('survives OCR misreads of labels', () => {
    expect(label('GRPNoO. 115776')?.field).toBe('group_number');
    expect(label('RXGRp 3272950')?.field).toBe('rx_group');
    expect(label('rRxPCN MEDDADV')?.field).toBe('rx_pcn');
    // A short Rx label with a letter lost: its "Rx" still says which.
    expect(label('rx Pc MCAIDADV')?.field).toBe('rx_pcn');
    expect(label('Rx Bi 004336')?.field).toBe('rx_bin');
    expect(label('Pc MCAIDADV')).toBeUndefined();
    expect(label('ip# U0261352298')?.field).toBe('member_id');
    expect(label('1D W123456789')?.field).toBe('member_id');
    // "Member 4 W…": the 4 is the "#" misread and belongs to the label.
    expect(label('Member 4 U1447143377')).toMatchObject({ field: 'member_id', words: 2 });
  });

  it('splits a label glued to its value', () => {
    expect(label('ID#:H92787257')).toMatchObject({ field: 'member_id', rest: 'H92787257' });
  });

  it('mid-segment, only distinctive labels start a new field: "Freedom Plan" is a plan name', () => {
    expect(label('Plan', true)).toBeUndefined();
    expect(label('RxPCN 9999', true)?.field).toBe('rx_pcn');
    expect(label('Plan: x', true)?.field).toBe('plan_name');
  });

  it('knows NCPDP\'s pharmacy captions spelled out, the whole caption before the value', () => {
    expect(label('Rx Group Number RX1234')).toMatchObject({ field: 'rx_group', words: 3 });
    expect(label('Rx Group ID RX1234')).toMatchObject({ field: 'rx_group', words: 3 });
    expect(label('RxBIN Number 610279')).toMatchObject({ field: 'rx_bin', words: 2 });
    expect(label('Processor Control Number ADV')).toMatchObject({ field: 'rx_pcn', words: 3 });
  });

  it('takes a closing "Number" or "No." the wordings leave off as caption, never as the value\'s start', () => {
    expect(label('Subscriber ID Number W123456789')).toMatchObject({ field: 'member_id', words: 3 });
    expect(label('Policy Number No. 123456')).toMatchObject({ field: 'member_id', words: 3 });
    expect(label('Número de Grupo Número 1234')).toMatchObject({ field: 'group_number', words: 4 });
    // Alone, the word is the value's; a name or plan may hold it.
    expect(label('Subscriber ID Number')).toMatchObject({ field: 'member_id', words: 2 });
    expect(label('Plan No Deductible Gold')).toMatchObject({ field: 'plan_name', words: 1 });
  });

  it('reads an Rx caption whose R was cut at the edge, or smudged to a guillemet, never as read whole', () => {
    expect(label('xBIN 011552')).toMatchObject({ field: 'rx_bin', words: 1 });
    expect(label('xGRP 2210133')).toMatchObject({ field: 'rx_group', words: 1 });
    expect(labelAt(['xBIN', '011552'], 0, false)?.quality).toBeLessThan(1);
    expect(label('«PCN BCTX')).toMatchObject({ field: 'rx_pcn', words: 1 });
    expect(label('(Group) 123456')).toMatchObject({ field: 'group_number', words: 1 });
  });

  it('is not fooled by ordinary words', () => {
    expect(label('Providers: call')).toBeUndefined();
    expect(label('Questions? Call')).toBeUndefined();
  });
});

describe('a long caption misread in two letters (issue 25)', () => {
  it('is still the caption; a first name is not', () => {
    expect(misreadCaptionOf('Entoliee', 'member_name')).toBe(true);
    expect(misreadCaptionOf('Beneficiory', 'member_name')).toBe(true);
    expect(misreadCaptionOf('Maria', 'member_name')).toBe(false);
    expect(misreadCaptionOf('Caroline', 'member_name')).toBe(false);
  });
});

describe('captions outside the standards and misread halves', () => {
  const at = (text: string, i: number) => labelAt(text.split(' '), i, i > 0);

  it('reads "Network" as the plan caption, never sure: a network is printed beside or instead of the plan', () => {
    expect(at('Network: Open Access Plus', 0)).toMatchObject({ field: 'plan_name', end: 1, quality: 0.8 });
    expect(at('Network Name Choice Plus', 0)).toMatchObject({ field: 'plan_name', end: 2, quality: 0.8 });
    expect(at('Network:Choice Plus', 0)).toMatchObject({ field: 'plan_name', quality: 0.8, rest: 'Choice' });
  });

  it('reads "Benefit Plan" as the plan caption, sure only where it ends in the standard "Plan:"', () => {
    expect(at('Benefit Plan Select HMO', 0)).toMatchObject({ field: 'plan_name', end: 2, quality: 0.9 });
    expect(at('Benefit Plan: Choice Plus PPO', 0)).toMatchObject({ field: 'plan_name', end: 2, quality: 1 });
  });

  it('takes the English half of a bilingual caption after a slash or a misread Spanish half', () => {
    expect(at('Grupa Group', 1)).toMatchObject({ field: 'group_number', quality: 1 });
    expect(at('Grupo/ Group', 1)).toMatchObject({ field: 'group_number' });
    // Without either, a bare word mid-line is no caption ("Blue Cross Group").
    expect(at('Cross Group', 1)).toBeUndefined();
  });

  it('reads NCPDP captions whose x was misread as another letter, as a repair ("RAPCN", "KyBIN")', () => {
    expect(at('RAPCN ADV', 0)).toMatchObject({ field: 'rx_pcn', end: 1, quality: 0.85 });
    expect(at('KyBIN 610502', 0)).toMatchObject({ field: 'rx_bin', end: 1, quality: 0.85 });
    // A plain GRP stays the medical group's caption.
    expect(at('GRP 0862434', 0)).toMatchObject({ field: 'group_number', quality: 1 });
  });
});

/**
 * NCPDP's pharmacy ID card guide captions the block RxBIN, RxPCN, RxGRP (and RxID for the
 * cardholder); the codes beside them are the guide's shapes with a PBM's published commercial
 * codes (BIN 004336, PCN ADV). Small print loses the x ("RPCN") or reads the R as an H ("HxGRP").
 */
describe('NCPDP captions misread by OCR (issue 25)', () => {
  const at = (text: string, i: number) => labelAt(text.split(' '), i, i > 0);

  it('reads RxPCN, RxBIN and RxGRP with the x lost as the caption, as a repair', () => {
    expect(at('RPCN ADV', 0)).toMatchObject({ field: 'rx_pcn', end: 1, quality: 0.85 });
    expect(at('RBIN 004336', 0)).toMatchObject({ field: 'rx_bin', end: 1, quality: 0.85 });
    expect(at('RGRP RX1234', 0)).toMatchObject({ field: 'rx_group', end: 1, quality: 0.85 });
    expect(at('RBIN# 004336', 0)).toMatchObject({ field: 'rx_bin', end: 1, quality: 0.85 });
  });

  it('reads them with the R read as an H, as a repair, mid-line too', () => {
    expect(at('HxGRP RX1234', 0)).toMatchObject({ field: 'rx_group', end: 1, quality: 0.85 });
    expect(at('HxBIN: 004336', 0)).toMatchObject({ field: 'rx_bin', end: 1, quality: 0.85 });
    expect(at('004336 HxPCN ADV', 1)).toMatchObject({ field: 'rx_pcn', start: 1, end: 2 });
  });

  it('knows a caption, as printed or so misread, is never a code: one letter from one is', () => {
    for (const caption of ['RxGRP', 'RxPCN:', 'RxBIN#', 'RxID', 'RGRP', 'RPCN', 'HxBIN', 'xBIN', 'FxPCN', 'RAPCN', 'PCN', 'BIN']) expect(isNcpdpCaption(caption), caption).toBe(true);
    // RxGRP values from the guide's shapes; a code one edit from RXID is still a code.
    for (const value of ['RX1234', 'RX12', 'ADV', '9999', '004336', 'GRP', 'MEDDADV']) expect(isNcpdpCaption(value), value).toBe(false);
  });

  it('tells a caption whose "Rx" alone was misread from one whose own letters were', () => {
    expect(keepsNcpdpLetters('RPCN')).toBe(true);
    expect(keepsNcpdpLetters('Hx GRP')).toBe(true);
    expect(keepsNcpdpLetters('RxBIN:')).toBe(true);
    // Cut short at its end, by the value: the value's start may have gone with it.
    expect(keepsNcpdpLetters('RxGRO')).toBe(false);
    expect(keepsNcpdpLetters('Group')).toBe(false);
    expect(keepsNcpdpLetters(undefined)).toBe(false);
  });
});

describe('captions that end another field\'s caption', () => {
  it('knows "GRP" and "Group" end the Rx group\'s captions, and "Member ID" ends none', () => {
    expect(endsAnotherCaption('GRP', 'group_number')).toBe(true);
    expect(endsAnotherCaption('«Group', 'group_number')).toBe(true);
    expect(endsAnotherCaption('Member ID', 'member_id')).toBe(false);
    expect(endsAnotherCaption('RxBIN', 'rx_bin')).toBe(false);
  });
});
