import { describe, expect, it } from 'vitest';
import { UNSURE_AT_MOST, type FieldSources } from '@src/main/extraction/field-parser';
import { REVIEW_BELOW } from '@src/shared/review-threshold';
import type { OcrLine, OcrPage, OcrWord } from '@src/main/extraction/ocr-worker';
import type { PreparedImage } from '@src/main/extraction/prepare-image';
import { lengthensRun, lookAtRxBlock, onTheSide, rxBlockRegion } from '@src/main/extraction/rx-block-look';
import type { ExtractedFields } from '@src/shared/contract';

/** A word of `h`-pixel text at (x0, y0), about 0.6 h a character. */
const word = (text: string, x0: number, y0: number, h = 20, confidence = 93): OcrWord => ({ text, confidence, bbox: { x0, y0, x1: x0 + Math.round(text.length * h * 0.6), y1: y0 + h } });
const line = (...words: OcrWord[]): OcrLine => ({
  text: words.map((w) => w.text).join(' '),
  confidence: 90,
  bbox: { x0: words[0].bbox.x0, y0: Math.min(...words.map((w) => w.bbox.y0)), x1: words[words.length - 1].bbox.x1, y1: Math.max(...words.map((w) => w.bbox.y1)) },
  words,
});
const page = (width: number, height: number, ...lines: OcrLine[]): OcrPage => ({ text: lines.map((l) => l.text).join('\n'), lines, width, height });
const side = (width: number, height: number): PreparedImage => ({ gray: new Uint8Array(width * height).fill(255), width, height, skew: 0 });

/**
 * NCPDP's pharmacy ID card guide prints the block as RxBIN, RxPCN, RxGRP one under the other,
 * the BIN six digits; the examples here are the guide's shapes with processors' published
 * codes (BIN 004336 and PCN ADV are a PBM's published commercial codes).
 */
describe('where the pharmacy block is', () => {
  const captions = [
    { page: 0, box: { x0: 600, y0: 300, x1: 660, y1: 320 } },
    { page: 0, box: { x0: 600, y0: 340, x1: 660, y1: 360 } },
  ];
  const sources: FieldSources = { rx_bin: { page: 0, box: { x0: 680, y0: 300, x1: 760, y1: 320 }, ocr: 0.95, sureAtMost: 1, captioned: true } };

  it('is around the Rx captions and values read, reaching down to a line missed under them and right to a caption missed beside them', () => {
    const region = rxBlockRegion([{ width: 1100, height: 694 }], { rx_bin: { value: '004336', confidence: 0.93 } }, sources, captions);
    expect(region).toEqual({ page: 0, box: { x0: 540, y0: 260, x1: 1100, y1: 540 }, scale: 1.5 });
  });

  it('is not looked for when the card shows no Rx caption, or when BIN, PCN and GRP were all read', () => {
    expect(rxBlockRegion([{ width: 1100, height: 694 }], {}, {}, [])).toBeUndefined();
    const all: ExtractedFields = { rx_bin: { value: '004336', confidence: 0.93 }, rx_pcn: { value: 'ADV', confidence: 0.9 }, rx_group: { value: 'RX1234', confidence: 0.85 } };
    expect(rxBlockRegion([{ width: 1100, height: 694 }], all, sources, captions)).toBeUndefined();
  });

  it('is looked for when all three were read but one is under "check this" with a run of one glyph the reader may have merged', () => {
    const unsure: ExtractedFields = { rx_bin: { value: '004336', confidence: 0.93 }, rx_pcn: { value: '032000', confidence: 0.79 }, rx_group: { value: 'RX1234', confidence: 0.85 } };
    expect(rxBlockRegion([{ width: 1100, height: 694 }], unsure, sources, captions)).toBeDefined();
    // Merely unsure: left to the closer re-read of the value alone.
    expect(rxBlockRegion([{ width: 1100, height: 694 }], { ...unsure, rx_pcn: { value: 'ADV', confidence: 0.6 } }, sources, captions)).toBeUndefined();
    // Sure, run or not: a run printed as such.
    expect(rxBlockRegion([{ width: 1100, height: 694 }], { ...unsure, rx_pcn: { value: '03200000', confidence: 0.85 } }, sources, captions)).toBeUndefined();
  });

  it('puts the enlarged reading’s words back where they are on the side', () => {
    const region = { page: 0, box: { x0: 540, y0: 260, x1: 1100, y1: 540 }, scale: 2 };
    const back = onTheSide(page(1120, 560, line(word('RxGRP', 100, 200))), region, { width: 1100, height: 694 });
    expect(back.lines[0].words[0].bbox).toEqual({ x0: 590, y0: 360, x1: 620, y1: 370 });
    expect([back.width, back.height]).toEqual([1100, 694]);
  });
});

