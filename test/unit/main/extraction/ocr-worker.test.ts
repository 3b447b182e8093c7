import { describe, expect, it } from 'vitest';
import { joinPages, unpacked, type OcrPage } from '@src/main/extraction/ocr-worker';

describe('paths of the unpacked OCR packages in the packaged app', () => {
  it('point into app.asar.unpacked, on macOS and Windows alike, and leave other paths alone', () => {
    expect(unpacked('/Applications/Coverdesk.app/Contents/Resources/app.asar/node_modules/tesseract.js/src/x.js')).toBe(
      '/Applications/Coverdesk.app/Contents/Resources/app.asar.unpacked/node_modules/tesseract.js/src/x.js',
    );
    expect(unpacked('C:\\Program Files\\Coverdesk\\resources\\app.asar\\node_modules\\@tesseract.js-data\\eng')).toBe(
      'C:\\Program Files\\Coverdesk\\resources\\app.asar.unpacked\\node_modules\\@tesseract.js-data\\eng',
    );
    expect(unpacked('/work/main/node_modules/tesseract.js/src/x.js')).toBe('/work/main/node_modules/tesseract.js/src/x.js');
  });
});

describe('the two halves of a side, read apart, joined', () => {
  const half = (text: string, y0: number, height: number): OcrPage => {
    const word = { text, confidence: 91, bbox: { x0: 40, y0, x1: 200, y1: y0 + 24 } };
    return { text: `${text}\n`, lines: [{ text, confidence: 91, bbox: { ...word.bbox }, words: [word] }], width: 600, height };
  };

  it('keep the side’s coordinates: the lower half’s words and lines moved down by the cut, the upper half’s unchanged', () => {
    const page = joinPages(half('MEMBER', 30, 200), half('W331483193', 10, 180), 200, { width: 600, height: 380 });
    expect([page.width, page.height]).toEqual([600, 380]);
    expect(page.lines.map((l) => l.text)).toEqual(['MEMBER', 'W331483193']);
    expect(page.lines[0].words[0].bbox).toEqual({ x0: 40, y0: 30, x1: 200, y1: 54 });
    expect(page.lines[1].bbox).toEqual({ x0: 40, y0: 210, x1: 200, y1: 234 });
    expect(page.lines[1].words[0].bbox).toEqual({ x0: 40, y0: 210, x1: 200, y1: 234 });
    expect(page.text).toBe('MEMBER\nW331483193\n');
  });

  it('keep a half that read nothing out of the text, and leave the halves as they were', () => {
    const top = half('MEMBER', 30, 200);
    const empty: OcrPage = { text: '', lines: [], width: 600, height: 180 };
    expect(joinPages(top, empty, 200, { width: 600, height: 380 }).text).toBe('MEMBER\n');
    expect(joinPages(empty, top, 200, { width: 600, height: 380 }).text).toBe('MEMBER\n');
    const bottom = half('GROUP', 5, 180);
    joinPages(top, bottom, 200, { width: 600, height: 380 });
    expect(bottom.lines[0].words[0].bbox.y0).toBe(5);
  });

  it('drop what was read in the rows added below a half (its padding), text and lines', () => {
    const top = half('MEMBER', 30, 200);
    const padded: OcrPage = { ...top, text: 'MEMBER\n\n___\n', lines: [...top.lines, { ...half('___', 260, 200).lines[0] }] };
    const page = joinPages(padded, half('GROUP', 5, 180), 200, { width: 600, height: 380 });
    expect(page.lines.map((l) => l.text)).toEqual(['MEMBER', 'GROUP']);
    expect(page.text).toBe('MEMBER\nGROUP\n');
  });
});