describe('a run of one glyph read longer', () => {
  it('is the same code with a merged run kept, nothing else changed', () => {
    const pairs: [string, string, boolean][] = [
      ['032000', '03200000', true],
      ['RX000', 'RX0000', true],
      // Shorter, another glyph, a glyph added, the same: not a merged run kept.
      ['03200000', '032000', false],
      ['032000', '03300000', false],
      ['032000', '0320000A', false],
      ['032000', '032000', false],
    ];
    expect(pairs.map(([shorter, longer]) => lengthensRun(shorter, longer))).toEqual(pairs.map(([, , want]) => want));
  });
});

describe('the second look at the pharmacy block', () => {
  /** A card whose first reading found the BIN and the captions of PCN and GRP, their values lost. */
  const first = page(1100, 694, line(word('RxBIN', 600, 300), word('004336', 700, 300)), line(word('RxPCN', 600, 340)), line(word('RxGRP', 600, 380)));
  const read = (): { fields: ExtractedFields; sources: FieldSources } => ({
    fields: { rx_bin: { value: '004336', confidence: 0.93 } },
    sources: { rx_bin: { page: 0, box: { x0: 700, y0: 300, x1: 772, y1: 320 }, ocr: 0.95, sureAtMost: 1, captioned: true } },
  });
  /** The block as the look reads it (in the enlarged region's pixels: 1.5×, from (540, 240)). */
  const look = (block: OcrPage) => {
    const calls: Record<string, string>[] = [];
    return {
      calls,
      deps: {
        recognize: async (_image: PreparedImage, params: Record<string, string>) => {
          calls.push(params);
          return block;
        },
        enlarge: async (_image: PreparedImage, box: { x0: number; y0: number; x1: number; y1: number }, scale: number) => side(Math.round((box.x1 - box.x0) * scale), Math.round((box.y1 - box.y0) * scale)),
      },
    };
  };

  it('reads the block as one block of text and takes the values read beside their own captions', async () => {
    const r = read();
    const { deps, calls } = look(page(840, 450, line(word('RxBIN', 90, 90, 30), word('004336', 240, 90, 30)), line(word('RxPCN', 90, 150, 30), word('ADV', 240, 150, 30)), line(word('RxGRP', 90, 210, 30), word('RX1234', 240, 210, 30))));
    expect(await lookAtRxBlock(deps, { read: r, pages: [first], prepared: [side(1100, 694)], surerBy: 0.2 })).toEqual(['rx-block']);
    expect(calls).toEqual([{ tessedit_pageseg_mode: '6' }]);
    expect(r.fields.rx_pcn?.value).toBe('ADV');
    expect(r.fields.rx_group?.value).toBe('RX1234');
    // Where each was read, on the side: a later closer look crops it there.
    expect(r.sources.rx_pcn?.box.x0).toBeCloseTo(540 + 240 / 1.5);
    // The BIN read first stands.
    expect(r.fields.rx_bin).toEqual({ value: '004336', confidence: 0.93 });
  });

  it('never takes a value whose caption it could not read (a line placed by its position in the stack), and keeps a repaired one under "check this"', async () => {
    const r = read();
    // The PCN's caption misread past any caption rule; the group's value with an O for a 0 in its digits.
    const { deps } = look(page(840, 450, line(word('RxBIN', 90, 90, 30), word('004336', 240, 90, 30)), line(word('Rxp:', 90, 150, 30), word('ADV', 240, 150, 30)), line(word('RxGRP', 90, 210, 30), word('2O0143', 240, 210, 30))));
    await lookAtRxBlock(deps, { read: r, pages: [first], prepared: [side(1100, 694)], surerBy: 0.2 });
    expect(r.fields.rx_pcn).toBeUndefined();
    expect(r.fields.rx_group?.value).toBe('200143');
    expect(r.fields.rx_group!.confidence).toBeLessThanOrEqual(UNSURE_AT_MOST);
  });

  it('never takes a value under a caption recovered from a misread: a caption cut short ("RxGRO") may have lost its value\'s end too', async () => {
    const r = read();
    const { deps } = look(page(840, 450, line(word('RxBIN', 90, 90, 30), word('004336', 240, 90, 30)), line(word('RxPCN', 90, 150, 30), word('ADV', 240, 150, 30)), line(word('RxGRO', 90, 210, 30), word('RX21', 240, 210, 30))));
    await lookAtRxBlock(deps, { read: r, pages: [first], prepared: [side(1100, 694)], surerBy: 0.2 });
    expect(r.fields.rx_pcn?.value).toBe('ADV');
    expect(r.fields.rx_group).toBeUndefined();
  });

  it('fills a missing code read under its NCPDP caption with only the "Rx" misread ("RPCN", "HxGRP"), under "check this"', async () => {
    const r = read();
    const { deps } = look(page(840, 450, line(word('RxBIN', 90, 90, 30), word('004336', 240, 90, 30)), line(word('RPCN', 90, 150, 30), word('ADV', 240, 150, 30)), line(word('HxGRP', 90, 210, 30), word('RX1234', 240, 210, 30))));
    await lookAtRxBlock(deps, { read: r, pages: [first], prepared: [side(1100, 694)], surerBy: 0.2 });
    expect(r.fields.rx_pcn?.value).toBe('ADV');
    expect(r.fields.rx_group?.value).toBe('RX1234');
    expect(r.fields.rx_pcn!.confidence).toBeLessThan(REVIEW_BELOW);
    expect(r.fields.rx_group!.confidence).toBeLessThan(REVIEW_BELOW);
    expect(r.sources.rx_group).toMatchObject({ caption: 'HxGRP', captioned: false });
  });

  /** A card whose three codes were read, the PCN unsurely: a run of zeros collapsed ("032000" for 03200000). */
  const unsure = (ocr: number, pcn = '032000'): { fields: ExtractedFields; sources: FieldSources } => ({
    fields: { rx_bin: { value: '004336', confidence: 0.93 }, rx_pcn: { value: pcn, confidence: 0.79 }, rx_group: { value: 'RX1234', confidence: 0.9 } },
    sources: {
      rx_bin: { page: 0, box: { x0: 700, y0: 300, x1: 772, y1: 320 }, ocr: 0.95, sureAtMost: 1, captioned: true },
      rx_pcn: { page: 0, box: { x0: 700, y0: 340, x1: 772, y1: 360 }, ocr, sureAtMost: 1, captioned: true },
      rx_group: { page: 0, box: { x0: 700, y0: 380, x1: 772, y1: 400 }, ocr: 0.92, sureAtMost: 1, captioned: true },
    },
  });
  const withCodes = page(1100, 694, line(word('RxBIN', 600, 300), word('004336', 700, 300)), line(word('RxPCN', 600, 340), word('032000', 700, 340)), line(word('RxGRP', 600, 380), word('RX1234', 700, 380)));
  const block = (pcn: string, confidence = 93, pcnCaption = 'RxPCN') =>
    page(840, 450, line(word('RxBIN', 90, 90, 30), word('004336', 240, 90, 30)), line(word(pcnCaption, 90, 150, 30), word(pcn, 240, 150, 30, confidence)), line(word('RxGRP', 90, 210, 30), word('RX9999', 240, 210, 30)));

  it('replaces an unsure code by its reading under its own caption, in shape, read clearly surer; with the look\'s own confidence', async () => {
    const r = unsure(0.6);
    const { deps, calls } = look(block('03200000'));
    expect(await lookAtRxBlock(deps, { read: r, pages: [withCodes], prepared: [side(1100, 694)], surerBy: 0.2 })).toEqual(['rx-block']);
    expect(calls).toHaveLength(1);
    expect(r.fields.rx_pcn?.value).toBe('03200000');
    // A run of one glyph keeps even the look's reading under "check this".
    expect(r.fields.rx_pcn!.confidence).toBeLessThanOrEqual(UNSURE_AT_MOST);
    expect(r.sources.rx_pcn?.ocr).toBeCloseTo(0.93);
    // Codes read surely stand, whatever the look read for them.
    expect(r.fields.rx_group?.value).toBe('RX1234');
    expect(r.fields.rx_bin).toEqual({ value: '004336', confidence: 0.93 });
  });

  it('where the look runs for a missing field, replaces another code read unsurely by one read clearly surer in shape', async () => {
    const r = unsure(0.6, 'MEDDPRIMI');
    delete r.fields.rx_group;
    delete r.sources.rx_group;
    const { deps } = look(block('MEDDPRIME'));
    await lookAtRxBlock(deps, { read: r, pages: [withCodes], prepared: [side(1100, 694)], surerBy: 0.2 });
    expect(r.fields.rx_pcn?.value).toBe('MEDDPRIME');
    expect(r.sources.rx_pcn?.ocr).toBeCloseTo(0.93);
    const after: ExtractedFields = r.fields;
    expect(after.rx_group?.value).toBe('RX9999');
  });

  it('keeps the unsure code when the look is not clearly surer of its reading', async () => {
    const r = unsure(0.75, 'MEDDPRIMI');
    delete r.fields.rx_group;
    const { deps } = look(block('MEDDPRIME'));
    await lookAtRxBlock(deps, { read: r, pages: [withCodes], prepared: [side(1100, 694)], surerBy: 0.2 });
    expect(r.fields.rx_pcn).toEqual({ value: 'MEDDPRIMI', confidence: 0.79 });
  });

  it('replaces a code whose run of one glyph the first reading merged, however surely it read it', async () => {
    const r = unsure(0.95);
    const { deps } = look(block('03200000', 90));
    await lookAtRxBlock(deps, { read: r, pages: [withCodes], prepared: [side(1100, 694)], surerBy: 0.2 });
    expect(r.fields.rx_pcn?.value).toBe('03200000');
    expect(r.fields.rx_pcn!.confidence).toBeLessThanOrEqual(UNSURE_AT_MOST);
  });

  it('keeps the unsure code when the look\'s reading needed a repair, or its caption was not read as printed', async () => {
    for (const [pcn, caption] of [['O32OO000', 'RxPCN'], ['03200000', 'RxP:'], ['03200000', 'RPCN']]) {
      const r = unsure(0.6);
      const { deps } = look(block(pcn, 93, caption));
      await lookAtRxBlock(deps, { read: r, pages: [withCodes], prepared: [side(1100, 694)], surerBy: 0.2 });
      expect(r.fields.rx_pcn).toEqual({ value: '032000', confidence: 0.79 });
    }
  });

  it('costs nothing on a card that shows no pharmacy block', async () => {
    const r = { fields: {} as ExtractedFields, sources: {} as FieldSources };
    const { deps, calls } = look(page(10, 10));
    expect(await lookAtRxBlock(deps, { read: r, pages: [page(1100, 694, line(word('Member', 40, 100), word('JOHN', 160, 100)))], prepared: [side(1100, 694)], surerBy: 0.2 })).toEqual([]);
    expect(calls).toEqual([]);
  });
});
